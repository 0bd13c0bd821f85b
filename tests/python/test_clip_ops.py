"""tf.clip_by_value. TF defines it as maximum(minimum(t, max), min); values are checked
against that NumPy expression, dtypes and errors against TensorFlow 2.21's output for the
same calls."""

import numpy as np
import pytest

import graphfn as tf

PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def reference(t, lo, hi):
    return np.maximum(np.minimum(t, hi), lo)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("shape, lo_shape, hi_shape", [
    ((), (), ()), ((5,), (), ()), ((3, 4), (3, 4), ()), ((3, 4), (), (3, 4)), ((3, 4), (3, 4), (3, 4)),
    ((3, 4), (4,), ()), ((3, 4), (), (3, 1)), ((2, 3, 4), (3, 1), (4,)), ((0, 2), (), ()), ((0, 2), (2,), ()),
])
def test_clip_matches_numpy(dtype, shape, lo_shape, hi_shape):
    rng = np.random.default_rng(0)
    t = rng.integers(0, 20, size=shape).astype(dtype)
    lo = rng.integers(0, 8, size=lo_shape).astype(dtype)
    hi = rng.integers(8, 16, size=hi_shape).astype(dtype)
    got = tf.clip_by_value(tf.constant(t), tf.constant(lo), tf.constant(hi))
    assert got.dtype == tf.as_dtype(dtype) and got.shape == shape
    np.testing.assert_array_equal(got.numpy(), reference(t, lo, hi))


def test_values_observed_in_tensorflow():
    nan = np.nan
    np.testing.assert_array_equal(tf.clip_by_value([1., 5., nan], 2., 3.).numpy(), [2., 3., nan])
    # min > max gives min; a NaN bound gives NaN everywhere.
    np.testing.assert_array_equal(tf.clip_by_value([1., 5., nan], 3., 2.).numpy(), [3., 3., nan])
    assert np.isnan(tf.clip_by_value([1., 5., 3.], nan, 3.).numpy()).all()
    r = tf.clip_by_value([1, 5, 3], 2, 4)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [2, 4, 3]
    assert tf.clip_by_value([1., 5, 3], 2, 4).numpy().tolist() == [2., 4., 3.]
    # Python bounds take t's dtype: 300 becomes uint8 44.
    assert tf.clip_by_value(tf.constant([1, 2], tf.uint8), 1, 300).numpy().tolist() == [1, 2]
    assert tf.clip_by_value(tf.constant([1, 2]), 0, np.array([2.5, 0.5])).numpy().tolist() == [1, 0]
    assert tf.clip_by_value(np.array([1., 2.]), 1, 3).dtype == tf.float64
    assert tf.clip_by_value(5, 1, 3).numpy() == 3
    assert tf.clip_by_value(tf.constant([1, 5, 3], tf.int8), -1, 4).numpy().tolist() == [1, 4, 3]
    r = tf.clip_by_value(tf.constant([[1., 5, 3], [0, 2, 9]]), [1., 2, 3], [[4.], [5]])
    assert r.numpy().tolist() == [[1., 4., 3.], [1., 2., 5.]]
    assert tf.clip_by_value(tf.constant(np.zeros([0, 2], np.float32)), 1., 2.).shape == (0, 2)
    assert tf.clip_by_value(tf.constant([1., 5.]), np.float32(2), np.float64(3)).numpy().tolist() == [2., 3.]


def test_bounds_that_do_not_fit_the_dtype_are_type_errors():
    with pytest.raises(TypeError, match=r"^Cannot convert 2\.5 to EagerTensor of dtype int32$"):
        tf.clip_by_value(tf.constant([1, 5, 3]), 2.5, 4)
    with pytest.raises(TypeError, match=r"^Cannot convert 4\.5 to EagerTensor of dtype int32$"):
        tf.clip_by_value(tf.constant([1, 5, 3]), 2, 4.5)
    with pytest.raises(TypeError, match=r"^Cannot convert 2\.0 to EagerTensor of dtype int32$"):
        tf.clip_by_value([1, 5, 3], 2., 4)
    with pytest.raises(TypeError, match=r"^Cannot convert \[1\.5, 2\] to EagerTensor of dtype int32$"):
        tf.clip_by_value(tf.constant([1, 2]), [1.5, 2], 3)


@pytest.mark.parametrize("t, lo, hi, op, wanted, got", [
    (tf.constant([1, 5, 3]), tf.constant(2.), 4, "Maximum", "int32", "float"),
    (tf.constant([1., 5, 3]), tf.constant(2), 4, "Maximum", "float", "int32"),
    (tf.constant([1., 5, 3]), 2, tf.constant(4), "Minimum", "float", "int32"),
    (tf.constant([1., 5, 3], tf.float64), 2, tf.constant(4.), "Minimum", "double", "float"),
])
def test_mismatched_tensor_bounds(t, lo, hi, op, wanted, got):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.clip_by_value(t, lo, hi)
    assert str(info.value) == ("cannot compute %s as input #1(zero-based) was expected to be a %s "
                               "tensor but is a %s tensor [Op:%s] name: " % (op, wanted, got, op))


def test_shape_errors():
    t = tf.constant([1., 5, 3])
    for lo, hi in [(tf.constant([[1.], [2.]]), 4.), (1., tf.constant([[4.], [2.]]))]:
        with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(2, 3\) are incompatible$"):
            tf.clip_by_value(t, lo, hi)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.clip_by_value(t, tf.constant([1., 2.]), 4.)
    assert str(info.value) == PREFIX % "Maximum" + "Incompatible shapes: [3] vs. [2] [Op:Maximum] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.clip_by_value(t, 1., tf.constant([1., 2.]))
    assert str(info.value) == PREFIX % "Minimum" + "Incompatible shapes: [3] vs. [2] [Op:Minimum] name: "


def test_non_numeric_dtypes_fail_in_minimum():
    for t, lo, hi, dtype in [(tf.constant(["a"]), "a", "b", "string"), (tf.constant([True]), True, False, "bool")]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"(?s)^Value for attr 'T' of %s is not in the list of allowed values: .*"
                                 r"\{\{node Minimum\}\}.*\[Op:Minimum\]" % dtype):
            tf.clip_by_value(t, lo, hi)


def test_list_bounds_take_tensorflows_slow_path():
    # TF passes Python bounds straight to Minimum/Maximum; a list makes it take its slow path,
    # whose errors have no trailing " name: ".
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.clip_by_value(tf.constant([1., 5, 3]), [1., 2.], 4.)
    assert str(info.value) == PREFIX % "Maximum" + "Incompatible shapes: [3] vs. [2] [Op:Maximum]"
