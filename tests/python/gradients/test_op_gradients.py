"""Every op gradient: against TensorFlow's gradients (expected_tf.json, made by make_expected.py
under TF 2.21) and against central finite differences of graphfn's forward ops; second
derivatives (nested tapes) against TensorFlow's, None-ness included."""

import json
import os
import sys

import numpy as np
import pytest

import graphfn as tf

sys.path.insert(0, os.path.dirname(__file__))
from grad_cases import CASES  # noqa: E402
from grad_weights import output_weights  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "expected_tf.json")) as _f:
    EXPECTED = json.load(_f)

# Non-smooth at the inputs (ties, integer casts) or undefined nearby (pow of a negative base).
NO_FINITE_DIFFERENCES = {"maximum_ties", "minimum_ties", "reduce_max_ties", "cast", "pow_negative_base"}


def _inputs(values, dtype):
    return [tf.constant(np.asarray(v, dtype=dtype)) for v in values]


def _gradients(source, values, dtype):
    fn = eval(source)
    xs = _inputs(values, dtype)
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(tf, *xs)
    grads = tape.gradient(y, xs, output_gradients=tf.constant(output_weights(y.shape, dtype)))
    return [None if g is None else g.numpy() for g in grads]


def _finite_differences(source, values, dtype, eps):
    fn = eval(source)
    arrays = [np.asarray(v, dtype=dtype) for v in values]

    def loss(arrs):
        y = fn(tf, *[tf.constant(a) for a in arrs]).numpy()
        return float(np.sum(output_weights(y.shape, np.float64) * y.astype(np.float64)))

    result = []
    for i, a in enumerate(arrays):
        g = np.zeros(a.shape, dtype=np.float64)
        for idx in np.ndindex(*a.shape):
            hi = [b.copy() for b in arrays]
            lo = [b.copy() for b in arrays]
            hi[i][idx] += eps
            lo[i][idx] -= eps
            g[idx] = (loss(hi) - loss(lo)) / (float(hi[i][idx]) - float(lo[i][idx]))
        result.append(g)
    return result


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name, dtype):
    source, values = CASES[name]
    ours = _gradients(source, values, dtype)
    expected = EXPECTED[name][dtype]
    assert [g is None for g in ours] == [g is None for g in expected]
    tol = 1e-5 if dtype == "float32" else 1e-12
    for g, e in zip(ours, expected):
        if g is not None:
            assert g.dtype == np.dtype(dtype)
            np.testing.assert_allclose(g, np.asarray(e, dtype=dtype), rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype,eps,tol", [("float64", 1e-6, 1e-6), ("float32", 1e-2, 3e-2)])
@pytest.mark.parametrize("name", sorted(set(CASES) - NO_FINITE_DIFFERENCES))
def test_matches_finite_differences(name, dtype, eps, tol):
    source, values = CASES[name]
    ours = _gradients(source, values, dtype)
    numeric = _finite_differences(source, values, dtype, eps)
    for g, n in zip(ours, numeric):
        np.testing.assert_allclose(np.zeros_like(n) if g is None else g, n, rtol=tol, atol=tol)


def _second_derivatives(source, values):
    fn = eval(source)
    xs = _inputs(values, "float64")
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(tf, *xs)
        grads = inner.gradient(y, xs, output_gradients=tf.constant(output_weights(y.shape, "float64")))
        total = tf.add_n([tf.reduce_sum(g * output_weights(g.shape, "float64")) for g in grads if g is not None])
    return [None if g is None else g.numpy() for g in outer.gradient(total, xs)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivatives_match_tensorflow(name):
    source, values = CASES[name]
    ours = _second_derivatives(source, values)
    expected = EXPECTED[name]["second"]
    assert [g is None for g in ours] == [g is None for g in expected]
    for g, e in zip(ours, expected):
        if g is not None:
            np.testing.assert_allclose(g, np.asarray(e), rtol=1e-12, atol=1e-12)
