"""Multinomial with a num_samples too large to allocate (-2**31 - 1 wraps to 2**31 - 1 as int32):
TF 2.21's ResourceExhaustedError text, not a MemoryError (found by the op fuzzer)."""

import pytest

import graphfn as tf


def test_multinomial_too_many_samples_is_tf_oom_error():
    with pytest.raises(tf.errors.ResourceExhaustedError) as info:
        tf.raw_ops.Multinomial(logits=[[1., 2.], [3., 4.]], num_samples=-2147483649, seed=-1, seed2=1)
    assert ("OOM when allocating tensor with shape[2,2147483647] and type int64 on "
            "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu [Op:Multinomial]") in str(info.value)
