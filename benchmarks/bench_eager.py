"""Eager per-call cost: graphfn vs NumPy vs TensorFlow (when importable), as a Markdown table.

    PYTHONPATH=python /work/tfenv/bin/python benchmarks/bench_eager.py [--repeat 15] [--json out.json]

Each cell is the median over `repeat` timeit runs of the time per call, in microseconds; a ratio
is that library's time divided by graphfn's (above 1: graphfn is faster). A row whose graphfn op
does not exist yet (AttributeError) is skipped.
"""

import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main as harness_main
from _harness import time_per_call_us

tf = optional("tensorflow")


def _inputs(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-10, 10, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# Each benchmark: (name, make) where make(lib, to_tensor) returns the zero-argument call to time.
# `lib` is graphfn, numpy or tensorflow; `to_tensor` turns a NumPy array into that lib's input.
def _add(lib, to_tensor):
    x, y = to_tensor(np.float32(1.5)), to_tensor(np.float32(2.5))
    return lambda: x + y


def _matmul(n, dtype):
    def make(lib, to_tensor):
        fn = np.matmul if lib is np else lib.matmul
        a, b = to_tensor(_inputs((n, n), dtype, 1)), to_tensor(_inputs((n, n), dtype, 2))
        return lambda: fn(a, b)
    return make


def _tanh(lib, to_tensor):
    x = to_tensor(_inputs((1_000_000,), np.float32, 3))
    return lambda: lib.tanh(x)


BENCHMARKS = [
    ("add, float32 scalars", _add),
    ("matmul, 10x10 int32", _matmul(10, np.int32)),
    ("matmul, 1000x1000 float32", _matmul(1000, np.float32)),
    ("tanh, 1M float32", _tanh),
]


def _libraries():
    libs = [("graphfn", gf, gf.constant), ("NumPy", np, np.asarray)]
    if tf is not None:
        libs.append(("TensorFlow", tf, tf.constant))
    return libs


def run(repeat):
    results = []
    for name, make in BENCHMARKS:
        row = {"benchmark": name, "us": {}}
        try:
            calls = {lib_name: make(lib, to_tensor) for lib_name, lib, to_tensor in _libraries()}
        except AttributeError as e:  # an op graphfn (or this TF) does not have yet
            print("skipping %r: %s" % (name, e), file=sys.stderr)
            continue
        for lib_name, fn in calls.items():
            row["us"][lib_name] = time_per_call_us(fn, repeat)
        results.append(row)
    return results


def main(argv=None):
    return harness_main(__doc__, run, {"tensorflow": tf.__version__ if tf is not None else None},
                        [name for name, _, _ in _libraries()][1:], 15, argv)


if __name__ == "__main__":
    main()
