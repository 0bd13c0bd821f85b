"""Sorting and n-d indexing on large tensors, eagerly, graphfn vs TensorFlow (and JAX jit).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_indexing.py [--repeat 5] [--json out.json]

Rows: tf.sort and tf.argsort of 1M random float32 values (TF sorts with TopKV2, graphfn with its
stable radix sort); tf.sort of 1000 rows of 1000; tf.gather_nd of 1M index pairs from a
1000 x 1000 float32 matrix; tf.tensor_scatter_nd_add of 1M updates into it; tf.unique of 1M
int32 values in [0, 1000). Inputs are made once, outside the timing. Cells are medians in µs.
"""

import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")

_RNG = np.random.default_rng(0)
_VALUES = _RNG.standard_normal(1_000_000).astype(np.float32)
_ROWS = _RNG.standard_normal((1000, 1000)).astype(np.float32)
_PARAMS = _RNG.standard_normal((1000, 1000)).astype(np.float32)
_INDICES = _RNG.integers(0, 1000, size=(1_000_000, 2)).astype(np.int32)
_UPDATES = _RNG.standard_normal(1_000_000).astype(np.float32)
_IDS = _RNG.integers(0, 1000, size=1_000_000).astype(np.int32)


def _sort(lib):
    x = lib.constant(_VALUES)
    return lambda: lib.sort(x).numpy()


def _argsort(lib):
    x = lib.constant(_VALUES)
    return lambda: lib.argsort(x).numpy()


def _sort_rows(lib):
    x = lib.constant(_ROWS)
    return lambda: lib.sort(x, axis=-1).numpy()


def _gather_nd(lib):
    params, indices = lib.constant(_PARAMS), lib.constant(_INDICES)
    return lambda: lib.gather_nd(params, indices).numpy()


def _scatter_add(lib):
    params, indices, updates = lib.constant(_PARAMS), lib.constant(_INDICES), lib.constant(_UPDATES)
    return lambda: lib.tensor_scatter_nd_add(params, indices, updates).numpy()


def _unique(lib):
    ids = lib.constant(_IDS)
    return lambda: lib.unique(ids)[0].numpy()


ROWS = [("sort float32 1M", _sort), ("argsort float32 1M", _argsort), ("sort 1000 rows x 1000", _sort_rows),
        ("gather_nd 1M indices", _gather_nd), ("tensor_scatter_nd_add 1M updates", _scatter_add),
        ("unique int32 1M", _unique)]


def _jax_rows(repeat):
    values, rows = jnp.asarray(_VALUES), jnp.asarray(_ROWS)
    params, indices = jnp.asarray(_PARAMS), jnp.asarray(_INDICES)
    sort = jax.jit(jnp.sort)
    argsort = jax.jit(lambda v: jnp.argsort(v, stable=True))
    gather = jax.jit(lambda p, i: p[i[:, 0], i[:, 1]])
    return {
        "sort float32 1M": time_per_call_us(lambda: sort(values).block_until_ready(), repeat),
        "argsort float32 1M": time_per_call_us(lambda: argsort(values).block_until_ready(), repeat),
        "sort 1000 rows x 1000": time_per_call_us(lambda: sort(rows).block_until_ready(), repeat),
        "gather_nd 1M indices": time_per_call_us(lambda: gather(params, indices).block_until_ready(), repeat),
    }


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    jax_times = _jax_rows(repeat) if jax is not None else {}
    results = []
    for name, make in ROWS:
        row = {"benchmark": name, "us": {lib_name: time_per_call_us(make(lib), repeat) for lib_name, lib in libs}}
        if name in jax_times:
            row["us"]["JAX jit"] = jax_times[name]
        results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
