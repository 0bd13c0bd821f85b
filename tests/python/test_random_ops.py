"""tf.random.uniform / tf.random.normal / tf.random.set_seed. Values need not equal TF's bit for
bit, so the statistical tests check distributions with fixed seeds; seed semantics and error
types/texts were checked against TensorFlow 2.21."""

import os
import subprocess
import sys

import numpy as np
import pytest

import graphfn as tf
from graphfn.framework import random_seed

N = 100_000


@pytest.fixture(autouse=True)
def clear_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


# --- Distributions -------------------------------------------------------------------------

def test_uniform_default_is_float32_on_unit_interval():
    tf.random.set_seed(1)
    x = tf.random.uniform([N])
    assert x.dtype == tf.float32 and x.shape == (N,)
    v = x.numpy()
    assert v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 0.005          # standard error ~ 0.0009
    assert abs(v.var() - 1 / 12) < 0.002        # ~ 0.0002
    counts, _ = np.histogram(v, bins=10, range=(0, 1))
    assert np.all(np.abs(counts - N / 10) < 600)  # sd ~ 95


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_uniform_with_bounds(dtype):
    tf.random.set_seed(2)
    v = tf.random.uniform([N], minval=-2, maxval=3, dtype=dtype).numpy()
    assert v.dtype == dtype.as_numpy_dtype
    assert v.min() >= -2 and v.max() < 3
    assert abs(v.mean() - 0.5) < 0.03           # se ~ 0.0046
    assert abs(v.var() - 25 / 12) < 0.05        # se ~ 0.006


def test_uniform_bounds_broadcast():
    tf.random.set_seed(3)
    v = tf.random.uniform([N, 3], minval=[0., 10., -5.], maxval=[1., 20., -4.]).numpy()
    assert np.all(v >= [0, 10, -5]) and np.all(v < [1, 20, -4])
    np.testing.assert_allclose(v.mean(axis=0), [0.5, 15, -4.5], atol=0.05)


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_uniform_int_covers_range_evenly(dtype):
    tf.random.set_seed(4)
    x = tf.random.uniform([70_000], minval=-3, maxval=4, dtype=dtype)
    assert x.dtype == dtype
    v = x.numpy()
    assert v.min() == -3 and v.max() == 3
    counts = np.bincount(v + 3, minlength=7)
    assert np.all(np.abs(counts - 10_000) < 500)  # sd ~ 93


def test_uniform_int_full_ranges():
    tf.random.set_seed(5)
    v32 = tf.random.uniform([10_000], minval=-2**31, maxval=2**31 - 1, dtype=tf.int32).numpy()
    v64 = tf.random.uniform([10_000], minval=-2**63, maxval=2**63 - 1, dtype=tf.int64).numpy()
    assert abs((v32 < 0).mean() - 0.5) < 0.03
    assert abs((v64 < 0).mean() - 0.5) < 0.03
    assert len(np.unique(v64)) == 10_000


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_normal_mean_and_stddev(dtype):
    tf.random.set_seed(6)
    v = tf.random.normal([N], mean=2.0, stddev=3.0, dtype=dtype).numpy()
    assert v.dtype == dtype.as_numpy_dtype
    assert abs(v.mean() - 2) < 0.05             # se ~ 0.0095
    assert abs(v.std() - 3) < 0.04              # se ~ 0.0067
    z = (v - 2) / 3
    assert abs((np.abs(z) < 1).mean() - 0.6827) < 0.008   # se ~ 0.0015
    assert abs((np.abs(z) < 2).mean() - 0.9545) < 0.004   # se ~ 0.0007
    assert abs(np.mean(z ** 3)) < 0.05          # skewness 0, se ~ 0.008
    assert abs(np.mean(z ** 4) - 3) < 0.15      # kurtosis 3, se ~ 0.025


def test_normal_broadcasts_mean():
    tf.random.set_seed(7)
    v = tf.random.normal([N, 2], mean=[-10., 10.], stddev=0.5).numpy()
    np.testing.assert_allclose(v.mean(axis=0), [-10, 10], atol=0.02)
    np.testing.assert_allclose(v.std(axis=0), [0.5, 0.5], atol=0.01)


@pytest.mark.parametrize("shape, expected", [
    ([], ()), ((), ()), ([2, 3], (2, 3)), ((0, 3), (0, 3)),
    (tf.TensorShape([4, 1]), (4, 1)), (np.array([5]), (5,)),
    (tf.constant([2, 2], tf.int64), (2, 2)), ([2, np.int64(3)], (2, 3)),
])
def test_shape_arguments(shape, expected):
    assert tf.random.uniform(shape).shape == expected
    assert tf.random.normal(shape).shape == expected


def test_exported_names():
    from graphfn.ops import random_ops
    assert tf.random.uniform is random_ops.random_uniform
    assert tf.random.normal is random_ops.random_normal
    assert tf.random.set_seed is random_seed.set_seed


# --- Bit layout: Philox4x32-10 reference in pure Python ----------------------------------------

