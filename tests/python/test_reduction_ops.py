"""tf.reduce_* and tf.argmax/argmin. Values are checked against NumPy (with TF's integer
rules spelled out); identities, NaN handling, dtypes and error texts were printed by
TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0) for the same calls."""

import numpy as np
import pytest

import graphfn as tf

PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def tf_error(op, text):
    return PREFIX % op + text + " [Op:%s] name: " % op


def data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.floating):
        return (rng.standard_normal(shape) * 10).astype(dtype)
    lo, hi = (0, 10) if dtype == np.uint8 else (-9, 10)
    return rng.integers(lo, hi, size=shape).astype(dtype)


def np_axis(axis, rank):
    if axis is None:
        return tuple(range(rank))
    axes = np.asarray(axis).reshape(-1)
    return tuple(int(a) % rank for a in axes) if rank else ()


def trunc_mean(x, axis, keepdims):
    """TF's integer mean: sum in int64, divide truncating toward zero, cast back."""
    s = np.sum(x.astype(np.int64), axis=axis, keepdims=keepdims)
    count = int(np.prod([x.shape[a] for a in axis])) if axis else 1
    q = np.abs(s) // count if count else np.zeros_like(s)
    return (np.sign(s) * q).astype(x.dtype)


def numpy_reduce(name, x, axis, keepdims):
    if name == "reduce_sum":
        return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    if name == "reduce_prod":
        return np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    if name == "reduce_max":
        return np.max(x, axis=axis, keepdims=keepdims)
    if name == "reduce_min":
        return np.min(x, axis=axis, keepdims=keepdims)
    if name == "reduce_any":
        return np.any(x, axis=axis, keepdims=keepdims)
    if name == "reduce_all":
        return np.all(x, axis=axis, keepdims=keepdims)
    if np.issubdtype(x.dtype, np.floating):
        return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype)
    return trunc_mean(x, axis, keepdims)


NUMERIC = [np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8]
SHAPES_AXES = [
    ((), None), ((), []), ((5,), None), ((5,), 0), ((5,), -1), ((3, 4), 0), ((3, 4), 1),
    ((3, 4), [0, 1]), ((3, 4), []), ((2, 3, 4), [0, 2]), ((2, 3, 4), [2, 0]), ((2, 3, 4), [-2]),
    ((2, 3, 4), (1, 2)), ((2, 1, 3, 1, 2), [0, 2, 4]), ((2, 3, 4, 5), [1, 3]), ((17, 33), 1),
]


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"])
@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_numeric_reductions_match_numpy(name, dtype, shape, axis, keepdims):
    x = data(shape, dtype)
    if name == "reduce_prod" and np.issubdtype(dtype, np.floating):
        x = (x / 10).astype(dtype)  # keep float products in range
    got = getattr(tf, name)(tf.constant(x), axis, keepdims=keepdims)
    want = numpy_reduce(name, x, np_axis(axis, x.ndim), keepdims)
    assert got.dtype == tf.as_dtype(dtype)
    assert got.shape == want.shape
    if np.issubdtype(dtype, np.floating):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    else:
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("name", ["reduce_any", "reduce_all"])
@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
@pytest.mark.parametrize("keepdims", [False, True])
def test_logical_reductions_match_numpy(name, shape, axis, keepdims):
    x = data(shape, np.bool_)
    got = getattr(tf, name)(x, axis, keepdims=keepdims)
    want = numpy_reduce(name, x, np_axis(axis, x.ndim), keepdims)
    assert got.dtype == tf.bool and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_math_exports():
    for name in ["sum", "mean", "max", "min", "prod", "any", "all"]:
        assert getattr(tf.math, "reduce_" + name) is getattr(tf, "reduce_" + name)
    assert tf.math.argmax is tf.argmax and tf.math.argmin is tf.argmin


