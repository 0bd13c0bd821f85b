"""tf.py_function and tf.numpy_function, eagerly and in functions: values, graphs, errors and
gradients recorded from TF 2.21."""

import numpy as np
import pytest

import graphfn as tf
from graphfn import _core


def f1(x):
    return x * 2


RESULTS = [
    (lambda: tf.py_function(f1, [tf.constant([1.0, 2.0])], tf.float32),
     "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>"),
    (lambda: tf.py_function(f1, [tf.constant([1.0, 2.0])], Tout=[tf.float32]),
     "[<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>]"),
    (lambda: tf.py_function(lambda a, b: (a + b, a * b), [1.0, 2.0], [tf.float32, tf.float32]),
     "[<tf.Tensor: shape=(), dtype=float32, numpy=3.0>, <tf.Tensor: shape=(), dtype=float32, numpy=2.0>]"),
    (lambda: tf.py_function(lambda: None, [], []), "[]"),
    # A list result holds one value per output: TF keeps the first for one output.
    (lambda: tf.py_function(lambda a: a.numpy().tolist(), [tf.constant([1, 2])], tf.int32),
     "<tf.Tensor: shape=(), dtype=int32, numpy=1>"),
    (lambda: tf.py_function(lambda a: (a, a), [tf.constant([1, 2])], tf.int32),
     "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"),
    (lambda: tf.numpy_function(lambda a: a * 2, [tf.constant([1, 2])], tf.int32),
     "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 4], dtype=int32)>"),
    (lambda: tf.numpy_function(lambda a: type(a).__name__, [tf.constant([1, 2])], tf.string),
     "<tf.Tensor: shape=(), dtype=string, numpy=b'ndarray'>"),
    # Eagerly TF does not force Tout's dtype on numpy_function's results.
    (lambda: tf.numpy_function(lambda a: a.astype(np.float64), [tf.constant([1, 2])], tf.float32),
     "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1., 2.])>"),
    (lambda: tf.numpy_function(lambda a: a, [tf.constant([1, 2])], tf.int32, stateful=False),
     "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>"),
]


@pytest.mark.parametrize("call, expected", RESULTS)
def test_eager_results_match_tensorflow(call, expected):
    assert repr(call()) == expected


def test_eager_errors_are_the_ops_errors():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.py_function(lambda a: 1.5, [tf.constant([1, 2])], tf.int32)
    assert str(info.value).startswith(
        "{{function_node __wrapped__EagerPyFunc_Tin_1_Tout_1_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "TypeError: Cannot convert 1.5 to EagerTensor of dtype int32\nTraceback (most recent call last):\n")
    with pytest.raises(tf.errors.UnknownError) as info:
        tf.py_function(lambda a: 1 / 0, [tf.constant(1)], tf.int32)
    message = str(info.value)
    assert message.startswith("{{function_node __wrapped__EagerPyFunc_Tin_1_Tout_1_device_/job:localhost/replica:0/"
                              "task:0/device:CPU:0}} ZeroDivisionError: division by zero\nTraceback")
    assert message.endswith("ZeroDivisionError: division by zero\n\n [Op:EagerPyFunc] name: ")
    # numpy_function eagerly lets the function's exception through.
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        tf.numpy_function(lambda a: 1 / 0, [tf.constant(1)], tf.int32)


@pytest.mark.parametrize("api", ["py_function", "numpy_function"])
def test_missing_tout_gives_tensorflows_error(api):
    with pytest.raises(TypeError) as info:
        getattr(tf, api)(lambda a: a, [1], None)
    assert str(info.value) == ("Missing required argument: 'Tout'\n  If using tf.%s as a decorator, set `Tout`\n"
                               "  **by name** above the function:\n  `@tf.%s(Tout=tout)`" % (api, api))


def test_decorator_form():
    @tf.py_function(Tout=tf.float32)
    def deco(x):
        return x * 2

    assert repr(deco(tf.constant(2.0))) == "<tf.Tensor: shape=(), dtype=float32, numpy=4.0>"


def test_in_a_function_the_node_calls_back_into_python():
    @tf.function
    def g(x):
        return tf.py_function(f1, [x], tf.float32) + 1

    assert repr(g(tf.constant([1.0, 2.0]))) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 5.], dtype=float32)>"
    cf = g.get_concrete_function(tf.TensorSpec([2]))
    # TF 2.21 lists Identity before NoOp; the nodes are the same.
    assert sorted((n.name, n.op) for n in cf.graph.as_graph_def().node) == sorted(
        [("x", "Placeholder"), ("EagerPyFunc", "EagerPyFunc"), ("add/y", "Const"), ("add", "AddV2"),
         ("Identity", "Identity"), ("NoOp", "NoOp")])
    assert str(cf.structured_outputs) == 'Tensor("Identity:0", dtype=float32)'

    @tf.function
    def h(x):
        return tf.numpy_function(lambda a: a * 3, [x], tf.float32)

    assert repr(h(tf.constant([1.0, 2.0]))) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 6.], dtype=float32)>"
    assert sorted(n.op for n in h.get_concrete_function(tf.TensorSpec([2])).graph.as_graph_def().node) == \
        ["Identity", "NoOp", "Placeholder", "PyFunc"]