def philox4x32_10(ctr, key):
    m0, m1, w0, w1, mask = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85, 0xFFFFFFFF
    c, k = list(ctr), list(key)
    for r in range(10):
        if r:
            k = [(k[0] + w0) & mask, (k[1] + w1) & mask]
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & mask, (p0 >> 32) ^ c[3] ^ k[1], p0 & mask]
    return c


def test_philox_reference_matches_known_answer():
    assert philox4x32_10([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]) == \
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]


def test_uniform_bits_are_philox_of_the_seed_pair():
    # Op seed only: the pair is (87654321, 7): key = seed, counter = (block, 0, seed2, 0).
    # float32 keeps the top 24 bits of each word.
    words = philox4x32_10([0, 0, 7, 0], [87654321, 0]) + philox4x32_10([1, 0, 7, 0], [87654321, 0])
    expected = np.array([(w >> 8) * 2.0**-24 for w in words[:6]], np.float32)
    np.testing.assert_array_equal(tf.random.uniform([6], seed=7).numpy(), expected)
    # The next call continues with block 2.
    words = philox4x32_10([2, 0, 7, 0], [87654321, 0])
    expected = np.array([(w >> 8) * 2.0**-24 for w in words[:2]], np.float32)
    np.testing.assert_array_equal(tf.random.uniform([2], seed=7).numpy(), expected)


# --- Seed semantics (TF 2 eager) -------------------------------------------------------------

def u(*args, **kwargs):
    return tf.random.uniform([4], *args, **kwargs).numpy()


def test_unseeded_calls_differ_and_set_seed_none_does_not_repeat_them():
    a, b = u(), u()
    tf.random.set_seed(None)
    c = u()
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


def test_global_seed_alone_reproduces_the_sequence():
    tf.random.set_seed(1234)
    first = [u(), tf.random.normal([4]).numpy(), u()]
    assert not np.array_equal(first[0], first[2])
    tf.random.set_seed(1234)
    again = [u(), tf.random.normal([4]).numpy(), u()]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)
    tf.random.set_seed(1235)
    assert not np.array_equal(u(), first[0])


def test_op_seed_alone_gives_fresh_samples_that_repeat_after_set_seed():
    a1, a2 = u(seed=7), u(seed=7)
    assert not np.array_equal(a1, a2)
    tf.random.set_seed(None)
    np.testing.assert_array_equal(u(seed=7), a1)
    np.testing.assert_array_equal(u(seed=7), a2)
    # With only an op seed the global seed is the default, 87654321: the same pair.
    tf.random.set_seed(87654321)
    np.testing.assert_array_equal(u(seed=7), a1)


def test_both_seeds():
    tf.random.set_seed(3)
    b1, b2 = u(seed=7), u(seed=7)
    assert not np.array_equal(b1, b2)
    tf.random.set_seed(3)
    np.testing.assert_array_equal(u(seed=7), b1)
    tf.random.set_seed(4)
    assert not np.array_equal(u(seed=7), b1)


def test_each_op_and_dtype_has_its_own_stream():
    tf.random.set_seed(1)
    a1, a2 = u(seed=7), u(seed=7)
    tf.random.set_seed(1)
    u(seed=7)
    tf.random.normal([4], seed=7)
    tf.random.uniform([4], seed=7, dtype=tf.float64)
    tf.random.uniform([4], seed=7, maxval=5, dtype=tf.int32)
    np.testing.assert_array_equal(u(seed=7), a2)
    assert not np.array_equal(a1, a2)


def test_unit_range_shortcut_matches_explicit_bounds():
    tf.random.set_seed(1)
    a = u(minval=0, maxval=1)
    tf.random.set_seed(1)
    np.testing.assert_array_equal(u(minval=0., maxval=1.), a)


@pytest.mark.parametrize("global_seed, op_seed, expected", [
    (None, None, (None, None)),
    (None, 7, (87654321, 7)),
    (5, 3, (5, 3)),
    (0, 0, (0, 2147483647)),
    (2**31 + 5, 2**40, (6, 512)),
    (-1, -3, (2147483646, 2147483644)),
    (None, True, (87654321, 1)),
])
def test_get_seed_pairs_match_tensorflow(global_seed, op_seed, expected):
    tf.random.set_seed(global_seed)
    assert random_seed.get_seed(op_seed) == expected


def test_get_seed_counter_restarts_with_set_seed():
    tf.random.set_seed(5)
    first = [random_seed.get_seed(None) for _ in range(3)]
    assert all(g == 5 and 0 <= s < 2**31 - 1 for g, s in first)
    assert len({s for _, s in first}) == 3
    tf.random.set_seed(5)
    assert [random_seed.get_seed(None) for _ in range(3)] == first


def test_seeded_values_are_the_same_in_a_new_process():
    code = ("import graphfn as tf; tf.random.set_seed(42); "
            "print(tf.random.uniform([3]).numpy().tolist(), tf.random.normal([3], seed=1).numpy().tolist(), "
            "tf.random.uniform([2], maxval=10**12, dtype=tf.int64, seed=2).numpy().tolist())")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]


