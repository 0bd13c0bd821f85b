"""tf.einsum against TensorFlow 2.21's recorded results, errors and gradients (linalg_cases.py),
eagerly and inside tf.function, plus finite differences of the gradients."""

import pytest

import graphfn as tf
import linalg_cases as cases

RECORDS = cases.load_records()
VALUES = [e for e in cases.VALUE_CASES if e.startswith("tf.einsum")]
GRADS = [c for c in cases.GRAD_CASES if "einsum" in c[0]]


@pytest.mark.parametrize("expr", VALUES)
def test_einsum_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS)


@pytest.mark.parametrize("expr", [e for e in VALUES if "error" not in RECORDS["values"][e]])
def test_einsum_in_function_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", GRADS)
def test_einsum_gradient_matches_tensorflow(fn_src, inputs):
    cases.check_gradient(tf, fn_src, inputs, RECORDS)
    cases.check_gradient(tf, fn_src, inputs, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", GRADS)
def test_einsum_gradient_matches_finite_differences(fn_src, inputs):
    cases.finite_difference_check(tf, fn_src, inputs)


def test_graph_shape_inference():
    f = tf.function(lambda x, y: tf.einsum("ij,jk->ik", x, y))
    out = f.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([3, None])).structured_outputs
    assert out.shape.as_list() == [None, None]
    g = tf.function(lambda x, y: tf.einsum("...ij,...jk->...ik", x, y))
    out = g.get_concrete_function(tf.TensorSpec([None, 2, 3]), tf.TensorSpec([3, 4])).structured_outputs
    assert out.shape.as_list() == [None, 2, 4]


def test_graph_errors_are_tensorflows():
    f = tf.function(lambda x, y: tf.einsum("ij,jk->ik", x, y))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        f.get_concrete_function(tf.TensorSpec([2, 3]), tf.TensorSpec([4, 5]))
    h = tf.function(lambda x: tf.einsum("ij->ji", x))
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 3"):
        h.get_concrete_function(tf.TensorSpec([2, 3, 4]))


def test_large_operands_take_the_batched_product():
    # Values from NumPy's einsum (the same arithmetic), on sizes where the kernel uses two threads.
    import numpy as np
    a = np.random.default_rng(0).standard_normal((8, 64, 64))
    b = np.random.default_rng(1).standard_normal((8, 64, 64))
    got = tf.einsum("bij,bkj->bki", a, b).numpy()
    np.testing.assert_allclose(got, np.einsum("bij,bkj->bki", a, b), rtol=1e-10, atol=1e-10)
    c = np.random.default_rng(2).standard_normal((300, 200))
    np.testing.assert_array_equal(tf.einsum("ij->ji", c).numpy(), c.T)
