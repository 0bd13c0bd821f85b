"""The kernels whose speed depends on the vector instructions compiled in (GRAPHFN_SIMD,
docs/building.md "Vector instructions") give the same results under every choice: the exact ones
(relu, add, bias add, casts, transpose, max) equal NumPy bit for bit, the transcendental ones
(tanh, exp, sigmoid, softmax) and float sums are within TF's float32 tolerances of NumPy's
float64 values. Sizes are odd so that the vector loops' scalar tails run too.

And the CPU check before _core is loaded: a CPU without the build's instructions gets a clear
ImportError (simulated with GRAPHFN_TEST_CPU_FLAGS), not an illegal-instruction crash."""

import os
import subprocess
import sys

import numpy as np
import pytest

import graphfn as tf
from graphfn.util import cpu_check

# TF's cwise op tests compare float32 results with NumPy by assertAllClose's defaults.
RTOL = ATOL = 1e-6


def _inputs(n, low, high, seed):
    rng = np.random.default_rng(seed)
    special = [0.0, -0.0, 1e-30, -1e-30, 1e-40, -1e-40, low, high, 1e-3, -1e-3]
    return np.concatenate([rng.uniform(low, high, n), special]).astype(np.float32)


def _sigmoid64(v):
    return 1.0 / (1.0 + np.exp(-v))


@pytest.mark.parametrize("n", [1, 7, 33, 1001, 100_003])
@pytest.mark.parametrize("name, reference, low, high", [
    ("tanh", np.tanh, -20.0, 20.0),
    ("exp", np.exp, -87.0, 88.0),
    ("sigmoid", _sigmoid64, -40.0, 40.0),
])
def test_transcendental_within_tf_tolerances(name, reference, low, high, n):
    x = _inputs(n, low, high, seed=n)
    got = getattr(tf.math, name)(x).numpy()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, reference(x.astype(np.float64)), rtol=RTOL, atol=ATOL)


def test_transcendental_special_values():
    # expected: TF 2.21's results (exp(-100) is 0 there; 3.8e-44, the float32 nearest e^-100,
    # is within TF's tolerance too)
    x = np.array([np.inf, -np.inf, np.nan, 100.0, -100.0, -104.0, 89.0], np.float32)
    for name, expected in [("tanh", [1, -1, np.nan, 1, -1, -1, 1]),
                           ("exp", [np.inf, 0, np.nan, np.inf, 0, 0, np.inf]),
                           ("sigmoid", [1, 0, np.nan, 1, 0, 0, 1])]:
        np.testing.assert_allclose(getattr(tf.math, name)(x).numpy(), np.array(expected, np.float32),
                                   rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("shape", [(3, 5), (17, 1001), (1, 4099)])
def test_softmax_within_tf_tolerances(shape):
    logits = np.random.default_rng(3).uniform(-30, 30, shape).astype(np.float32)
    wide = logits.astype(np.float64)
    e = np.exp(wide - wide.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(tf.nn.softmax(logits).numpy(), e / e.sum(axis=-1, keepdims=True),
                               rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("shape", [(1, 9), (13, 1001), (999, 37)])
def test_sums_within_tolerance_and_max_exact(shape):
    m = np.random.default_rng(4).uniform(-1, 1, shape).astype(np.float32)
    wide = m.astype(np.float64)
    for axis in (0, 1, None):
        # a float32 sum of n terms in any order: within n ulps of the exact sum's magnitude
        bound = shape[0] * shape[1] * np.finfo(np.float32).eps * np.abs(wide).sum(axis=axis)
        assert np.all(np.abs(tf.reduce_sum(m, axis=axis).numpy() - wide.sum(axis=axis)) <= bound)
        np.testing.assert_array_equal(tf.reduce_max(m, axis=axis).numpy(), m.max(axis=axis))


def test_exact_kernels_equal_numpy():
    rng = np.random.default_rng(5)
    m = rng.standard_normal((37, 1003)).astype(np.float32)
    row = rng.standard_normal(1003).astype(np.float32)
    col = rng.standard_normal((37, 1)).astype(np.float32)
    np.testing.assert_array_equal(tf.nn.relu(m).numpy(), np.maximum(m, 0))
    np.testing.assert_array_equal(tf.add(col, row).numpy(), col + row)
    np.testing.assert_array_equal(tf.multiply(m, row).numpy(), m * row)
    np.testing.assert_array_equal(tf.nn.bias_add(m, row).numpy(), m + row)
    np.testing.assert_array_equal(tf.transpose(m).numpy(), m.T)
    np.testing.assert_array_equal(tf.cast(m, tf.float64).numpy(), m.astype(np.float64))
    scaled = m * 1000
    np.testing.assert_array_equal(tf.cast(scaled, tf.int32).numpy(), scaled.astype(np.int32))
    np.testing.assert_array_equal(tf.cast(m.astype(np.float64), tf.float32).numpy(), m)


def test_build_records_its_cpu_requirements():
    required = cpu_check.required_flags()
    assert required is not None, "no %s beside _core: the CPU check is off" % cpu_check.REQUIREMENTS_FILE
    assert set(required) <= set(cpu_check.cpu_flags())  # this CPU ran the build's code


def _import_graphfn_with_cpu_flags(flags):
    env = dict(os.environ, **{cpu_check.CPU_FLAGS_OVERRIDE: " ".join(flags)})
    return subprocess.run([sys.executable, "-c", "import graphfn"], env=env,
                          capture_output=True, text=True, timeout=120)


def test_import_on_a_cpu_without_the_builds_instructions_is_a_clear_import_error():
    required = cpu_check.required_flags()
    if required:
        proc = _import_graphfn_with_cpu_flags(["fpu", "sse", "sse2"] + required[:-1])
        assert proc.returncode == 1, proc.stderr
        assert "ImportError: graphfn's C++ core was built for CPUs with" in proc.stderr
        assert "which this CPU does not have" in proc.stderr
        assert "GRAPHFN_SIMD=baseline" in proc.stderr
    else:  # a baseline build runs on any x86-64 CPU
        proc = _import_graphfn_with_cpu_flags(["fpu", "sse", "sse2"])
        assert proc.returncode == 0, proc.stderr


def test_import_with_all_required_instructions_works():
    proc = _import_graphfn_with_cpu_flags(["fpu", "sse", "sse2"] + (cpu_check.required_flags() or []))
    assert proc.returncode == 0, proc.stderr


def test_missing_flags_message_names_the_instructions(monkeypatch, tmp_path):
    monkeypatch.setattr(cpu_check, "required_flags", lambda: ["pni", "avx", "avx2", "fma"])
    monkeypatch.setenv(cpu_check.CPU_FLAGS_OVERRIDE, "sse sse2 pni avx")
    with pytest.raises(ImportError, match=r"built for CPUs with AVX2, FMA, which this CPU does not have"):
        cpu_check.check()
    monkeypatch.setenv(cpu_check.CPU_FLAGS_OVERRIDE, "sse sse2 pni avx avx2 fma")
    cpu_check.check()
