"""tf.data input pipelines: graphfn.data vs TF 2.21's tf.data in the same process.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_data.py [--repeat 3]

Row (issue 17's first): from_tensor_slices(60000 x 784 float32).map(normalize).shuffle(10000)
.batch(64).prefetch(AUTOTUNE), one full epoch consumed in Python; cells are elements (rows) per
second, best of --repeat epochs, and graphfn / TF as a ratio (> 1: graphfn faster). The machine
is shared: the load average is printed beside the numbers."""

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
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
