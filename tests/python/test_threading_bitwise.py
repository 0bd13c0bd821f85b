"""Threaded kernels give the same bits as single-threaded ones.

Each case runs in two fresh interpreters, one with GRAPHFN_NUM_THREADS=1 (every kernel on the
calling thread) and one with 3 threads (more shards than this machine's cores, so the split
differs from any default), over odd sizes around and above the thresholds of
kernels/parallel_loops.h; the results must be bitwise identical, and so run to run."""

import os
import subprocess
import sys
import textwrap

import pytest

_SCRIPT = textwrap.dedent('''
    import hashlib, sys
    import ml_dtypes
    import numpy as np
    import graphfn as tf

    rng = np.random.RandomState(7)
    def data(*shape, dtype=np.float32):
        return tf.constant((rng.standard_normal(shape) * 3).astype(dtype))

    cases = {}
    for n in (1, 7, 100003, 1000003):
        x = data(n)
        y = data(n)
        cases.update({
            "tanh %d" % n: lambda x=x: tf.tanh(x),
            "exp %d" % n: lambda x=x: tf.exp(x),
            "sigmoid %d" % n: lambda x=x: tf.sigmoid(x),
            "relu %d" % n: lambda x=x: tf.nn.relu(x),
            "log abs %d" % n: lambda x=x: tf.math.log(tf.abs(x)),
            "exp float64 %d" % n: lambda x=x: tf.exp(tf.cast(x, tf.float64)),
            "tanh float16 %d" % n: lambda x=x: tf.tanh(tf.cast(x, tf.float16)),
            "abs int32 %d" % n: lambda x=x: tf.abs(tf.cast(x * 1000, tf.int32)),
            "add %d" % n: lambda x=x, y=y: x + y,
            "div %d" % n: lambda x=x, y=y: x / y,
            "scalar times %d" % n: lambda x=x: x * 1.7,
            "less %d" % n: lambda x=x, y=y: tf.less(x, y),
            "pow %d" % n: lambda x=x, y=y: tf.pow(tf.abs(x), y),
            "cast int32 %d" % n: lambda x=x: tf.cast(x * 1e3, tf.int32),
            "cast bfloat16 %d" % n: lambda x=x: tf.cast(x, tf.bfloat16),
            "cast int8 to float %d" % n: lambda x=x: tf.cast(tf.cast(x, tf.int8), tf.float32),
            "sum %d" % n: lambda x=x: tf.reduce_sum(x),
            "mean %d" % n: lambda x=x: tf.reduce_mean(x),
            "max %d" % n: lambda x=x: tf.reduce_max(x),
            "prod %d" % n: lambda x=x: tf.reduce_prod(1 + x * 1e-6),
            "sum float64 %d" % n: lambda x=x: tf.reduce_sum(tf.cast(x, tf.float64)),
            "sum int64 %d" % n: lambda x=x: tf.reduce_sum(tf.cast(x * 100, tf.int64)),
            "softmax %d" % n: lambda x=x: tf.nn.softmax(x),
            "select %d" % n: lambda x=x, y=y: tf.where(x > y, x, y),
        })
    m = data(1001, 997)
    cube = data(7, 1001, 13)
    row, col = data(997), data(1001, 1)
    cases.update({
        "sum rows": lambda: tf.reduce_sum(m, axis=1),
        "sum columns": lambda: tf.reduce_sum(m, axis=0),
        "sum all": lambda: tf.reduce_sum(m),
        "mean rows": lambda: tf.reduce_mean(m, axis=1),
        "mean columns": lambda: tf.reduce_mean(m, axis=0),
        "max rows": lambda: tf.reduce_max(m, axis=1),
        "min columns": lambda: tf.reduce_min(m, axis=0),
        "prod columns": lambda: tf.reduce_prod(1 + m * 1e-3, axis=0),
        "sum rows float64": lambda: tf.reduce_sum(tf.cast(m, tf.float64), axis=1),
        "sum int32 columns": lambda: tf.reduce_sum(tf.cast(m * 100, tf.int32), axis=0),
        "any columns": lambda: tf.reduce_any(m > 2, axis=0),
        "argmax rows": lambda: tf.argmax(m, axis=1),
        "argmin columns": lambda: tf.argmin(m, axis=0),
        "sum cube middle": lambda: tf.reduce_sum(cube, axis=1),
        "sum cube outer": lambda: tf.reduce_sum(cube, axis=[0, 2]),
        "mean cube last": lambda: tf.reduce_mean(cube, axis=2),
        "softmax rows": lambda: tf.nn.softmax(m),
        "log_softmax rows": lambda: tf.nn.log_softmax(m),
        "softmax 3 x 100003": lambda: tf.nn.softmax(data(3, 100003)),
        "add row broadcast": lambda: m + row,
        "sub column broadcast": lambda: m - col,
        "outer product broadcast": lambda: col * tf.reshape(row, [1, 997]),
        "cube broadcast": lambda: cube * tf.reshape(data(7, 1, 13), [7, 1, 13]),
        "maximum broadcast": lambda: tf.maximum(m, row),
        "transpose": lambda: tf.transpose(m),
    })
    # Matrix products around the sizes where a split could change OpenBLAS's kernel (its AVX-512
    # cores pick small-matrix and "direct" kernels by a call's size: kernels/gemm.cc), and
    # bfloat16's (kernels/gemm_bf16.cc on CPUs with AVX-512 BF16, whose work units change with
    # the thread count).
    for mm, kk, nn in ((67, 301, 131), (67, 253, 301), (150, 512, 131), (300, 301, 256), (611, 64, 131),
                       (49, 512, 256), (100, 301, 11)):
        for ta in (False, True):
            for tb in (False, True):
                for dtype in (np.float32, np.float64, ml_dtypes.bfloat16):
                    a = data(*((kk, mm) if ta else (mm, kk)), dtype=dtype)
                    b = data(*((nn, kk) if tb else (kk, nn)), dtype=dtype)
                    cases["matmul %dx%dx%d %s%s %s" % (mm, kk, nn, "T" if ta else "N", "T" if tb else "N",
                                                       dtype.__name__)] = (
                        lambda a=a, b=b, ta=ta, tb=tb: tf.matmul(a, b, transpose_a=ta, transpose_b=tb))
    # Batched products, whole products shared out over the pool (kernels/gemm.cc, sgemm_avx512.cc),
    # with a broadcast batch dimension.
    for bb, mm, kk, nn in ((7, 67, 301, 131), (3, 150, 512, 40), (64, 128, 128, 128)):
        xa, xb = data(bb, mm, kk), data(bb, kk, nn)
        cases["batch matmul %dx%dx%dx%d" % (bb, mm, kk, nn)] = lambda xa=xa, xb=xb: tf.matmul(xa, xb)
        cases["batch matmul %dx%dx%dx%d TT" % (bb, mm, kk, nn)] = (
            lambda xa=xa, xb=xb: tf.matmul(xb, xa, transpose_a=True, transpose_b=True))
        cases["batch matmul %dx%dx%dx%d broadcast" % (bb, mm, kk, nn)] = (
            lambda xa=xa, xb=xb: tf.matmul(xa, xb[:1]))
    for name, fn in cases.items():
        digest = hashlib.sha256(np.ascontiguousarray(fn().numpy()).tobytes()).hexdigest()
        print(name, digest)
    print("threads", tf._core.parallel_threads())
''')


def _digests(threads):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), GRAPHFN_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "threads %d" % threads
    return dict(line.rsplit(" ", 1) for line in lines[:-1])


@pytest.fixture(scope="module")
def single_threaded():
    return _digests(1)


@pytest.mark.parametrize("threads", [2, 3])
def test_threaded_kernels_equal_single_threaded_bitwise(single_threaded, threads):
    threaded = _digests(threads)
    assert len(threaded) == len(single_threaded) > 150
    different = sorted(name for name in single_threaded if threaded[name] != single_threaded[name])
    assert different == []
