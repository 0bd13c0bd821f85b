"""tf.data input pipelines: graphfn.data vs TF 2.21's tf.data in the same process.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_data.py [--repeat 3]

Rows (issue 17's first and fourth): from_tensor_slices(60000 x 784 float32).map(normalize).shuffle(10000)
.batch(64).prefetch(AUTOTUNE), one full epoch consumed in Python; cells are elements (rows) per
second, best of --repeat epochs, and graphfn / TF as a ratio (> 1: graphfn faster). Second row:
a function summing range(1 000 000) with `for x in ds` (a graph loop), in µs per element, and
TF / graphfn as a ratio (> 1: graphfn faster). The machine is shared: the load average is
printed beside the numbers."""

import argparse
import os
import time

import numpy as np

import graphfn as gf

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
try:
    import tensorflow as tf
except ImportError:
    tf = None

ROWS, FEATURES = 60000, 784


def pipeline(lib, images):
    def normalize(x):
        return (x - 127.5) / 127.5

    return (lib.data.Dataset.from_tensor_slices(images).map(normalize).shuffle(10000, seed=1).batch(64)
            .prefetch(lib.data.AUTOTUNE))


def elements_per_second(lib, images, repeat):
    ds = pipeline(lib, images)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        n = 0
        for batch in ds:
            n += batch.shape[0]
        best = min(best, time.perf_counter() - start)
        assert n == ROWS
    return ROWS / best


def loop_us_per_element(lib, repeat, n=1000000):
    ds = lib.data.Dataset.range(n)

    @lib.function
    def total(ds):
        s = lib.constant(0, lib.int64)
        for x in ds:
            s += x
        return s

    assert int(total(ds)) == n * (n - 1) // 2  # traced (and warmed up) outside the timing
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        total(ds)
        best = min(best, time.perf_counter() - start)
    return best / n * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    images = np.random.default_rng(0).uniform(0, 255, (ROWS, FEATURES)).astype(np.float32)
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    ours = elements_per_second(gf, images, args.repeat)
    print("graphfn.data: %12.0f elements/s" % ours)
    if tf is not None:
        theirs = elements_per_second(tf, images, args.repeat)
        print("tf.data:      %12.0f elements/s" % theirs)
        print("ratio graphfn / TF: %.2f" % (ours / theirs))
    ours = loop_us_per_element(gf, args.repeat)
    print("graphfn for-loop over a dataset in a function: %.3f us/element" % ours)
    if tf is not None:
        theirs = loop_us_per_element(tf, args.repeat)
        print("tf.function for-loop over tf.data:             %.3f us/element" % theirs)
        print("ratio TF / graphfn: %.2f" % (theirs / ours))
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
