"""Lists holding tensors convert as TF packs them (the first tensor's dtype), and copy.deepcopy of
a Variable makes a new variable. Expected values recorded from TF 2.21."""

import copy

import numpy as np
import pytest

import graphfn as tf


@pytest.mark.parametrize("make, dtype, values", [
    (lambda: [tf.constant(1.5, tf.float64), 2], tf.float64, [1.5, 2.0]),
    (lambda: [tf.constant(1, tf.int64), 2], tf.int64, [1, 2]),
    (lambda: [1, tf.constant(2, tf.int64)], tf.int64, [1, 2]),
    (lambda: [tf.constant([1, 2], tf.int64), [3, 4]], tf.int64, [[1, 2], [3, 4]]),
    (lambda: [tf.constant(1.5, tf.float64), 2.5], tf.float64, [1.5, 2.5]),
])
def test_list_with_tensors_takes_the_first_tensors_dtype(make, dtype, values):
    t = tf.convert_to_tensor(make())
    assert t.dtype == dtype
    np.testing.assert_array_equal(t.numpy(), values)


def test_requested_dtype_wins():
    t = tf.convert_to_tensor([1, tf.constant(2, tf.int64)], dtype=tf.int32)
    assert t.dtype == tf.int32 and t.numpy().tolist() == [1, 2]


def test_ops_pack_list_arguments_the_same_way():
    t = tf.add([tf.constant(1, tf.int64), 2], tf.constant([1, 1], tf.int64))
    assert t.dtype == tf.int64 and t.numpy().tolist() == [2, 3]
    s = tf.stack([tf.constant(1, tf.int64), 2])
    assert s.dtype == tf.int64 and s.numpy().tolist() == [1, 2]


def test_tensors_of_two_dtypes_fail_pack():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.convert_to_tensor([tf.constant(1, tf.int64), tf.constant(2)])
    assert str(e.value) == ("cannot compute Pack as input #1(zero-based) was expected to be a int64 tensor but is a "
                            "int32 tensor [Op:Pack] name: packed")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.convert_to_tensor([[1, 2], [tf.constant(3, tf.int64), tf.constant(4.0)]])
    assert str(e.value) == ("cannot compute Pack as input #1(zero-based) was expected to be a int64 tensor but is a "
                            "float tensor [Op:Pack] name: 1")


def test_python_value_that_does_not_fit_the_tensors_dtype():
    with pytest.raises(TypeError, match="^Cannot convert 2.5 to EagerTensor of dtype int64$"):
        tf.convert_to_tensor([tf.constant(1, tf.int64), 2.5])


def test_deepcopy_of_a_variable_is_a_new_variable():
    v = tf.Variable([1.0, 2.0], name="w", trainable=False)
    w = copy.deepcopy(v)
    assert w is not v
    assert w.name == "w:0" and w.trainable is False and w.dtype == tf.float32 and w.shape == (2,)
    w.assign([3.0, 3.0])
    assert v.numpy().tolist() == [1.0, 2.0]
    # copy.copy shares the variable (TF 2.21: assigning through the copy changes the original).
    copy.copy(v).assign([7.0, 8.0])
    assert v.numpy().tolist() == [7.0, 8.0]
    # One variable reached twice in a structure is copied once.
    copied = copy.deepcopy({"a": v, "b": v})
    assert copied["a"] is copied["b"] and copied["a"] is not v


def test_deepcopy_inside_a_function_is_not_available():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        return copy.deepcopy(v)

    with pytest.raises(NotImplementedError) as e:
        f()
    # Raised while tracing, so the message carries AutoGraph's "in user code:" frame as in TF.
    assert str(e.value).startswith("in user code:")
    assert str(e.value).endswith("NotImplementedError: __deepcopy__() is only available when eager execution is "
                                 "enabled.\n")
