"""bfloat16 matrix products, whose rounding TensorFlow 2.21 takes from the CPU.

TF's MatMul and BatchMatMulV2 run in oneDNN. On a CPU with AVX-512 BF16, oneDNN sums pairs of
products into float with vdpbf16ps and rounds each result to the nearest bfloat16 (ties to
even); elsewhere, and always for BatchMatMulV3, Eigen sums in float and truncates each result.
The tables were recorded from TF 2.21 on both kinds of CPU: an AMD EPYC Zen 4 (avx512_bf16) and
an x86-64 CPU without AVX-512. graphfn picks the same path on the same CPU (kernels/gemm_bf16.h),
and GRAPHFN_MAX_CPU_ISA=avx2 forces the second one anywhere.
"""

import ml_dtypes
import numpy as np
import pytest

import graphfn as tf
from fresh_interpreter import run_code


def _cpu_has_avx512_bf16():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "").split()
    except OSError:
        return False
    needed = {"avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512_bf16"}
    return needed <= set(flags)


DOT_INSTRUCTION = _cpu_has_avx512_bf16()

A = "tf.reshape(tf.constant([0.1, 1.5, -2.25, 3.3, 65000.0], tf.bfloat16)[:4], [2, 2])"
B = "tf.reshape(tf.constant([0.3, -1.5, 2.0, 0.7, 2.0], tf.bfloat16)[:4], [2, 2])"
X3 = "tf.cast(tf.reshape(tf.range(12.0) / 7, [2, 2, 3]), tf.bfloat16)"
Y3 = "tf.cast(tf.reshape(tf.range(6.0) / 3, [3, 2]), tf.bfloat16)"

# expression: (TF on a CPU with AVX-512 BF16, TF on a CPU without)
CASES = {
    "tf.matmul(%s, %s)" % (A, B): (
        '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[3.03125, 0.898438],\n       [5.90625, 5.6875]], dtype=bfloat16)>',
        '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[3.01562, 0.898438],\n       [5.90625, 5.65625]], dtype=bfloat16)>'),
    "tf.matmul(%s, %s, transpose_a=True, transpose_b=True)" % (A, B): (
        '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[3.40625, -1.375],\n       [-4.5, 5.3125]], dtype=bfloat16)>',
        '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[3.39062, -1.36719],\n       [-4.46875, 5.28125]], dtype=bfloat16)>'),
    "tf.matmul(%s, %s)" % (X3, Y3): (
        '<tf.Tensor: shape=(2, 2, 2), dtype=bfloat16, numpy=\narray([[[0.476562, 0.617188],\n        [1.33594, 1.90625]],\n\n       [[2.1875, 3.1875],\n        [3.04688, 4.46875]]], dtype=bfloat16)>',
        '<tf.Tensor: shape=(2, 2, 2), dtype=bfloat16, numpy=\narray([[[0.474609, 0.613281],\n        [1.33594, 1.89844]],\n\n       [[2.1875, 3.17188],\n        [3.04688, 4.46875]]], dtype=bfloat16)>'),
    "tf.raw_ops.BatchMatMulV3(x=%s, y=%s, Tout=tf.bfloat16)" % (X3, Y3): (
        '<tf.Tensor: shape=(2, 2, 2), dtype=bfloat16, numpy=\narray([[[0.474609, 0.613281],\n        [1.33594, 1.89844]],\n\n       [[2.1875, 3.17188],\n        [3.04688, 4.46875]]], dtype=bfloat16)>',
        '<tf.Tensor: shape=(2, 2, 2), dtype=bfloat16, numpy=\narray([[[0.474609, 0.613281],\n        [1.33594, 1.89844]],\n\n       [[2.1875, 3.17188],\n        [3.04688, 4.46875]]], dtype=bfloat16)>'),
}


@pytest.mark.parametrize("expr", sorted(CASES))
def test_matches_tensorflow_on_this_cpu(expr):
    with_dot, without = CASES[expr]
    assert repr(eval(expr, {"tf": tf})) == (with_dot if DOT_INSTRUCTION else without)


def test_build_level_path_matches_tensorflow_without_avx512_bf16():
    # GRAPHFN_MAX_CPU_ISA=avx2: the float path, whatever this CPU has.
    code = "import graphfn as tf\nfor e in %r: print(repr(eval(e, {'tf': tf})))\nprint('END')" % sorted(CASES)
    out = run_code(code, GRAPHFN_MAX_CPU_ISA="avx2")
    assert out.returncode == 0, out.stderr
    printed = out.stdout.split("END")[0]
    assert printed == "".join(CASES[e][1] + "\n" for e in sorted(CASES))


def _bf16(rng, *shape):
    return (rng.standard_normal(shape) * 2).astype(ml_dtypes.bfloat16)


def _dot_instruction_product(a, b):
    """op(A) @ op(B) as vdpbf16ps computes it (the instruction's definition): per pair of k
    values, the second product and then the first added to the float sum, each addition rounded
    to float; the sum rounded once to bfloat16, ties to even. (Products of bfloat16 values are
    exact in float.)"""
    a, b = a.astype(np.float32), b.astype(np.float32)
    total = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for p in range(0, a.shape[1], 2):
        if p + 1 < a.shape[1]:
            total = total + np.outer(a[:, p + 1], b[p + 1]).astype(np.float32)
        total = total + np.outer(a[:, p], b[p]).astype(np.float32)
    return total.astype(ml_dtypes.bfloat16)


