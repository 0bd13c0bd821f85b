"""tf.signal against values, errors and gradients recorded from TensorFlow 2.21
(tests/python/signal_tf_goldens.py), eagerly and inside tf.function, plus finite differences."""

import numpy as np
import pytest

import graphfn as tf
from signal_tf_goldens import ERRORS
from signal_tf_goldens import GRADIENTS
from signal_tf_goldens import INPUTS
from signal_tf_goldens import VALUES

NAMESPACE = dict(INPUTS, tf=tf, np=np)


def _check(actual, expected):
    dtype, shape, values = expected
    actual = np.asarray(actual)
    assert actual.dtype.name == dtype
    assert list(actual.shape) == shape
    values = np.asarray(values, dtype=actual.dtype).reshape(shape)
    # FFT float32 results agree to rounding: TF's tolerance for its own FFT tests (1e-5 relative
    # to the largest magnitude); float64 to 1e-9 of it.
    scale = 1.0 + (np.abs(values).max() if values.size else 0.0)
    tolerance = 1e-9 if dtype in ("float64", "complex128") else 2e-5
    np.testing.assert_allclose(actual, values, rtol=0, atol=max(tolerance * scale, 2e-7))


@pytest.mark.parametrize("expr, expected", VALUES, ids=[v[0] for v in VALUES])
def test_value_matches_tensorflow(expr, expected):
    _check(eval(expr, NAMESPACE).numpy(), expected)


@pytest.mark.parametrize("expr, expected", VALUES, ids=[v[0] for v in VALUES])
def test_value_in_function_matches_tensorflow(expr, expected):
    traced = tf.function(lambda: eval(expr, NAMESPACE))
    _check(traced().numpy(), expected)


@pytest.mark.parametrize("expr, error, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_error_matches_tensorflow(expr, error, message):
    with pytest.raises(Exception) as info:
        eval(expr, NAMESPACE)
    assert type(info.value).__name__ == error
    assert message in str(info.value)


def _gradient(expr, input_expr, traced):
    def compute(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(expr, dict(NAMESPACE, x=x))
            w = tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)) % 5 + 1, y.dtype.real_dtype)
            if y.dtype.is_complex:
                loss = tf.reduce_sum(tf.math.real(y) * w) + tf.reduce_sum(tf.math.imag(y) * (w * w - 3))
            else:
                loss = tf.reduce_sum(y * w)
        return tape.gradient(loss, x)

    x = tf.constant(eval(input_expr, NAMESPACE))
    return (tf.function(compute) if traced else compute)(x)


@pytest.mark.parametrize("expr, input_expr, expected", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradient_matches_tensorflow(expr, input_expr, expected):
    _check(_gradient(expr, input_expr, traced=False).numpy(), expected)


@pytest.mark.parametrize("expr, input_expr, expected", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradient_in_function_matches_tensorflow(expr, input_expr, expected):
    _check(_gradient(expr, input_expr, traced=True).numpy(), expected)


@pytest.mark.parametrize("expr, shape, dtype", [
    ("tf.signal.rfft(x, fft_length=[6])", [2, 7], "float64"),  # cropped input: TF's own gradient fails here
    ("tf.signal.rfft2d(x, fft_length=[2, 5])", [3, 5], "float64"),
    ("tf.signal.irfft(x, fft_length=[5])", [2, 4], "complex128"),
    ("tf.signal.irfft2d(x)", [3, 4], "complex128"),
    ("tf.signal.fft3d(x)", [2, 2, 3], "complex128"),
    ("tf.signal.ifft2d(x)", [2, 3], "complex128"),
])
def test_gradient_matches_finite_differences(expr, shape, dtype):
    rng = np.random.default_rng(3)
    base = rng.standard_normal(shape)
    if dtype == "complex128":
        base = base + 1j * rng.standard_normal(shape)

    def loss(value):
        y = eval(expr, dict(NAMESPACE, x=value))
        w = tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)) % 3 + 1, y.dtype.real_dtype)
        if y.dtype.is_complex:
            return tf.reduce_sum(tf.math.real(y) * w) - 2.0 * tf.reduce_sum(tf.math.imag(y) * w)
        return tf.reduce_sum(y * w)

    x = tf.constant(base)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(x)
    analytic = tape.gradient(value, x).numpy()
    eps = 1e-6
    numeric = np.zeros_like(base)
    for index in np.ndindex(*shape):
        for step in ([1.0, 1j] if dtype == "complex128" else [1.0]):
            up, down = base.copy(), base.copy()
            up[index] += eps * step
            down[index] -= eps * step
            slope = (loss(tf.constant(up)).numpy() - loss(tf.constant(down)).numpy()) / (2 * eps)
            numeric[index] += slope * step  # TF's convention: dL/dRe + i dL/dIm
    np.testing.assert_allclose(analytic, numeric, atol=1e-6)


def test_rfft3d_has_no_gradient_as_in_tensorflow():
    x = tf.constant(INPUTS["R3"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.real(tf.signal.rfft3d(x))
    with pytest.raises(LookupError):
        tape.gradient(y, x)


def test_shapes_in_a_graph_with_unknown_dims():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
    def spectrum(x):
        y = tf.signal.rfft(x, fft_length=[8])
        assert y.shape.as_list() == [None, 5]  # as TF infers it
        return y

    assert spectrum(tf.constant(INPUTS["X"])).shape == (2, 5)


def test_large_real_fft_matches_numpy():
    # 2^16 + an odd length with a large prime factor (a Bluestein plan in pocketfft).
    for n in (1 << 16, 3 * 1009):
        x = np.random.default_rng(n).standard_normal(n)
        np.testing.assert_allclose(tf.signal.rfft(tf.constant(x)).numpy(), np.fft.rfft(x), atol=1e-9 * n)
        np.testing.assert_allclose(tf.signal.irfft(tf.constant(np.fft.rfft(x)), [n]).numpy(), x, atol=1e-12 * n)
