"""The float/double matrix product path (kernels/gemm.h: the panel loop for tiny products, else
OpenBLAS split over the intra-op pool): odd sizes on both sides of every threshold, transposes,
broadcast batches, einsum and float16/bfloat16, against NumPy in float64; threaded results
equal to one-thread ones (GRAPHFN_NUM_THREADS=1 in a subprocess)."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import graphfn as tf

# TF's matmul tests compare float32 with rtol/atol 1e-5 .. 3e-5 of the magnitude; here the error
# is measured against |A| @ |B| (the scale of the sums), so a k of 1001 still passes honestly.
TOL = {np.float32: 2e-5, np.float64: 1e-12}


def _operand(rng, shape, dtype):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _check(got, a, b, dtype, ta=False, tb=False):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if ta:
        a64 = np.swapaxes(a64, -1, -2)
    if tb:
        b64 = np.swapaxes(b64, -1, -2)
    want = a64 @ b64
    scale = np.abs(a64) @ np.abs(b64) + np.finfo(dtype).tiny
    assert got.dtype == dtype
    assert got.shape == want.shape
    err = np.max(np.abs(got.astype(np.float64) - want) / scale) if want.size else 0.0
    assert err <= TOL[dtype], err


SIZES = [(1, 1, 1), (1, 7, 1), (7, 1, 7), (7, 33, 5), (33, 7, 257), (257, 33, 7), (257, 257, 33),
         (1001, 7, 33), (33, 1001, 257), (1, 1001, 257), (257, 1001, 1), (1, 100003, 1)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m,k,n", SIZES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_odd_sizes_and_transposes(dtype, m, k, n, ta, tb):
    rng = np.random.default_rng(m * 1000003 + k * 1009 + n)
    a = _operand(rng, (k, m) if ta else (m, k), dtype)
    b = _operand(rng, (n, k) if tb else (k, n), dtype)
    got = tf.matmul(a, b, transpose_a=ta, transpose_b=tb).numpy()
    _check(got, a, b, dtype, ta, tb)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_1001_square(dtype):
    rng = np.random.default_rng(1001)
    a, b = _operand(rng, (1001, 1001), dtype), _operand(rng, (1001, 1001), dtype)
    _check(tf.matmul(a, b).numpy(), a, b, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xs,ys", [
    ((64, 33, 7), (64, 7, 33)),          # many small products: spread over the pool
    ((3, 257, 129), (3, 129, 65)),      # few larger ones: split inside
    ((2, 1, 7, 33), (5, 33, 9)),        # broadcast batch dims
    ((1, 129, 257), (4, 257, 33)),      # one x for every y
    ((6, 1, 1, 5), (6, 1, 5, 1)),
])
@pytest.mark.parametrize("adj_x,adj_y", [(False, False), (True, True)])
def test_batch_matmul_broadcast(dtype, xs, ys, adj_x, adj_y):
    rng = np.random.default_rng(len(xs) * 100 + xs[-1])
    x = _operand(rng, xs[:-2] + (xs[-1], xs[-2]) if adj_x else xs, dtype)
    y = _operand(rng, ys[:-2] + (ys[-1], ys[-2]) if adj_y else ys, dtype)
    got = tf.linalg.matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y).numpy()
    _check(got, x, y, dtype, adj_x, adj_y)


def test_batch_matmul_empty_and_k_zero():
    assert tf.matmul(np.zeros((3, 0, 4), np.float32), np.zeros((3, 4, 5), np.float32)).shape == (3, 0, 5)
    got = tf.matmul(np.zeros((2, 300, 0), np.float32), np.zeros((2, 0, 300), np.float32)).numpy()
    np.testing.assert_array_equal(got, np.zeros((2, 300, 300), np.float32))


@pytest.mark.parametrize("equation,shapes", [
    ("bij,bjk->bik", [(5, 33, 257), (5, 257, 7)]),
    ("ij,kj->ik", [(257, 129), (65, 129)]),
    ("ji,jk->ik", [(129, 257), (129, 33)]),
    ("bi,bi->b", [(33, 5000), (33, 5000)]),
    ("ij,ij->", [(1001, 1001), (1001, 1001)]),
])
def test_einsum_products(equation, shapes):
    rng = np.random.default_rng(7)
    a, b = (_operand(rng, s, np.float32) for s in shapes)
    got = tf.einsum(equation, a, b).numpy()
    want = np.einsum(equation, a.astype(np.float64), b.astype(np.float64))
    scale = np.einsum(equation, np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    assert got.shape == want.shape
    assert np.max(np.abs(got - want) / scale) <= TOL[np.float32]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, True)])
def test_reduced_precision_matmul_large(dtype, ta, tb):
    # Each result is the float product rounded once (float16) or truncated (bfloat16, as TF):
    # within one unit in the last place of the float64 product of the rounded inputs.
    rng = np.random.default_rng(3)
    a = tf.cast(rng.uniform(-1, 1, (129, 257)).astype(np.float32), dtype)
    b = tf.cast(rng.uniform(-1, 1, (257, 129)).astype(np.float32), dtype)
    got = tf.cast(tf.matmul(a, b, transpose_a=ta, transpose_b=tb), tf.float64).numpy()
    a64, b64 = tf.cast(a, tf.float64).numpy(), tf.cast(b, tf.float64).numpy()
    op_a, op_b = (a64.T if ta else a64), (b64.T if tb else b64)
    want, scale = op_a @ op_b, np.abs(op_a) @ np.abs(op_b)
    ulp = 2.0 ** (-10 if dtype == "float16" else -7)
    # one rounding of the result, plus float32's summation error
    assert np.all(np.abs(got - want) <= ulp * np.abs(want) + TOL[np.float32] * scale)


_PRODUCTS = textwrap.dedent("""
    import hashlib, sys
    import numpy as np
    import graphfn as tf
    rng = np.random.default_rng(5)
    def f(*shape, dtype=np.float32):
        return rng.uniform(-1, 1, shape).astype(dtype)
    results = [
        tf.matmul(f(1001, 257), f(257, 33)),
        tf.matmul(f(33, 257), f(257, 1001)),
        tf.matmul(f(257, 1001), f(257, 129), transpose_a=True),
        tf.matmul(f(129, 1001), f(257, 1001), transpose_b=True),
        tf.matmul(f(513, 129, dtype=np.float64), f(129, 257, dtype=np.float64)),
        tf.matmul(f(64, 33, 65), f(64, 65, 31)),
        tf.matmul(f(3, 257, 129), f(1, 129, 257)),
        tf.einsum("bij,bjk->bik", f(9, 65, 129), f(9, 129, 65)),
        tf.matmul(tf.cast(f(257, 129), tf.bfloat16), tf.cast(f(129, 257), tf.bfloat16)),
        tf.matmul(tf.cast(f(263, 131), tf.float16), tf.cast(f(263, 129), tf.float16), transpose_a=True),
        # cut into column blocks; then shapes whose cut at OpenBLAS's kernel row block changed
        # bits on its AVX-512 kernels (a smaller call took another kernel)
        tf.matmul(f(64, 784), f(784, 128)),
        tf.matmul(f(641, 259), f(641, 190), transpose_a=True),
        tf.matmul(f(646, 117), f(70, 646), transpose_a=True, transpose_b=True),
        tf.matmul(f(287, 867), f(5, 867), transpose_b=True),
    ]
    for r in results:
        print(hashlib.sha256(np.ascontiguousarray(tf.cast(r, tf.float64).numpy()).tobytes()).hexdigest())
""")


def test_threaded_products_equal_single_threaded():
    def run(threads):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        if threads is None:
            env.pop("GRAPHFN_NUM_THREADS", None)
        else:
            env["GRAPHFN_NUM_THREADS"] = str(threads)
        proc = subprocess.run([sys.executable, "-c", _PRODUCTS], capture_output=True, text=True, env=env,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.split()
    one, several = run(1), run(3)
    assert len(one) == 14
    assert one == several
    assert run(None) == one
