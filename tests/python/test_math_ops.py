"""Element-wise math ops against NumPy (values, dtypes, broadcasting) for every supported dtype."""

import numpy as np
import pytest

import graphfn as tf

RNG = np.random.default_rng(0)
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8]
FLOAT_TYPES = [np.float32, np.float64]


def sample(dtype, shape, low=-20, high=20):
    if np.issubdtype(dtype, np.floating):
        return RNG.uniform(low, high, size=shape).astype(dtype)
    info = np.iinfo(dtype)
    return RNG.integers(max(low, info.min), min(high, info.max), size=shape, endpoint=True).astype(dtype)


BINARY = [
    (tf.add, np.add, FLOAT_TYPES + INT_TYPES),
    (tf.subtract, np.subtract, FLOAT_TYPES + INT_TYPES),
    (tf.multiply, np.multiply, FLOAT_TYPES + INT_TYPES),
    (tf.maximum, np.maximum, FLOAT_TYPES + INT_TYPES),
    (tf.minimum, np.minimum, FLOAT_TYPES + INT_TYPES),
    (tf.math.floormod, np.mod, FLOAT_TYPES + INT_TYPES),
    (tf.math.floordiv, np.floor_divide, FLOAT_TYPES + INT_TYPES),
]
SHAPE_PAIRS = [((), ()), ((5,), ()), ((), (5,)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((2, 3, 4), (3, 1)),
               ((0, 3), (3,))]


@pytest.mark.parametrize("tf_fn, np_fn, types", BINARY, ids=lambda v: getattr(v, "__name__", ""))
def test_binary_ops_match_numpy(tf_fn, np_fn, types):
    for dtype in types:
        for sa, sb in SHAPE_PAIRS:
            x = sample(dtype, sa)
            y = sample(dtype, sb)
            if np_fn in (np.mod, np.floor_divide):
                y = np.where(y == 0, dtype(3), y).astype(dtype)
            with np.errstate(over="ignore"):
                expected = np_fn(x, y)
            got = tf_fn(tf.constant(x), tf.constant(y))
            assert got.dtype == tf.as_dtype(dtype)
            assert got.shape.as_list() == list(expected.shape)
            np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_comparisons_match_numpy():
    for dtype in FLOAT_TYPES + INT_TYPES:
        x, y = sample(dtype, (3, 4)), sample(dtype, (4,))
        for tf_fn, np_fn in [(tf.less, np.less), (tf.less_equal, np.less_equal), (tf.greater, np.greater),
                             (tf.greater_equal, np.greater_equal), (tf.equal, np.equal),
                             (tf.not_equal, np.not_equal)]:
            got = tf_fn(x, tf.constant(y))
            assert got.dtype == tf.bool
            np.testing.assert_array_equal(got.numpy(), np_fn(x, y))


@pytest.mark.parametrize("tf_fn, np_fn", [
    (tf.sqrt, np.sqrt), (tf.exp, np.exp), (tf.math.log, np.log), (tf.tanh, np.tanh),
    (tf.sigmoid, lambda x: 1 / (1 + np.exp(-x))), (tf.square, np.square), (tf.abs, np.abs),
    (tf.negative, np.negative), (tf.sign, np.sign), (tf.nn.relu, lambda x: np.maximum(x, 0)),
])
def test_unary_float_ops_match_numpy(tf_fn, np_fn):
    for dtype in FLOAT_TYPES:
        x = sample(dtype, (4, 5), 0.1, 5) if tf_fn in (tf.sqrt, tf.math.log) else sample(dtype, (4, 5), -5, 5)
        got = tf_fn(tf.constant(x))
        assert got.dtype == tf.as_dtype(dtype)
        np.testing.assert_allclose(got.numpy(), np_fn(x), rtol=2e-6 if dtype == np.float32 else 1e-12)


def test_unary_integer_ops_match_numpy():
    x = np.array([-3, 0, 4], np.int32)
    np.testing.assert_array_equal(tf.abs(x).numpy(), np.abs(x))
    np.testing.assert_array_equal(tf.negative(x).numpy(), -x)
    np.testing.assert_array_equal(tf.sign(x).numpy(), np.sign(x))
    np.testing.assert_array_equal(tf.square(x).numpy(), x * x)
    np.testing.assert_array_equal(tf.nn.relu(x).numpy(), np.maximum(x, 0))


def test_pow():
    assert tf.pow(tf.constant([2, 3]), 3).numpy().tolist() == [8, 27]
    np.testing.assert_allclose(tf.pow(tf.constant([4.0, 9.0]), 0.5).numpy(), [2.0, 3.0])
    assert (tf.constant(2.0) ** 10).numpy() == 1024.0
    assert (2 ** tf.constant(3)).numpy() == 8


def test_logical_ops():
    p = tf.constant([True, True, False, False])
    q = tf.constant([True, False, True, False])
    assert tf.logical_and(p, q).numpy().tolist() == [True, False, False, False]
    assert tf.logical_or(p, q).numpy().tolist() == [True, True, True, False]
    assert tf.logical_not(p).numpy().tolist() == [False, False, True, True]
    assert (p & q).numpy().tolist() == [True, False, False, False]
    assert (~p).numpy().tolist() == [False, False, True, True]


def test_cast():
    assert tf.cast(tf.constant([1.7, -1.7]), tf.int32).numpy().tolist() == [1, -1]
    assert tf.cast(tf.constant([0, 2]), tf.bool).numpy().tolist() == [False, True]
    assert tf.cast([1, 2], tf.float64).dtype == tf.float64
    assert tf.cast(tf.constant(True), tf.float32).numpy() == 1.0


def test_truediv_dtypes_follow_tensorflow():
    # TF: int8/int16/uint8 -> float32, int32/int64 -> float64, floats unchanged.
    assert tf.divide(tf.constant(7, tf.int8), tf.constant(2, tf.int8)).dtype == tf.float32
    assert tf.divide(tf.constant(7, tf.int64), tf.constant(2, tf.int64)).dtype == tf.float64
    assert (tf.constant([7, 8]) / 2).numpy().tolist() == [3.5, 4.0]
    assert (tf.constant(1.0, tf.float64) / 4).dtype == tf.float64


def test_namespaces():
    assert tf.math.add is tf.add
    assert tf.math.divide is tf.divide
    assert tf.nn.relu(tf.constant(-1.0)).numpy() == 0.0
    assert tf.math.mod is tf.math.floormod


def test_sigmoid_is_accurate_in_the_tails():
    # Against 1 / (1 + exp(-x)) in float64: within 3 float32 ulps everywhere (an approximation
    # of the logistic function used before was off by 2e-4, relative, at x = -8). float32 computes
    # as TF 2.21's kernel does, which is 2.3 ulps off at x = -20.
    x = np.array([-87.0, -20.0, -17.0, -8.0, -3.0, -0.5, 0.0, 0.5, 3.0, 8.0, 17.0], np.float32)
    exact = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
    got = tf.sigmoid(tf.constant(x)).numpy().astype(np.float64)
    np.testing.assert_array_less(np.abs(got - exact), 3 * np.spacing(exact.astype(np.float32)) + 1e-45)
    got64 = tf.sigmoid(tf.constant(x.astype(np.float64))).numpy()
    np.testing.assert_allclose(got64, exact, rtol=1e-15, atol=0)