def test_several_outputs_in_a_function():
    @tf.function
    def g(x, y):
        a, b = tf.py_function(lambda p, q: (p * q, p + q), [x, y], [tf.float32, tf.float32])
        return a, b

    a, b = g(tf.constant(2.0), tf.constant(5.0))
    assert (a.numpy(), b.numpy()) == (10.0, 7.0)


def test_errors_in_a_function():
    @tf.function
    def g3(x):
        return tf.py_function(lambda a: 1.5, [x], tf.int32)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        g3(tf.constant(1))
    assert "TypeError: Cannot convert 1.5 to EagerTensor of dtype int32" in str(info.value)

    @tf.function
    def g4(x):
        return tf.numpy_function(lambda a: a.astype("float64"), [x], tf.float32)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        g4(tf.constant(1.0))
    assert "0-th value returned by pyfunc_" in str(info.value)
    assert " is double, but expects float" in str(info.value)

    @tf.function
    def g(x):
        return tf.py_function(lambda a: 1 / 0, [x], tf.int32)

    with pytest.raises(tf.errors.UnknownError) as info:
        g(tf.constant(1))
    assert "ZeroDivisionError: division by zero" in str(info.value)


def test_gradients_eagerly_and_in_functions():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.py_function(lambda a: a * a, [x], tf.float32)
    assert t.gradient(y, x).numpy() == 6.0

    @tf.function
    def gg(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.py_function(lambda a: a * a, [x], tf.float32)
        return t.gradient(y, x)

    assert gg(x).numpy() == 6.0

    @tf.function
    def two(x, y):
        with tf.GradientTape(persistent=True) as t:
            t.watch([x, y])
            a, b = tf.py_function(lambda p, q: (p * q, p + q), [x, y], [tf.float32, tf.float32])
        return t.gradient(a, [x, y]), t.gradient(b, [x, y])

    (da, db) = two(tf.constant(2.0), tf.constant(5.0))
    assert [v.numpy() for v in da] == [5.0, 2.0] and [v.numpy() for v in db] == [1.0, 1.0]
    # numpy_function has no gradient.
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.numpy_function(lambda a: a * a, [x], tf.float32)
    assert t.gradient(y, x) is None


def test_a_runtime_without_python_fails_the_node_cleanly():
    @tf.function
    def g(x):
        return tf.py_function(f1, [x], tf.float32)

    g(tf.constant(1.0))  # traced while Python can answer
    _core.enable_host_callback(False)
    try:
        with pytest.raises(tf.errors.FailedPreconditionError, match="this runtime has no Python"):
            g(tf.constant(1.0))
    finally:
        _core.enable_host_callback(True)
    assert g(tf.constant(1.0)).numpy() == 2.0


def test_threads_call_python_functions_at_once():
    import threading

    @tf.function
    def g(x):
        return tf.py_function(lambda a: a + 1, [x], tf.float32)

    results = {}

    def work(i):
        results[i] = [float(g(tf.constant(float(i * 100 + k))).numpy()) for k in range(20)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert results == {i: [float(i * 100 + k + 1) for k in range(20)] for i in range(4)}


def test_a_saved_model_calling_python_is_refused_on_load(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return tf.py_function(f1, [x], tf.float32)

    tf.saved_model.save(M(), str(tmp_path))  # saving works, as in TF
    with pytest.raises(tf.errors.PermissionDeniedError) as info:
        tf.saved_model.load(str(tmp_path))
    assert "(EagerPyFunc) calls the Python function 'pyfunc_" in str(info.value)
    assert str(info.value).endswith("a loaded model cannot call Python functions")