SHAPES = [(1, 1, 1), (2, 3, 5), (13, 17, 33), (12, 512, 32), (97, 513, 70), (37, 1100, 65), (1, 300, 1), (200, 64, 257)]


def _truncated_float_product_holds(got, a, b):
    """Whether each result is a float sum of the products (within the float error of some order
    of summation) truncated toward zero to bfloat16: |got| <= |sum| < |got| + one bfloat16 ulp."""
    exact = a.astype(np.float64) @ b.astype(np.float64)
    tol = a.shape[1] * 2.0**-24 * (np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))) + 1e-30
    got = got.astype(np.float64)
    ulp = np.spacing(np.abs(got).astype(ml_dtypes.bfloat16)).astype(np.float64)
    same_sign = (np.sign(got) == np.sign(exact)) | (got == 0)
    return np.all(same_sign & (np.abs(got) <= np.abs(exact) + tol) & (np.abs(exact) - tol < np.abs(got) + ulp))


@pytest.mark.parametrize("m, k, n", SHAPES)
@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_products_follow_this_cpus_path(m, k, n, ta, tb):
    # With AVX-512 BF16: vdpbf16ps's sums bit for bit; without: float sums truncated.
    rng = np.random.default_rng(m * 7 + k + n)
    a, b = _bf16(rng, m, k), _bf16(rng, k, n)
    got = tf.matmul(tf.constant(a.T.copy() if ta else a), tf.constant(b.T.copy() if tb else b), transpose_a=ta,
                    transpose_b=tb).numpy()
    if DOT_INSTRUCTION:
        np.testing.assert_array_equal(got.view(np.uint16), _dot_instruction_product(a, b).view(np.uint16))
    else:
        assert _truncated_float_product_holds(got, a, b)


def test_build_level_path_truncates_float_sums():
    rng = np.random.default_rng(11)
    a, b = _bf16(rng, 37, 300), _bf16(rng, 300, 45)
    out = run_code("""
        import sys, ml_dtypes, numpy as np, graphfn as tf
        a = np.frombuffer(bytes.fromhex(sys.argv[1]), np.uint16).view(ml_dtypes.bfloat16).reshape(37, 300)
        b = np.frombuffer(bytes.fromhex(sys.argv[2]), np.uint16).view(ml_dtypes.bfloat16).reshape(300, 45)
        print(tf.matmul(tf.constant(a), tf.constant(b)).numpy().view(np.uint16).tobytes().hex())
    """, a.view(np.uint16).tobytes().hex(), b.view(np.uint16).tobytes().hex(), GRAPHFN_MAX_CPU_ISA="avx2")
    assert out.returncode == 0, out.stderr
    got = np.frombuffer(bytes.fromhex(out.stdout.strip()), np.uint16).view(ml_dtypes.bfloat16).reshape(37, 45)
    assert _truncated_float_product_holds(got, a, b)


@pytest.mark.parametrize("m, k, n", SHAPES)
def test_products_are_within_bfloat16_rounding_of_the_exact_one(m, k, n):
    rng = np.random.default_rng(m + k * 3 + n)
    a, b = _bf16(rng, m, k), _bf16(rng, k, n)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    got = tf.matmul(tf.constant(a), tf.constant(b)).numpy().astype(np.float64)
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    # one bfloat16 rounding (2^-8 relative) plus the float sum's error (k * 2^-24 of the scale)
    assert np.all(np.abs(got - exact) <= 2.0**-8 * np.abs(exact) + (k * 2.0**-24 + 1e-30) * scale)


def test_batch_matmul_broadcasts_each_batch_like_matmul():
    rng = np.random.default_rng(5)
    x, y = _bf16(rng, 3, 1, 9, 21), _bf16(rng, 4, 21, 40)
    got = tf.matmul(tf.constant(x), tf.constant(y)).numpy()
    assert got.shape == (3, 4, 9, 40)
    for i in range(3):
        for j in range(4):
            want = tf.matmul(tf.constant(x[i, 0]), tf.constant(y[j])).numpy()
            np.testing.assert_array_equal(got[i, j].view(np.uint16), want.view(np.uint16))


def test_empty_and_zero_k_products():
    assert tf.matmul(tf.zeros([0, 3], tf.bfloat16), tf.zeros([3, 4], tf.bfloat16)).shape == (0, 4)
    z = tf.matmul(tf.zeros([2, 0], tf.bfloat16), tf.zeros([0, 3], tf.bfloat16))
    np.testing.assert_array_equal(z.numpy().astype(np.float32), np.zeros((2, 3), np.float32))


def test_non_finite_values_propagate():
    a = tf.constant([[np.inf, 1.0], [np.nan, 2.0], [1.0, 2.0]], tf.bfloat16)
    b = tf.constant([[1.0, -1.0], [3.0, 0.5]], tf.bfloat16)
    got = tf.matmul(a, b).numpy().astype(np.float32)
    np.testing.assert_array_equal(got[0], [np.inf, -np.inf])
    assert np.isnan(got[1]).all()
    np.testing.assert_array_equal(got[2], [7.0, 0.0])
