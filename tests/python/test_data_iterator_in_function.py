"""A tf.data iterator read inside a tf.function: passed in as an argument or captured, each call
takes the next element of the same iterator that eager next() reads, and after the last one the
call raises OutOfRangeError; Optionals cross function boundaries, come from
get_next_as_optional() in a function and can be loop variables (Keras's steps_per_execution).
Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import graphfn as tf


def pairs():
    return tf.data.Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.float32) * 2.0))


def test_iterator_is_a_tf_data_iterator_with_its_spec():
    it = iter(pairs())
    assert isinstance(it, tf.data.Iterator)
    assert repr(it._type_spec) == ("IteratorSpec((TensorSpec(shape=(), dtype=tf.int64, name=None), "
                                   "TensorSpec(shape=(), dtype=tf.float32, name=None)),)")
    assert isinstance(it._type_spec, tf.data.IteratorSpec)


def test_function_reads_the_iterator_it_is_given():
    it = iter(pairs())

    @tf.function
    def f(iterator):
        a, b = next(iterator)
        return a * 10 + tf.cast(b, tf.int64)

    assert f(it).numpy() == 0
    assert [t.numpy().item() for t in next(it)] == [1, 2.0]  # eager next() shares the position
    assert f(it).numpy() == 24
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        f(it)
    # Another iterator of the same element spec reuses the trace.
    assert f(iter(pairs())).numpy() == 0
    assert f.experimental_get_tracing_count() == 1


def test_captured_iterator_get_next():
    it = iter(tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]))

    @tf.function
    def g():
        return it.get_next() * 2

    assert g().numpy().tolist() == [2.0, 4.0]
    assert g().numpy().tolist() == [6.0, 8.0]
    with pytest.raises(tf.errors.OutOfRangeError):
        g()


def test_iterator_element_shapes_in_the_trace():
    it = iter(tf.data.Dataset.from_tensor_slices(tf.zeros([4, 3])).batch(2))
    shapes = []

    @tf.function
    def f(iterator):
        x = iterator.get_next()
        shapes.append(x.shape.as_list())
        return tf.reduce_sum(x)

    f(it)
    assert shapes == [[None, 3]]


def test_get_next_as_optional_eagerly():
    it = iter(tf.data.Dataset.range(1))
    first = it.get_next_as_optional()
    assert first.has_value().numpy() and first.get_value().numpy() == 0
    empty = it.get_next_as_optional()
    assert not empty.has_value().numpy()
    assert repr(empty.element_spec) == "TensorSpec(shape=(), dtype=tf.int64, name=None)"
    with pytest.raises(tf.errors.InvalidArgumentError):
        empty.get_value()
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        it.get_next()
    assert info.value.message == (
        "{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} End of sequence [Op:IteratorGetNext] name: ")


def test_function_returns_an_optional():
    @tf.function
    def h(x):
        return tf.experimental.Optional.from_value({"loss": x * 2, "n": x + 1})

    opt = h(tf.constant(3.0))
    assert isinstance(opt, tf.experimental.Optional)
    assert opt.has_value().numpy()
    assert sorted((k, v.numpy().item()) for k, v in opt.get_value().items()) == [("loss", 6.0), ("n", 4.0)]
    assert repr(opt.element_spec) == ("{'loss': TensorSpec(shape=(), dtype=tf.float32, name=None), "
                                      "'n': TensorSpec(shape=(), dtype=tf.float32, name=None)}")
    assert repr(tf.experimental.Optional.from_value(tf.constant([1, 2]))._type_spec) == \
        "OptionalSpec(TensorSpec(shape=(2,), dtype=tf.int32, name=None),)"


def test_function_returns_an_empty_optional():
    @tf.function
    def h():
        return tf.experimental.Optional.empty(tf.TensorSpec([2], tf.float32))

    opt = h()
    assert not opt.has_value().numpy()
    with pytest.raises(tf.errors.InvalidArgumentError):
        opt.get_value()


def test_get_next_as_optional_in_a_function():
    it = iter(tf.data.Dataset.range(5))

    @tf.function
    def f(it):
        opt = it.get_next_as_optional()
        return tf.cond(opt.has_value(), lambda: opt.get_value(), lambda: tf.constant(-1, tf.int64))

    assert [int(f(it)) for _ in range(7)] == [0, 1, 2, 3, 4, -1, -1]  # TF 2.21


def test_get_next_as_optional_of_strings_and_ragged_elements():
    ds = tf.data.Dataset.from_tensor_slices((["a", "bb", "ccc"], tf.ragged.constant([[1], [2, 3], []])))
    it = iter(ds.filter(lambda s, r: True))

    @tf.function
    def f(it):
        opt = it.get_next_as_optional()
        return opt.has_value(), tf.cond(opt.has_value(), lambda: tf.strings.length(opt.get_value()[0]), lambda: -1)

    got = [tuple(x.numpy().item() for x in f(it)) for _ in range(4)]
    assert got == [(True, 1), (True, 2), (True, 3), (False, -1)]  # TF 2.21


def test_optional_loop_variable_whose_spec_is_set_in_the_body():
    # Keras's multi-step training loop (steps_per_execution > 1): the Optional enters the loop
    # empty with no element spec, which the body sets while it is traced.
    it = iter(tf.data.Dataset.range(7))

    @tf.function
    def g(it):
        empty = tf.experimental.Optional.empty(None)

        def body(i, out, nxt):
            def has():
                o = tf.experimental.Optional.from_value(nxt.get_value() * 10)
                empty._element_spec = o.element_spec
                return o

            def has_not():
                out._element_spec = empty._element_spec
                return out

            new = tf.cond(tf.logical_and(i < 3, nxt.has_value()), has, has_not)
            return i + 1, new, it.get_next_as_optional()

        _, final, _ = tf.while_loop(lambda i, out, nxt: tf.logical_and(i < 3, nxt.has_value()), body,
                                    loop_vars=[tf.constant(0), empty, it.get_next_as_optional()])
        final._element_spec = empty.element_spec
        return final

    got = []
    for _ in range(4):
        o = g(it)
        got.append((bool(o.has_value()), int(o.get_value()) if o.has_value() else None))
    assert got == [(True, 20), (True, 60), (False, None), (False, None)]  # TF 2.21


def test_empty_optional_get_value_message():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).get_value()
    assert "The given optional does not have a value." in info.value.message  # TF 2.21's text

    @tf.function
    def f():
        return tf.experimental.Optional.empty(tf.TensorSpec([], tf.int32)).get_value()

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f()
    assert "The given optional does not have a value." in info.value.message
    assert not tf.raw_ops.OptionalHasValue(optional=tf.raw_ops.OptionalNone()).numpy()


@pytest.mark.parametrize("steps_per_execution", [1, 3, 4])
def test_keras_fit_with_steps_per_execution_on_data_of_unknown_length(steps_per_execution):
    keras = tf.keras
    rng = np.random.default_rng(0)
    x = rng.random((100, 8)).astype("float32")
    y = (x.sum(1) > 4).astype("int32")
    w0 = (np.arange(32).reshape(8, 4) % 7 - 3).astype("float32") / 10
    w1 = (np.arange(8).reshape(4, 2) % 3 - 1).astype("float32") / 5
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16).filter(lambda a, b: True)  # length unknown
    model = keras.Sequential([
        keras.Input((8,)),
        keras.layers.Dense(4, activation="relu", kernel_initializer=keras.initializers.Constant(w0)),
        keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(w1))])
    model.compile(keras.optimizers.SGD(0.1), keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  steps_per_execution=steps_per_execution)
    with pytest.warns(UserWarning, match="ran out of data"):  # TF's Keras warns too: the length is unknown
        losses = model.fit(ds, epochs=2, verbose=0, shuffle=False).history["loss"]
        loss = model.evaluate(ds, verbose=0)
    # TF 2.21 (Keras 3.15) gives these for 1, 3 and 4 steps per execution alike.
    np.testing.assert_allclose(losses, [0.689131, 0.683462], atol=2e-6)
    np.testing.assert_allclose(loss, 0.680747, atol=2e-6)
