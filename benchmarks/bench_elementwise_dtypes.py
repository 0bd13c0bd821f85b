"""Element-wise ops in the dtypes beyond float32: graphfn against TensorFlow, eagerly.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_elementwise_dtypes.py [--repeat 5] [--json out.json]

Rows are 1M-element tensors (1000x1000) unless the label says otherwise, made before timing.
They cover the kernels whose instantiations issue 14 shared or compacted to shrink `_core`
(docs/building.md, "Element-wise kernels"): signed integers on the unsigned loops, float16 and
bfloat16 unary math on float's kernels, and broadcasting with short rows. Cells are medians in
µs; "TensorFlow / graphfn" above 1 means graphfn is faster.
"""

import os
import sys

import numpy as np

import graphfn as gf
from _harness import main_beside_tf_and_jax
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")

_rng = np.random.RandomState(0)
_X = _rng.randn(1000, 1000).astype(np.float32) * 10


def _values(dtype, shape=(1000, 1000)):
    x = _X.reshape(-1)[: int(np.prod(shape))].reshape(shape)
    if dtype.startswith("complex"):
        return (x + 1j * x).astype(dtype)
    if dtype.startswith("uint"):
        return np.abs(x).astype(dtype)
    if dtype == "bfloat16":
        return x
    return x.astype(dtype)


def _tensor(lib, dtype, shape=(1000, 1000)):
    t = lib.constant(_values(dtype, shape))
    return lib.cast(t, lib.bfloat16) if dtype == "bfloat16" else t


# (label, dtype, f(lib, x, y)); y is x's row [1000] for "row" labels, [4] for "short rows".
ROWS = [
    ("add int32", "int32", lambda lib, x, y: x + x),
    ("add int64", "int64", lambda lib, x, y: x + x),
    ("add int8", "int8", lambda lib, x, y: x + x),
    ("add uint32", "uint32", lambda lib, x, y: lib.add(x, x)),
    ("multiply int16", "int16", lambda lib, x, y: x * x),
    ("equal int32", "int32", lambda lib, x, y: lib.equal(x, x)),
    ("less int32", "int32", lambda lib, x, y: lib.less(x, x)),
    ("add float64", "float64", lambda lib, x, y: x + x),
    ("add float16", "float16", lambda lib, x, y: x + x),
    ("add bfloat16", "bfloat16", lambda lib, x, y: x + x),
    ("add complex64", "complex64", lambda lib, x, y: x + x),
    ("exp float16", "float16", lambda lib, x, y: lib.exp(x)),
    ("tanh bfloat16", "bfloat16", lambda lib, x, y: lib.tanh(x)),
    ("sqrt float64", "float64", lambda lib, x, y: lib.sqrt(lib.abs(x))),
    ("cast int8 -> float32", "int8", lambda lib, x, y: lib.cast(x, lib.float32)),
    ("cast float16 -> float32", "float16", lambda lib, x, y: lib.cast(x, lib.float32)),
    ("add float32 [250000,4] + [4] (short rows)", "float32", None),
    ("add float32 [1000,1000] + row", "float32", None),
]


def _case(lib, label, dtype, fn):
    if "short rows" in label:
        x, y = _tensor(lib, dtype, (250000, 4)), _tensor(lib, dtype, (4,))
        return lambda: x + y
    if "+ row" in label:
        x, y = _tensor(lib, dtype), _tensor(lib, dtype, (1000,))
        return lambda: x + y
    x = _tensor(lib, dtype)
    return lambda: fn(lib, x, None)


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for label, dtype, fn in ROWS:
        row = {"benchmark": label, "us": {}}
        for lib_name, lib in libs:
            row["us"][lib_name] = time_per_call_us(_case(lib, label, dtype, fn), repeat)
        results.append(row)
    return results


def main(argv=None):
    print("load average %.2f %.2f %.2f, graphfn threads %d" % (os.getloadavg() + (gf._core.parallel_threads(),)))
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