def test_axis_forms():
    x = tf.constant([[1, 2], [3, 4]])
    assert tf.reduce_sum(x, tf.constant(1, tf.int64)).numpy().tolist() == [3, 7]
    assert tf.reduce_sum(x, tf.constant([[0]])).numpy().tolist() == [4, 6]
    assert tf.reduce_sum(x, np.int64(1)).numpy().tolist() == [3, 7]
    # NumPy axes are cast to int32 (TF's default Tidx), even from floats.
    assert tf.reduce_sum(x, np.array([0.])).numpy().tolist() == [4, 6]
    assert tf.reduce_sum([[1, 2], [3, 4]], [[0]]).numpy().tolist() == [4, 6]
    assert tf.reduce_sum([1, 2], None, True).numpy().tolist() == [3]
    assert tf.reduce_sum(tf.constant([[1., 2.]]), keepdims=None).shape == ()
    assert tf.reduce_sum(tf.constant([[1., 2.]]), keepdims="x").shape == (1, 1)
    assert tf.reduce_sum(5).numpy() == 5 and tf.reduce_sum(5, []).numpy() == 5
    assert tf.reduce_sum(np.float64(1.5)).dtype == tf.float64
    assert tf.reduce_sum(np.array([1, 2], np.int16)).dtype == tf.int16
    # A large Python int axis wraps to int32 when the input is a tensor (TF's fast path), but
    # is an int64 out of range when the input is a list (TF's slow path).
    assert tf.reduce_sum(x, 2**40).numpy().tolist() == [4, 6]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid reduction dimension \(1099511627776 for input with 2 dimension\(s\)"):
        tf.reduce_sum([[1, 2]], 2**40)


def test_values_observed_in_tensorflow():
    c = tf.constant
    assert tf.reduce_sum(c([1, 2], tf.uint8) * 200).numpy() == 88
    assert tf.reduce_sum(c([127, 1], tf.int8)).numpy() == -128
    assert tf.reduce_prod(c([2**31 - 1, 2])).numpy() == -2
    assert tf.reduce_mean([1, 2]).numpy() == 1 and tf.reduce_mean([-1, -2]).numpy() == -1
    assert tf.reduce_mean(c([-7, 0])).numpy() == -3 and tf.reduce_mean(c([-7, -1], tf.int8)).numpy() == -4
    assert tf.reduce_mean(c([2**31 - 1, 2**31 - 1])).numpy() == 2**31 - 1
    assert tf.reduce_mean(c([2**31 - 1, 2**31 - 1, 4])).numpy() == 1431655766
    assert tf.reduce_mean(c(np.full([30000], 2**31 - 1, np.int32))).numpy() == 2**31 - 1
    assert tf.reduce_mean(c([200, 200], tf.uint8)).numpy() == 200
    assert tf.reduce_mean(c([2**62] * 3, tf.int64)).numpy() == -1537228672809129301
    assert tf.reduce_mean(c([[2**31 - 1] * 2] * 2), 0).numpy().tolist() == [2**31 - 1] * 2


@pytest.mark.parametrize("name, dtype, expected", [
    ("reduce_sum", tf.float32, 0.0), ("reduce_prod", tf.float32, 1.0),
    ("reduce_max", tf.float32, -np.inf), ("reduce_min", tf.float32, np.inf),
    ("reduce_max", tf.float64, -np.inf), ("reduce_max", tf.int32, -2147483648),
    ("reduce_min", tf.int32, 2147483647), ("reduce_max", tf.uint8, 0), ("reduce_min", tf.uint8, 255),
    ("reduce_max", tf.int8, -128), ("reduce_max", tf.int64, -9223372036854775808),
    ("reduce_mean", tf.int32, 0),
])
def test_empty_reductions_give_tensorflow_identities(name, dtype, expected):
    x = tf.constant(np.zeros([0, 3], dtype.as_numpy_dtype))
    got = getattr(tf, name)(x, 0)
    assert got.dtype == dtype and got.numpy().tolist() == [expected] * 3
    assert getattr(tf, name)(x, 1).shape == (0,)


def test_empty_reductions_more():
    assert np.isnan(tf.reduce_mean(tf.constant(np.zeros([0, 3], np.float32)), 0).numpy()).all()
    assert tf.reduce_all(tf.constant(np.zeros([0], bool))).numpy()
    assert not tf.reduce_any(tf.constant(np.zeros([0], bool))).numpy()
    r = tf.reduce_any(tf.constant(np.zeros([2, 0], bool)), 1, keepdims=True)
    assert r.shape == (2, 1) and r.numpy().tolist() == [[False], [False]]
    assert tf.reduce_sum(tf.constant(np.zeros([2, 0, 3], np.float32)), [0, 2]).shape == (0,)
    r = tf.reduce_max(tf.constant(np.zeros([2, 0, 3], np.float32)), [1], keepdims=True)
    assert r.shape == (2, 1, 3) and (r.numpy() == -np.inf).all()


def test_max_min_prod_propagate_nan():
    nan = np.nan
    for x in ([1., nan, 3.], [nan, 1., 3.]):
        assert np.isnan(tf.reduce_max(x).numpy()) and np.isnan(tf.reduce_min(x).numpy())
    m = tf.constant([[1, nan], [nan, 2]])
    assert np.isnan(tf.reduce_max(m, 0).numpy()).all() and np.isnan(tf.reduce_max(m, 1).numpy()).all()
    assert np.isnan(tf.reduce_min(tf.constant([[1, nan], [np.inf, 2]]), 1).numpy()[0])
    assert tf.reduce_min(tf.constant([[1, nan], [np.inf, 2]]), 1).numpy()[1] == 2
    assert np.isnan(tf.reduce_prod([nan, 0.]).numpy())


@pytest.mark.parametrize("axis, text", [
    ([0, 0], "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    (tf.constant([0, -2]), "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    ([1, 0, -1], "Invalid reduction arguments: Axes contains duplicate dimension: 1"),
    (2, "Invalid reduction dimension (2 for input with 2 dimension(s)"),
    (-3, "Invalid reduction dimension (-3 for input with 2 dimension(s)"),
    ([5, 0, 0], "Invalid reduction dimension (5 for input with 2 dimension(s)"),
    ([0, 0, 5], "Invalid reduction arguments: Axes contains duplicate dimension: 0"),
    ([2**40], "Invalid reduction dimension (1099511627776 for input with 2 dimension(s)"),
    (tf.constant(2**40 + 1, tf.int64), "Invalid reduction dimension (1099511627777 for input with 2 dimension(s)"),
])
@pytest.mark.parametrize("name, op", [("reduce_sum", "Sum"), ("reduce_mean", "Mean"), ("reduce_max", "Max")])
def test_axis_errors(axis, text, name, op):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        getattr(tf, name)(tf.constant([[1, 5], [3, 4]]), axis)
    expected = tf_error(op, text)
    if isinstance(axis, list):  # TF's slow path (list inputs) leaves out the " name: "
        expected = expected[:-len(" name: ")]
    assert str(info.value) == expected


def test_axis_errors_exact_text():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.reduce_sum(tf.constant([[1, 2]]), tf.constant([0, 0]))
    assert str(info.value) == tf_error("Sum", "Invalid reduction arguments: Axes contains duplicate dimension: 0")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.reduce_all(tf.constant([True]), 1)
    assert str(info.value) == tf_error("All", "Invalid reduction dimension (1 for input with 1 dimension(s)")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.reduce_sum(1, -1)
    assert str(info.value) == tf_error("Sum", "Invalid reduction dimension (-1 for input with 0 dimension(s)")


def test_dtype_errors():
    for name, op in [("reduce_sum", "Sum"), ("reduce_mean", "Mean"), ("reduce_prod", "Prod"),
                     ("reduce_max", "Max")]:
        for value, dtype in [([True, False], "bool"), (["a"], "string")]:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"(?s)^Value for attr 'T' of %s is not in the list of allowed values: "
                                     r".*\{\{node %s\}\}" % (dtype, op)):
                getattr(tf, name)(value)
    for axis, dtype in [(0.5, "float"), ([1.0], "float"), ("a", "string"), (tf.constant([1], tf.int8), "int8")]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"^Value for attr 'Tidx' of %s is not in the list of allowed values: int32, int64" % dtype):
            tf.reduce_sum([[1, 2]], axis)
    with pytest.raises(TypeError, match=r"^Cannot convert \[1, 0\] to EagerTensor of dtype bool$"):
        tf.reduce_any([1, 0])
    # A non-bool tensor: the op rejects it, unless the axis is a list (TF's slow path
    # converts the input first).
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.reduce_all(tf.constant([1]))
    assert str(info.value) == ("cannot compute All as input #0(zero-based) was expected to be a bool "
                               "tensor but is a int32 tensor [Op:All] name: ")
    with pytest.raises(ValueError) as info:
        tf.reduce_any(tf.constant([1.5]), [0])
    assert str(info.value) == ("Tensor conversion requested dtype bool for Tensor with dtype float32: "
                               "<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.5], dtype=float32)>")


