"""tf.map_fn, tf.scan, tf.foldl, tf.foldr: values, reprs and errors recorded from TF 2.21."""

import pytest

import graphfn as tf


def sq(v):
    return v * v


def dbl(x):
    return x * 2


def pair(x):
    return (x[0], x[1] * 2)


def half(x):
    return tf.cast(x, tf.float32) / 2


def dct(x):
    return {"a": x[0] + x[1]}


def ident(x):
    return x


def castf(x):
    return tf.cast(x, tf.float32)


def add(a, x):
    return a + x


def dec(a, x):
    return a * 10 + x


def two(a, x):
    return (a[0] + x, a[1] * x)


def mul(a, v):
    return a * v


RESULTS = [
    (lambda: tf.map_fn(dbl, tf.constant([1, 2, 3])),
     "<tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 4, 6], dtype=int32)>"),
    (lambda: tf.map_fn(pair, (tf.constant([1, 2]), tf.constant([3, 4]))),
     "(<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>, "
     "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([6, 8], dtype=int32)>)"),
    (lambda: tf.map_fn(half, tf.constant([1, 2]), fn_output_signature=tf.float32),
     "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 1. ], dtype=float32)>"),
    (lambda: tf.map_fn(dct, (tf.constant([1, 2]), tf.constant([3, 4])), fn_output_signature={"a": tf.int32}),
     "{'a': <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>}"),
    (lambda: tf.map_fn(ident, tf.zeros([0, 2])),
     "<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>"),
    (lambda: tf.map_fn(ident, tf.constant([[1, 2], [3, 4]]), fn_output_signature=tf.TensorSpec([2], tf.int32)),
     "<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[1, 2],\n       [3, 4]], dtype=int32)>"),
    (lambda: tf.scan(add, tf.constant([1, 2, 3, 4])),
     "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([ 1,  3,  6, 10], dtype=int32)>"),
    (lambda: tf.scan(add, tf.constant([1, 2, 3, 4]), initializer=tf.constant(10)),
     "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([11, 13, 16, 20], dtype=int32)>"),
    (lambda: tf.scan(add, tf.constant([1, 2, 3, 4]), reverse=True),
     "<tf.Tensor: shape=(4,), dtype=int32, numpy=array([10,  9,  7,  4], dtype=int32)>"),
    (lambda: tf.scan(two, tf.constant([1, 2, 3]), initializer=(tf.constant(0), tf.constant(1))),
     "(<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 3, 6], dtype=int32)>, "
     "<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 6], dtype=int32)>)"),
    (lambda: tf.foldl(add, tf.constant([1, 2, 3, 4])), "<tf.Tensor: shape=(), dtype=int32, numpy=10>"),
    (lambda: tf.foldr(dec, tf.constant([1, 2, 3, 4])), "<tf.Tensor: shape=(), dtype=int32, numpy=4321>"),
    (lambda: tf.foldl(dec, tf.constant([1, 2, 3, 4]), initializer=tf.constant(5)),
     "<tf.Tensor: shape=(), dtype=int32, numpy=51234>"),
]


@pytest.mark.parametrize("call, expected", RESULTS)
def test_results_match_tensorflow(call, expected):
    assert repr(call()) == expected


ERRORS = [
    (lambda: tf.map_fn(ident, [1, 2]), ValueError, "Elements in elems must be 1+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(ident, tf.constant(1)), ValueError,
     "Elements in elems must be 1+ dimensional Tensors, not scalars"),
    (lambda: tf.map_fn(ident, (tf.constant([1, 2]), tf.constant([1, 2, 3]))), ValueError,
     "Dimensions 2 and 3 are not compatible"),
    (lambda: tf.map_fn(castf, tf.constant([1, 2])), tf.errors.InvalidArgumentError,
     "TensorArray dtype is int32 but Op is trying to write dtype float32 "),
    (lambda: tf.map_fn(ident, []), ValueError,
     "elems must be a Tensor or (possibly nested) sequence of Tensors. Got [], which does not contain any Tensors."),
    (lambda: tf.map_fn(3, [1]), AttributeError, "'int' object has no attribute '__name__'"),
    (lambda: tf.scan(add, tf.constant(1)), IndexError, "tuple index out of range"),
    (lambda: tf.foldl(add, tf.constant(1)), IndexError, "tuple index out of range"),
    (lambda: tf.scan(add, tf.zeros([0])), tf.errors.OutOfRangeError,
     "Tried to read from index 0 but array size is: 0 "),
    (lambda: tf.foldl(add, tf.zeros([0])), tf.errors.OutOfRangeError,
     "Tried to read from index 0 but array size is: 0 "),
    (lambda: tf.scan(add, [1, 2, 3]), IndexError, "tuple index out of range"),
    (lambda: tf.foldl(add, [1.0, 2.0], initializer=0.5), IndexError, "tuple index out of range"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors_match_tensorflow(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_map_fn_in_a_function_is_one_while_loop():
    @tf.function
    def f(x):
        return tf.map_fn(sq, x)

    assert repr(f(tf.constant([1.0, 2.0]))) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 4.], dtype=float32)>"
    concrete = f.get_concrete_function(tf.TensorSpec([None]))
    ops = sorted(set(n.op for n in concrete.graph.as_graph_def().node))
    assert ops == ["Const", "Identity", "Placeholder", "Shape", "StatelessWhile", "StridedSlice",
                   "TensorListFromTensor", "TensorListReserve", "TensorListStack"]
    assert str(concrete.structured_outputs) == 'Tensor("Identity:0", shape=(None,), dtype=float32)'


def test_gradients_flow_through_the_loops():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.map_fn(sq, x))
    assert t.gradient(y, x).numpy().tolist() == [2.0, 4.0, 6.0]
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.scan(mul, x)
    assert y.numpy().tolist() == [1.0, 2.0, 6.0]
    assert t.gradient(y, x).numpy().tolist() == [9.0, 4.0, 2.0]

    @tf.function
    def g(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.foldl(mul, x)
        return y, t.gradient(y, x)

    y, dx = g(x)
    assert y.numpy() == 6.0 and dx.numpy().tolist() == [6.0, 3.0, 2.0]


def test_a_tensor_array_is_an_eager_while_loop_variable():
    def body(i, ta):
        return i + 1, ta.write(i, i * 10)

    _, ta = tf.while_loop(lambda i, _: i < 3, body, (0, tf.TensorArray(tf.int32, size=3)))
    assert ta.stack().numpy().tolist() == [0, 10, 20]
