"""Element-wise ops, reductions, softmax and casts on 1M float32 elements: graphfn's intra-op pool
against TensorFlow (and jax.jit), eagerly.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_elementwise.py [--repeat 5] [--json out.json]

Inputs are 1000x1000 float32 (1M elements); the broadcasting add adds a [1000] row to every row.
Cells are medians in µs; "TensorFlow / graphfn" above 1 means graphfn is faster. Every library
uses all cores (graphfn: GRAPHFN_NUM_THREADS or tf.config.threading to change that); the header
line gives the load average, since the machine may be shared.
"""

import os
import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")

_rng = np.random.RandomState(0)
X = _rng.randn(1000, 1000).astype(np.float32)
ROW = _rng.randn(1000).astype(np.float32)

# (label, f(lib, x, row)) with lib a TF-shaped module (graphfn or tensorflow)
ROWS = [
    ("tanh 1M", lambda lib, x, row: lib.tanh(x)),
    ("exp 1M", lambda lib, x, row: lib.exp(x)),
    ("sigmoid 1M", lambda lib, x, row: lib.sigmoid(x)),
    ("softmax 1000x1000", lambda lib, x, row: lib.nn.softmax(x)),
    ("reduce_sum over rows 1000x1000", lambda lib, x, row: lib.reduce_sum(x, axis=1)),
    ("reduce_sum over columns 1000x1000", lambda lib, x, row: lib.reduce_sum(x, axis=0)),
    ("reduce_max all 1M", lambda lib, x, row: lib.reduce_max(x)),
    ("cast float32 -> int32 1M", lambda lib, x, row: lib.cast(x, lib.int32)),
    ("add 1M + broadcast row", lambda lib, x, row: x + row),
    ("multiply 1M x 1M", lambda lib, x, row: x * x),
]

_JAX = {
    "tanh 1M": lambda x, row: jnp.tanh(x),
    "exp 1M": lambda x, row: jnp.exp(x),
    "sigmoid 1M": lambda x, row: jax.nn.sigmoid(x),
    "softmax 1000x1000": lambda x, row: jax.nn.softmax(x, axis=-1),
    "reduce_sum over rows 1000x1000": lambda x, row: jnp.sum(x, axis=1),
    "reduce_sum over columns 1000x1000": lambda x, row: jnp.sum(x, axis=0),
    "reduce_max all 1M": lambda x, row: jnp.max(x),
    "cast float32 -> int32 1M": lambda x, row: x.astype(jnp.int32),
    "add 1M + broadcast row": lambda x, row: x + row,
    "multiply 1M x 1M": lambda x, row: x * x,
}


def _eager(lib, fn):
    x, row = lib.constant(X), lib.constant(ROW)
    return lambda: fn(lib, x, row)


def _jax_times(repeat):
    x, row = jnp.asarray(X), jnp.asarray(ROW)
    times = {}
    for label, fn in _JAX.items():
        jitted = jax.jit(fn)
        times[label] = time_per_call_us(lambda: jax.block_until_ready(jitted(x, row)), repeat)
    return times


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    jax_times = _jax_times(repeat) if jax is not None else {}
    results = []
    for label, fn in ROWS:
        row = {"benchmark": label, "us": {}}
        for lib_name, lib in libs:
            row["us"][lib_name] = time_per_call_us(_eager(lib, fn), repeat)
        if label in jax_times:
            row["us"]["JAX jit"] = jax_times[label]
        results.append(row)
    return results


def main(argv=None):
    print("load average %.2f %.2f %.2f, graphfn threads %d" % (os.getloadavg() + (gf._core.parallel_threads(),)))
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
