"""A tf.data iterator read inside a tf.function: passed in as an argument or captured, each call
takes the next element of the same iterator that eager next() reads, and after the last one the
call raises OutOfRangeError; Optionals cross function boundaries. Expected values recorded from
TF 2.21."""

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
