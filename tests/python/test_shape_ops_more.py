"""graphfn against TensorFlow 2.21's recorded values and errors: the SHAPE tables of
tests/python/shape_index_cases.py (recorded by tools/record_shape_index_goldens.py)."""

import pytest

import graphfn as tf
from shape_index_golden_helpers import golden_tests

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests("SHAPE_OPS", "SHAPE_ERRORS")


def test_split_checks_split_dim_when_the_traced_step_is_static():
    # A scalar value gives static (scalar) output shapes while the axis is a traced argument, so
    # the run skips the shape function: the kernel checks (found by the op fuzzer under ASan).
    # TF 2.21's message, recorded.
    @tf.function
    def f(axis, value):
        return tf.raw_ops.Split(axis=axis, value=value, num_split=3)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(-2147483648), tf.constant(False))
    assert "-input rank(-0) <= split_dim < input rank (0), but got -2147483648" in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.raw_ops.Split(axis=5, value=[1, 2, 3], num_split=1)
    assert "-input rank(-1) <= split_dim < input rank (1), but got 5" in str(info.value)
