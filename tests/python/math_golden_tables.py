"""Tests from the tables of tests/python/math_goldens/ (TensorFlow's values, errors and gradients,
recorded by math_goldens/record.py): each expression must give TF's dtype, shape and values
(eagerly and inside a tf.function) or TF's exception type and message (eagerly; in a function,
the type, the error text and the failing node); each gradient TF's values,
eagerly and in a function, and (for float64 smooth cases) the finite-difference slope."""

import json
import os

import numpy as np
import pytest

import graphfn as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "math_goldens")
NAMESPACE = {"tf": tf, "np": np}
# float32 kernels (Eigen's vectorised functions) may differ from TF's in the last bit or two.
RTOL = {"float32": 4e-6, "float64": 1e-12}


def _as_array(recorded):
    values = [float(v) if isinstance(v, str) and recorded["dtype"].startswith("float") else v
              for v in recorded["values"]]
    return np.array(values, dtype=None if recorded["dtype"] == "string" else recorded["dtype"]).reshape(
        recorded["shape"])


def assert_matches(actual, expected, rtol_scale=1.0):
    if "none" in expected:
        assert actual is None
        return
    if "tuple" in expected:
        assert isinstance(actual, tuple) and len(actual) == len(expected["tuple"])
        for a, e in zip(actual, expected["tuple"]):
            assert_matches(a, e, rtol_scale)
        return
    assert actual is not None
    assert actual.dtype.name == expected["dtype"]
    assert list(actual.shape) == expected["shape"]
    want = _as_array(expected)
    got = actual.numpy()
    if expected["dtype"] == "string":
        assert [v.decode() for v in got.reshape(-1)] == expected["values"]
    elif expected["dtype"].startswith("float"):
        rtol = RTOL[expected["dtype"]] * rtol_scale
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3)
    else:
        np.testing.assert_array_equal(got, want)


def _sum_value(fn, x):
    return float(np.sum(fn(tf.constant(x)).numpy()))


def golden_table_tests(table, namespace, not_smooth=(), rtol_scale=None):
    """Adds the parametrized tests of one table to `namespace` (a test module's globals), those
    with cases only. not_smooth: gradient cases whose function is not differentiable (or not
    finite) around x, where finite differences say nothing; rtol_scale: {expression or function:
    factor} for long computations."""
    with open(os.path.join(HERE, table + ".json"), encoding="utf-8") as f:
        data = json.load(f)
    rtol_scale = rtol_scale or {}
    results = sorted((e, v) for e, v in data["exprs"].items() if "error" not in v)
    errors = sorted((e, v) for e, v in data["exprs"].items() if "error" in v)
    grads = [g for g in data["grads"] if "error" not in g["expected"]]
    grad_errors = [g for g in data["grads"] if "error" in g["expected"]]

    @pytest.mark.parametrize("expr, expected", results)
    def test_value_matches_tensorflow(expr, expected):
        assert_matches(eval(expr, NAMESPACE), expected, rtol_scale.get(expr, 1.0))

    @pytest.mark.parametrize("expr, expected", results)
    def test_value_in_function_matches_tensorflow(expr, expected):
        assert_matches(tf.function(lambda: eval(expr, NAMESPACE))(), expected, rtol_scale.get(expr, 1.0))

    @pytest.mark.parametrize("expr, expected", errors)
    def test_error_matches_tensorflow(expr, expected):
        with pytest.raises(Exception) as info:
            eval(expr, NAMESPACE)
        message = str(info.value)
        if expected["error"] == "NotFoundError":  # TF then lists its own kernels: the first line only
            message, expected = message.split("\n")[0], dict(expected, message=expected["message"].split("\n")[0])
        assert (type(info.value).__name__, message) == (expected["error"], expected["message"])

    graph_errors = sorted((e, v) for e, v in data.get("graph_errors", {}).items())

    @pytest.mark.parametrize("expr, expected", graph_errors)
    def test_error_in_function_matches_tensorflow(expr, expected):
        with pytest.raises(Exception) as info:
            tf.function(lambda: eval(expr, NAMESPACE))()
        assert type(info.value).__name__ == expected["error"]
        for fragment in expected["fragments"]:
            assert fragment in str(info.value)

    def gradient(fn_src, x, dtype):
        fn = eval(fn_src, NAMESPACE)
        x = tf.constant(x, dtype=dtype)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)

    @pytest.mark.parametrize("case", grads, ids=[g["fn"] for g in grads])
    def test_gradient_matches_tensorflow(case):
        assert_matches(gradient(case["fn"], case["x"], case["dtype"]), case["expected"],
                       rtol_scale.get(case["fn"], 1.0))

    @pytest.mark.parametrize("case", grads, ids=[g["fn"] for g in grads])
    def test_gradient_in_function_matches_tensorflow(case):
        traced = tf.function(lambda: gradient(case["fn"], case["x"], case["dtype"]))
        assert_matches(traced(), case["expected"], rtol_scale.get(case["fn"], 1.0) * 100)

    smooth = [g for g in grads if g["fn"] not in not_smooth and g["dtype"] == "float64" and "none" not in g["expected"]]

    @pytest.mark.parametrize("case", smooth, ids=[g["fn"] for g in smooth])
    def test_gradient_matches_finite_differences(case):
        fn = eval(case["fn"], NAMESPACE)
        x = np.array(case["x"], dtype=np.float64)
        eps = 1e-6
        slope = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            up, down = x.copy(), x.copy()
            up[i] += eps
            down[i] -= eps
            slope[i] = (_sum_value(fn, up) - _sum_value(fn, down)) / (2 * eps)
        got = gradient(case["fn"], case["x"], case["dtype"]).numpy()
        np.testing.assert_allclose(got, slope, rtol=1e-5, atol=1e-6)

    @pytest.mark.parametrize("case", grad_errors, ids=[g["fn"] for g in grad_errors])
    def test_gradient_error_matches_tensorflow(case):
        with pytest.raises(Exception) as info:
            gradient(case["fn"], case["x"], case["dtype"])
        assert type(info.value).__name__ == case["expected"]["error"]

    for cases, test in [(results, test_value_matches_tensorflow), (results, test_value_in_function_matches_tensorflow),
                        (errors, test_error_matches_tensorflow),
                        (graph_errors, test_error_in_function_matches_tensorflow),
                        (grads, test_gradient_matches_tensorflow),
                        (grads, test_gradient_in_function_matches_tensorflow),
                        (smooth, test_gradient_matches_finite_differences),
                        (grad_errors, test_gradient_error_matches_tensorflow)]:
        if cases:
            namespace[test.__name__] = test