@pytest.mark.parametrize("dtype", NUMERIC + [np.bool_])
@pytest.mark.parametrize("shape, axis", [((5,), None), ((5,), 0), ((3, 4), 0), ((3, 4), 1), ((3, 4), -1),
                                         ((2, 3, 4), 1), ((2, 3, 4), -3), ((17, 33), 1), ((0, 3), 1)])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reductions_match_numpy(dtype, shape, axis, name):
    x = data(shape, dtype, seed=3)
    got = getattr(tf, name)(tf.constant(x), axis)
    want = getattr(np, name)(x, axis=0 if axis is None else axis)
    assert got.dtype == tf.int64 and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_arg_reduction_options():
    x = [[1, 5], [3, 4]]
    assert tf.argmax(x).numpy().tolist() == [1, 0]
    r = tf.argmax(x, 1, output_type=tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [1, 1]
    assert tf.argmax(x, 0, output_type=tf.int16).dtype == tf.int16
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Value for attr 'output_type' of int16 is not in the list of allowed values: int32, int64\n"):
        tf.argmin(x, 0, output_type=tf.int16)
    assert tf.argmax(x, output_type=np.int32).dtype == tf.int32
    assert tf.argmax(x, output_type="int32").dtype == tf.int32
    assert tf.argmax(x, tf.constant(1, tf.int64)).numpy().tolist() == [1, 1]
    assert tf.argmax(x, tf.constant(1, tf.uint8)).numpy().tolist() == [1, 1]
    assert tf.argmax(x, True).numpy().tolist() == [1, 1]
    # Dimensions are read as int32: large values keep their low 32 bits.
    assert tf.argmax(x, 2**40 + 1).numpy().tolist() == [1, 1]
    assert tf.argmax(x, tf.constant(2**32 + 1, tf.int64)).numpy().tolist() == [1, 1]
    assert tf.argmax([1, 3, 3]).numpy() == 1 and tf.argmin([1, 1, 3]).numpy() == 0
    assert tf.argmax([True, False]).numpy() == 0
    assert tf.argmax(tf.constant(np.zeros([2, 0], np.float32)), 0).shape == (0,)


@pytest.mark.parametrize("name, x, expected", [
    ("argmax", [1., np.nan, 3.], 2), ("argmin", [1., np.nan, 3.], 0), ("argmax", [np.nan, 1., 3.], 2),
    ("argmin", [np.nan, 1., 3.], 1), ("argmax", [np.nan, np.nan], 0), ("argmax", [3., np.nan, 1.], 0),
    ("argmax", [np.nan, 3., np.nan, 5.], 3), ("argmin", [np.nan, 3., np.nan, 1.], 3),
    ("argmax", [-np.inf, -np.inf], 0), ("argmax", [1., 3., np.nan, 5.], 3),
])
def test_arg_reductions_skip_nan(name, x, expected):
    assert getattr(tf, name)(x).numpy() == expected


def test_arg_reduction_errors():
    x = tf.constant([[1, 5], [3, 4]])
    for axis in ([1], [1, 0], 1.0):
        with pytest.raises(TypeError, match=r"^axis must be int or Tensor with integer datatype$"):
            tf.argmax(x, axis)
    for axis, text in [(np.int64(1), "int64"), (np.array(1), "int64"), (tf.constant(2.0), "<dtype: 'float32'>")]:
        with pytest.raises(TypeError, match=r"^axis tensor dtypes %s is not supported$" % text):
            tf.argmax(x, axis)
    cases = [
        (x, 2, "ArgMax", "Expected dimension in the range [-2, 2), but got 2"),
        (x, -3, "ArgMax", "Expected dimension in the range [-2, 2), but got -3"),
        (x, 2**32 + 5, "ArgMax", "Expected dimension in the range [-2, 2), but got 5"),
        (tf.constant(5), None, "ArgMax", "Expected dimension in the range [0, 0), but got 0"),
        (tf.constant(np.zeros([0], np.float32)), None, "ArgMax", "Reduction axis 0 is empty in shape [0]"),
        (tf.constant(np.zeros([0, 3], np.float32)), 0, "ArgMax", "Reduction axis 0 is empty in shape [0,3]"),
        (tf.constant(np.zeros([0, 0], np.float32)), 1, "ArgMin", "Reduction axis 1 is empty in shape [0,0]"),
        (tf.constant(np.zeros([2, 0], np.float32)), -1, "ArgMin", "Reduction axis -1 is empty in shape [2,0]"),
        (x, tf.constant([1]), "ArgMax", "dim must be a scalar, but received tensor of shape: [1]"),
        (x, tf.constant([[1]]), "ArgMin", "dim must be a scalar, but received tensor of shape: [1,1]"),
    ]
    for value, axis, op, text in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            (tf.argmax if op == "ArgMax" else tf.argmin)(value, axis)
        assert str(info.value) == tf_error(op, text)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Value for attr 'output_type' of uint8 is not in the list of allowed values"):
        tf.argmax(x, 1, output_type=tf.uint8)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"(?s)^Value for attr 'T' of string .*\{\{node ArgMax\}\}"):
        tf.argmax(["a"])
