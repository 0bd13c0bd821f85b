"""tf.linalg decompositions, solvers and matrix structure against TensorFlow 2.21's recorded
results, errors and gradients (linalg_cases.py), eagerly and inside tf.function."""

import pytest

import graphfn as tf
import linalg_cases as cases

RECORDS = cases.load_records()
VALUES = [e for e in cases.VALUE_CASES
          if not e.startswith(("tf.einsum", "tf.norm", "tf.linalg.global_norm", "tf.clip_by"))]
GRADS = [c for c in cases.GRAD_CASES if "einsum" not in c[0] and "norm" not in c[0]]
# Gradients that are true derivatives for unconstrained inputs (Cholesky's and eigh's assume a
# symmetric perturbation, so finite differences of single entries do not apply to them).
FINITE_DIFFERENCE = [c for c in GRADS if not any(k in c[0] for k in ("cholesky", "eigh", "logdet"))]


@pytest.mark.parametrize("expr", VALUES)
def test_linalg_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS)


@pytest.mark.parametrize("expr", [e for e in VALUES if "error" not in RECORDS["values"][e]
                                  and "nan" not in e])
def test_linalg_in_function_matches_tensorflow(expr):
    cases.check_value(tf, expr, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", GRADS)
def test_linalg_gradient_matches_tensorflow(fn_src, inputs):
    cases.check_gradient(tf, fn_src, inputs, RECORDS)
    cases.check_gradient(tf, fn_src, inputs, RECORDS, in_function=True)


@pytest.mark.parametrize("fn_src, inputs", FINITE_DIFFERENCE)
def test_linalg_gradient_matches_finite_differences(fn_src, inputs):
    cases.finite_difference_check(tf, fn_src, inputs)


def _shapes(fn, *specs):
    out = tf.function(fn).get_concrete_function(*specs).structured_outputs
    if isinstance(out, (list, tuple)):
        return [o.shape.as_list() if o.shape.rank is not None else None for o in out]
    return out.shape.as_list() if out.shape.rank is not None else None


def test_graph_shape_inference_is_tensorflows():
    # Shapes TF 2.21 infers for these signatures.
    assert _shapes(tf.linalg.det, tf.TensorSpec([None, None])) == []
    assert _shapes(tf.linalg.det, tf.TensorSpec(None)) is None
    assert _shapes(tf.linalg.inv, tf.TensorSpec([None, None])) == [None, None]
    assert _shapes(tf.linalg.svd, tf.TensorSpec([2, 3])) == [[2], [2, 2], [3, 2]]
    assert _shapes(tf.linalg.svd, tf.TensorSpec([None, None])) == [[None], [None, None], [None, None]]
    assert _shapes(tf.linalg.qr, tf.TensorSpec([2, 3])) == [[2, 2], [2, 3]]
    assert _shapes(tf.linalg.eigh, tf.TensorSpec([None, None])) == [[None], [None, None]]
    assert _shapes(tf.linalg.lu, tf.TensorSpec([3, 3])) == [[3, 3], [3]]
    assert _shapes(tf.linalg.trace, tf.TensorSpec([2, 3])) == []
    assert _shapes(tf.linalg.diag_part, tf.TensorSpec([None, None])) == [None]
    assert _shapes(lambda x: tf.linalg.diag(x, k=1), tf.TensorSpec([None, 3])) == [None, 4, 4]
    assert _shapes(lambda x: tf.linalg.diag(x, k=(0, 1)), tf.TensorSpec([2, 3])) == [3, 3]
    assert _shapes(lambda x: tf.linalg.band_part(x, 5, 0), tf.TensorSpec([2, 3])) == [2, 3]
    assert _shapes(tf.linalg.matvec, tf.TensorSpec([4, 2, 3]), tf.TensorSpec([3])) == [4, 2]


@pytest.mark.parametrize("fn, specs, message", [
    (tf.linalg.det, [[3]], "Shape must be at least rank 2 but is rank 1"),
    (tf.linalg.det, [[2, 3]], "Dimensions must be equal, but are 3 and 2"),
    (tf.linalg.inv, [[2, 3]], "Dimensions must be equal, but are 2 and 3"),
    (tf.linalg.cholesky, [[2, 3]], "Dimensions must be equal, but are 2 and 3"),
    (tf.linalg.eigh, [[2, 3]], "Dimensions must be equal, but are 2 and 3"),
    (tf.linalg.svd, [[3]], "Shape must be at least rank 2 but is rank 1"),
    (tf.linalg.solve, [[2, 2], [3, 1]], "Dimensions must be equal, but are 2 and 3"),
    (tf.linalg.triangular_solve, [[2, 2], [3, 1]], "Dimensions must be equal, but are 2 and 3"),
    (tf.linalg.cross, [[2], [2]], "Dimension must be 3 but is 2"),
])
def test_graph_errors_are_tensorflows(fn, specs, message):
    with pytest.raises(ValueError, match=message):
        tf.function(fn).get_concrete_function(*[tf.TensorSpec(s) for s in specs])


def test_result_types_print_as_tensorflows():
    q = tf.linalg.qr(tf.eye(2))
    assert type(q).__name__ == "Qr" and q._fields == ("q", "r")
    assert tf.linalg.slogdet(tf.eye(2))._fields == ("sign", "log_abs_determinant")
    assert tf.linalg.lu(tf.eye(2))._fields == ("lu", "p")
