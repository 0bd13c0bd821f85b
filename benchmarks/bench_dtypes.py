"""Reduced precision and complex matrix products, graphfn vs TensorFlow and JAX jit.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_dtypes.py [--repeat 5] [--json out.json]

Rows: eager 512 x 512 matmul in float16, bfloat16, complex64 (and float32 for reference), inputs
made before timing; the result is fetched (.numpy() / block_until_ready) in each call. Cells are
medians in µs. graphfn multiplies float16/bfloat16 in float with Eigen's single-threaded GEMM
and rounds once (docs/dtypes.md); TF 2.21 uses both cores (oneDNN, avx512_bf16 for bfloat16).
"""

import sys

import numpy as np

import graphfn as gf
from _harness import main_beside_tf_and_jax
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")

N = 512
DTYPES = ["float32", "float16", "bfloat16", "complex64"]


def _matrix(dtype):
    rng = np.random.default_rng(0)
    values = rng.random((N, N)).astype(np.float32)
    if dtype == "complex64":
        values = values + 1j * rng.random((N, N)).astype(np.float32)
    return values


def _lib_matmul(lib, dtype):
    a = lib.cast(lib.constant(_matrix(dtype)), getattr(lib, dtype))
    return lambda: lib.matmul(a, a).numpy()


def _jax_matmul(dtype):
    a = jnp.asarray(_matrix(dtype)).astype(getattr(jnp, dtype))
    product = jax.jit(lambda x: x @ x)
    return lambda: product(a).block_until_ready()


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for dtype in DTYPES:
        row = {"benchmark": "matmul %dx%d %s" % (N, N, dtype), "us": {}}
        for name, lib in libs:
            row["us"][name] = time_per_call_us(_lib_matmul(lib, dtype), repeat)
        if jax is not None:
            row["us"]["JAX jit"] = time_per_call_us(_jax_matmul(dtype), repeat)
        results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
