"""tf.math.cumsum / cumprod (expected values and messages from TF 2.21)."""

import pytest

import graphfn as tf

_PREFIX = "{{function_node __wrapped__Cumsum_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_cumsum():
    t = tf.math.cumsum([[1, 2, 3], [4, 5, 6]], axis=1, exclusive=True, reverse=True)
    assert t.dtype == tf.int32 and t.numpy().tolist() == [[5, 3, 0], [11, 6, 0]]
    assert tf.cumsum([1.0, 2.0]).numpy().tolist() == [1.0, 3.0]


def test_cumprod():
    assert tf.math.cumprod([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], axis=-1).numpy().tolist() == [[1, 2, 6], [4, 20, 120]]
    t = tf.math.cumprod([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], axis=0, exclusive=True)
    assert t.numpy().tolist() == [[1, 1, 1], [1, 2, 3]]


@pytest.mark.parametrize("args,message", [
    (([1, 2], 2), "ScanOp: Expected scan axis in the range [-1, 1), but got 2 [Op:Cumsum] name: "),
    ((3, 0), "ScanOp: Expected scan axis in the range [0, 0), but got 0 [Op:Cumsum] name: "),
    (([1, 2], [0]), "ScanOp: axis must be a scalar, not [1] [Op:Cumsum]"),
])
def test_errors(args, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.cumsum(*args)
    assert str(e.value) == _PREFIX + message


def test_integer_cumsum_and_cumprod_wrap_as_in_tf():
    """Found by the op fuzzer under UBSan (signed overflow); values from TF 2.21."""
    assert tf.math.cumsum(tf.constant([2147483647, 1])).numpy().tolist() == [2147483647, -2147483648]
    assert tf.math.cumprod(tf.constant([65536, 65536])).numpy().tolist() == [65536, 0]
