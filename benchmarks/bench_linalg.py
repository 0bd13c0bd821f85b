"""Eager tf.einsum and a few tf.linalg ops on about a million elements, graphfn vs TensorFlow.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_linalg.py [--repeat 5] [--json out.json]

Rows: a batched matrix product 'bij,bjk->bik' on [64,128,128] x [64,128,128]; a transpose
'ij->ji' and a row-wise dot 'ij,ij->i' on [1000,1000]; a trace-like diagonal sum 'ii->' and a
full contraction 'ij,ij->' on [1000,1000]; then tf.linalg.svd, tf.linalg.inv, tf.linalg.cholesky
and tf.norm(ord=2, axis=[-2,-1]) on [64,32,32] batches. Inputs are float32 tensors made before
timing; each cell is the median µs of one eager call (TF uses both cores; so may graphfn). The
ratio column is TF's time over graphfn's (above 1: graphfn is faster).
"""

import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")

_RNG = np.random.default_rng(0)
_BATCH = _RNG.standard_normal((64, 128, 128)).astype(np.float32)
_SQUARE = _RNG.standard_normal((1000, 1000)).astype(np.float32)
_SMALL = _RNG.standard_normal((64, 32, 32)).astype(np.float32)
_SPD = (_SMALL @ np.swapaxes(_SMALL, -1, -2) + 32 * np.eye(32, dtype=np.float32)).astype(np.float32)


def _einsum(equation, *arrays):
    def make(lib):
        tensors = [lib.constant(a) for a in arrays]
        return lambda: lib.einsum(equation, *tensors)
    return make


def _unary(fn_name, array):
    def make(lib):
        x = lib.constant(array)
        fn = {"svd": lambda t: lib.linalg.svd(t), "inv": lib.linalg.inv, "cholesky": lib.linalg.cholesky,
              "norm2": lambda t: lib.norm(t, ord=2, axis=[-2, -1])}[fn_name]
        return lambda: fn(x)
    return make


ROWS = [
    ("einsum 'bij,bjk->bik' [64,128,128]", _einsum("bij,bjk->bik", _BATCH, _BATCH)),
    ("einsum 'ij->ji' [1000,1000]", _einsum("ij->ji", _SQUARE)),
    ("einsum 'ij,ij->i' [1000,1000]", _einsum("ij,ij->i", _SQUARE, _SQUARE)),
    ("einsum 'ij,ij->' [1000,1000]", _einsum("ij,ij->", _SQUARE, _SQUARE)),
    ("einsum 'ii->' [1000,1000]", _einsum("ii->", _SQUARE)),
    ("linalg.svd [64,32,32]", _unary("svd", _SMALL)),
    ("linalg.inv [64,32,32]", _unary("inv", _SPD)),
    ("linalg.cholesky [64,32,32]", _unary("cholesky", _SPD)),
    ("norm ord=2 axis=[-2,-1] [64,32,32]", _unary("norm2", _SMALL)),
]


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for name, make in ROWS:
        row = {"benchmark": name, "us": {}}
        for lib_name, lib in libs:
            row["us"][lib_name] = time_per_call_us(make(lib), repeat)
        results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
