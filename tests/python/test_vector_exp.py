"""tf.exp on float32 (kernels/vector_exp.h): Eigen's polynomial with a two-factor 2^m, checked
against float64 exp over the whole float32 range: within 1 ulp for normal results and half the
smallest denormal's step for denormal ones; exp(-inf) is 0 (it was 2.9e-39 with Eigen's clamp)."""

import numpy as np
import pytest

import graphfn as tf

FLT_MIN = np.finfo(np.float32).tiny


def _ulps(a, b):
    """Distance in units in the last place between float32 arrays of the same sign."""
    return np.abs(a.view(np.int32).astype(np.int64) - b.view(np.int32).astype(np.int64))


def _check(x):
    got = tf.exp(tf.constant(x)).numpy()
    want = np.exp(x.astype(np.float64)).astype(np.float32)  # correctly rounded (up to double rounding)
    normal = want >= FLT_MIN
    assert np.isfinite(got[np.isfinite(want)]).all()
    assert _ulps(got[normal], want[normal]).max(initial=0) <= 1
    # Denormal results: one rounding of the scaled polynomial, within a denormal step or two.
    assert np.abs(got[~normal].astype(np.float64) - want[~normal]).max(initial=0) <= 2 * 2.0 ** -149


def test_exp_float32_over_the_whole_range():
    rng = np.random.default_rng(0)
    _check(rng.uniform(-104, 88.72, 2_000_003).astype(np.float32))   # odd size: packets and a scalar tail
    _check(rng.uniform(-1, 1, 100_001).astype(np.float32))
    _check(np.linspace(-104, 88.72, 999_983, dtype=np.float32))


def test_exp_float32_special_values_as_tf():
    # TF 2.21: exp of these (it flushes denormal results to 0: -100 and -87.4 give 0 there).
    x = np.array([-np.inf, -200, -104, -10, -1e-8, 0, 1e-8, 1, 10, 88.0, 88.72, 88.73, 100, np.inf, np.nan],
                 np.float32)
    expected = [0.0, 0.0, 0.0, 4.539993096841499e-05, 1.0, 1.0, 1.0, 2.7182817459106445, 22026.46484375,
                1.6516362661361307e+38, 3.3931803975633284e+38, np.inf, np.inf, np.inf, np.nan]
    for n in (len(x), 8 * len(x) + 3):  # the scalar tail and whole packets
        got = tf.exp(tf.constant(np.resize(x, n))).numpy()
        want = np.resize(np.array(expected, np.float32), n)
        # Which elements take the packet path depends on the buffer's alignment; the scalar path
        # (std::exp) may differ from TF's packet result by an ulp on the finite non-trivial ones.
        special = ~np.isfinite(want) | (want == 0) | (want == 1)
        np.testing.assert_array_equal(got[special], want[special])
        np.testing.assert_array_max_ulp(got[~special], want[~special], maxulp=1)


def test_exp_of_denormal_results():
    x = np.array([-87.4, -100.0, -103.0] * 8, np.float32)
    got = tf.exp(tf.constant(x)).numpy()
    np.testing.assert_allclose(got, np.exp(x.astype(np.float64)), rtol=0, atol=2 * 2.0 ** -149)
    assert (got > 0).all()


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.float64])
def test_exp_other_float_types(dtype):
    x = np.linspace(-9, 11, 1001)  # float16 results stay normal
    got = tf.exp(tf.cast(tf.constant(x), dtype))
    assert got.dtype == dtype
    np.testing.assert_allclose(tf.cast(got, tf.float64).numpy(), np.exp(tf.cast(tf.cast(x, dtype), tf.float64).numpy()),
                               rtol=1e-2 if dtype != tf.float64 else 1e-15)