# --- Errors (types and texts from TF 2.21) ---------------------------------------------------

PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


@pytest.mark.parametrize("expr, op, message", [
    ("tf.random.uniform([-1])", "RandomUniform", "Dimension -1 must be >= 0"),
    ("tf.random.normal([2, -3])", "RandomStandardNormal", "Dimension -3 must be >= 0"),
    ("tf.random.uniform([[2]])", "RandomUniform", "shape must be a vector of {int32,int64}, got shape [1,1]"),
    ("tf.random.normal(2)", "RandomStandardNormal", "shape must be a vector of {int32,int64}, got shape []"),
    ("tf.random.uniform([2**40, 2**40])", "RandomUniform",
     "Shape [1099511627776,1099511627776] would have more than 2**63 - 1 elements"),
    ("tf.random.uniform([2], minval=5, maxval=5, dtype=tf.int32)", "RandomUniformInt",
     "Need minval < maxval, got 5 >= 5"),
    ("tf.random.uniform([2], minval=6, maxval=5, dtype=tf.int64)", "RandomUniformInt",
     "Need minval < maxval, got 6 >= 5"),
    ("tf.random.uniform([2], minval=[1, 2], maxval=5, dtype=tf.int32)", "RandomUniformInt",
     "minval must be 0-D, got shape [2]"),
    ("tf.random.uniform([2], minval=1, maxval=[5], dtype=tf.int32)", "RandomUniformInt",
     "maxval must be 0-D, got shape [1]"),
    ("tf.random.uniform([3], minval=[0., 1.], maxval=1.)", "Mul", "Incompatible shapes: [3] vs. [2]"),
    ("tf.random.normal([2], mean=[1., 2., 3.])", "AddV2", "Incompatible shapes: [2] vs. [3]"),
])
def test_invalid_argument_errors(expr, op, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        eval(expr)
    assert str(info.value) == PREFIX % op + message + " [Op:%s] name: " % op


def test_float_shape_is_rejected_by_the_type_attr():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Value for attr 'T' of float is not in the list of allowed values: int32, int64"):
        tf.random.uniform([2.5])


def test_too_large_output_is_resource_exhausted():
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        tf.random.normal([2**31, 2**31])
    assert (PREFIX % "RandomStandardNormal" + "OOM when allocating tensor with shape[2147483648,2147483648] "
            "and type float on /job:localhost/replica:0/task:0/device:CPU:0") in str(info.value)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "bool", "string"])
def test_uniform_rejects_other_dtypes(dtype):
    with pytest.raises(ValueError) as info:
        tf.random.uniform([2], maxval=3, dtype=dtype)
    assert str(info.value) == (
        "Argument `dtype` got invalid value <dtype: '%s'>. Accepted dtypes are "
        "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64)." % dtype)


@pytest.mark.parametrize("dtype", [tf.int32, tf.int64])
def test_uniform_int_needs_maxval(dtype):
    with pytest.raises(ValueError) as info:
        tf.random.uniform([2], minval=1, dtype=dtype)
    assert str(info.value) == "Must specify maxval for integer dtype tf.%s" % dtype.name


@pytest.mark.parametrize("expr, error, message", [
    ("tf.random.normal([2], dtype=tf.int32)", TypeError, "Cannot convert 0.0 to EagerTensor of dtype int32"),
    ("tf.random.normal([2], dtype=tf.string)", TypeError, "Cannot convert 0.0 to EagerTensor of dtype string"),
    ("tf.random.uniform([2], minval=1.5, maxval=3, dtype=tf.int32)", TypeError,
     "Cannot convert 1.5 to EagerTensor of dtype int32"),
    ("tf.random.uniform([2], maxval=tf.constant(2., tf.float64))", ValueError,
     "max: Tensor conversion requested dtype float32 for Tensor with dtype float64: "
     "<tf.Tensor: shape=(), dtype=float64, numpy=2.0>"),
    ("tf.random.normal([2], mean=tf.constant(1))", ValueError,
     "mean: Tensor conversion requested dtype float32 for Tensor with dtype int32: "
     "<tf.Tensor: shape=(), dtype=int32, numpy=1>"),
    ("tf.random.uniform(tf.TensorShape([None, 3]))", ValueError,
     "Cannot convert a partially known TensorShape (None, 3) to a Tensor."),
    ("tf.random.uniform([2], seed='a')", TypeError, "not all arguments converted during string formatting"),
])
def test_python_errors(expr, error, message):
    with pytest.raises(error) as info:
        eval(expr)
    assert str(info.value) == message


def test_global_seed_that_is_not_a_number_fails_at_use():
    tf.random.set_seed("a")  # accepted, as in TF; the first random op raises
    with pytest.raises(TypeError, match="not all arguments converted during string formatting"):
        tf.random.uniform([2])
