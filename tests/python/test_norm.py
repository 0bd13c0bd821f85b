"""tf.norm, tf.linalg.global_norm, tf.clip_by_norm and tf.clip_by_global_norm against TensorFlow
2.21's recorded results, errors and gradients (linalg_cases.py)."""

import pytest

import graphfn as tf
import linalg_cases as cases

RECORDS = cases.load_records()
VALUES = [e for e in cases.VALUE_CASES if e.startswith(("tf.norm", "tf.linalg.global_norm", "tf.clip_by"))]
GRADS = [c for c in cases.GRAD_CASES if "norm" in c[0]]


@pytest.mark.parametrize("expr", VALUES)
def test_norm_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS)


@pytest.mark.parametrize("expr", [e for e in VALUES if "error" not in RECORDS["values"][e]
                                  and "None" not in e])
def test_norm_in_function_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", GRADS)
def test_norm_gradient_matches_tensorflow(fn_src, inputs):
    cases.check_gradient(tf, fn_src, inputs, RECORDS)
    cases.check_gradient(tf, fn_src, inputs, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", GRADS)
def test_norm_gradient_matches_finite_differences(fn_src, inputs):
    cases.finite_difference_check(tf, fn_src, inputs)


def test_graph_shapes():
    f = tf.function(lambda x: tf.norm(x, axis=(0, 1), ord=2))
    assert f.get_concrete_function(tf.TensorSpec([None, 3])).structured_outputs.shape.as_list() == []
