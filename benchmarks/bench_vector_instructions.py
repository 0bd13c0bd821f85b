"""Element-wise, reduction, cast and layout kernels over 1M float32, graphfn beside TF 2.21, timed
in wall and CPU time (CPU time = this process's user + sys: it counts TF's worker threads too).

Used to choose the vector instructions a portable build compiles in (docs/building.md, "Vector
instructions"): run it once per build variant, each with its own _core, e.g.

    PYTHONPATH=/tmp/avxpy ~/tf/bin/python benchmarks/bench_vector_instructions.py --label avx

and compare the rows; TF runs in the same process so that every variant has its own ratio.
"""

import argparse
import json
import os
import statistics
import time

import numpy as np


def cases(lib):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1_000_000).astype(np.float32)
    m = rng.standard_normal((1000, 1000)).astype(np.float32)
    row = rng.standard_normal(1000).astype(np.float32)
    col = rng.standard_normal((1000, 1)).astype(np.float32)
    x, m, row, col = (lib.constant(a) for a in (x, m, row, col))
    return {
        "tanh 1M": lambda: lib.math.tanh(x),
        "exp 1M": lambda: lib.math.exp(x),
        "sigmoid 1M": lambda: lib.math.sigmoid(x),
        "softmax 1000x1000": lambda: lib.nn.softmax(m),
        "relu 1M": lambda: lib.nn.relu(x),
        "reduce_sum rows 1000x1000": lambda: lib.reduce_sum(m, axis=1),
        "reduce_sum cols 1000x1000": lambda: lib.reduce_sum(m, axis=0),
        "add broadcast [1000,1]+[1000]": lambda: col + row,
        "bias_add 1000x1000": lambda: lib.nn.bias_add(m, row),
        "cast f32->f64 1M": lambda: lib.cast(x, lib.float64),
        "cast f32->i32 1M": lambda: lib.cast(x, lib.int32),
        "transpose 1000x1000": lambda: lib.transpose(m),
    }


def time_one(fn, min_seconds=0.3, repeat=5):
    """Median wall and CPU microseconds per call over `repeat` runs of at least min_seconds."""
    for _ in range(3):
        fn()
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        if time.perf_counter() - t0 >= min_seconds / 4:
            break
        number *= 2
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(number):
            fn()
        cpus.append((time.process_time() - c0) / number * 1e6)
        walls.append((time.perf_counter() - w0) / number * 1e6)
    return statistics.median(walls), statistics.median(cpus)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--label", default="graphfn", help="the build variant's name, for the output")
    parser.add_argument("--json", help="append one JSON line of results to this file")
    parser.add_argument("--no-tf", action="store_true")
    args = parser.parse_args()
    import graphfn as gf
    libs = {args.label: gf}
    if not args.no_tf:
        import tensorflow as tf
        libs["tf"] = tf
    load = os.getloadavg()[0]
    results = {}
    for name, lib in libs.items():
        for case, fn in cases(lib).items():
            results.setdefault(case, {})[name] = time_one(fn)
    print("load %.1f  (us per call: wall / cpu)" % load)
    for case, row in results.items():
        cells = "  ".join("%s %8.0f / %8.0f" % (n, w, c) for n, (w, c) in row.items())
        print("%-30s %s" % (case, cells))
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps({"label": args.label, "load": load, "results": results}) + "\n")


if __name__ == "__main__":
    main()
