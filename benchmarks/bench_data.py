"""tf.data input pipelines: graphfn.data vs TF 2.21's tf.data in the same process (issue 17's rows).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_data.py [--repeat 3] [--rows pipeline,map,tfrecord,loop]

Rows, each the best of --repeat passes after one warm-up pass (which also traces):
- pipeline: from_tensor_slices(60000 x 784 float32).map(normalize).shuffle(10000).batch(64)
  .prefetch(AUTOTUNE), one epoch consumed in Python; elements (rows) per second.
- map: from_tensor_slices(200000 x 16 float32).map(a 10-op function, num_parallel_calls=AUTOTUNE)
  .batch(1000); elements per second through the map.
- tfrecord: 100 000 small tf.train.Examples (bench_io.py's: an int64, two floats, a short string)
  read from a TFRecord file and parsed with parse_single_example in map, .batch(1000); Examples
  per second. graphfn reads with TFRecordDataset when it has it, else (said in the row) with
  tf_record_iterator into from_tensor_slices, the read counted in the time.
- loop: a function summing range(1 000 000) with `for x in ds` (a graph loop); µs per element.
Ratios are graphfn / TF for rates and TF / graphfn for times: > 1 means graphfn is faster. The
machine is shared: the load average is printed before and after."""

import argparse
import os
import tempfile
import time

import numpy as np

import graphfn as gf

from _harness import optional

tf = optional("tensorflow")

ROWS, FEATURES = 60000, 784
MAP_ROWS, MAP_FEATURES = 200000, 16
EXAMPLES = 100000
LOOP_ELEMENTS = 1000000


def best_seconds(fn, repeat):
    fn()  # warm-up: traces, fills caches
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def consume(ds):
    n = 0
    for batch in ds:
        n += int(batch.shape[0]) if not isinstance(batch, dict) else int(next(iter(batch.values())).shape[0])
    return n


# pipeline ---------------------------------------------------------------------------------------

def pipeline_rate(lib, images, repeat):
    def normalize(x):
        return (x - 127.5) / 127.5

    ds = (lib.data.Dataset.from_tensor_slices(images).map(normalize).shuffle(10000, seed=1).batch(64)
          .prefetch(lib.data.AUTOTUNE))

    def epoch():
        assert consume(ds) == ROWS

    return ROWS / best_seconds(epoch, repeat), ""


# map with a 10-op function ------------------------------------------------------------------------

def ten_ops(lib):
    def fn(x):
        y = x * 2.0
        y = y + 1.0
        y = lib.tanh(y)
        y = lib.abs(y)
        y = lib.sqrt(y + 1e-3)
        y = y - lib.reduce_mean(y)
        y = lib.square(y)
        return lib.reduce_sum(y)  # 10 ops: mul, add, tanh, abs, add, sqrt, mean, sub, square, sum

    return fn


def map_rate(lib, rows, repeat):
    ds = lib.data.Dataset.from_tensor_slices(rows).map(ten_ops(lib), num_parallel_calls=lib.data.AUTOTUNE).batch(1000)

    def epoch():
        assert consume(ds) == MAP_ROWS

    return MAP_ROWS / best_seconds(epoch, repeat), ""


# TFRecord read + parse_single_example --------------------------------------------------------------

def write_examples(lib, path):
    with lib.io.TFRecordWriter(path) as writer:
        for i in range(EXAMPLES):
            feature = {"label": lib.train.Feature(int64_list=lib.train.Int64List(value=[i % 10])),
                       "xy": lib.train.Feature(float_list=lib.train.FloatList(value=[i * 0.5, -i * 0.25])),
                       "name": lib.train.Feature(bytes_list=lib.train.BytesList(value=[b"item%d" % i]))}
            writer.write(lib.train.Example(features=lib.train.Features(feature=feature)).SerializeToString())


def tfrecord_rate(lib, path, repeat):
    features = {"label": lib.io.FixedLenFeature([], lib.int64), "xy": lib.io.FixedLenFeature([2], lib.float32),
                "name": lib.io.FixedLenFeature([], lib.string)}

    def parse(record):
        return lib.io.parse_single_example(record, features)

    if hasattr(lib.data, "TFRecordDataset"):
        ds = lib.data.TFRecordDataset(path).map(parse).batch(1000)
        make, note = (lambda: ds), ""
    else:  # graphfn before its TFRecordDataset: the read goes through tf_record_iterator, timed too
        def make():
            records = list(lib.compat.v1.io.tf_record_iterator(path))
            return lib.data.Dataset.from_tensor_slices(records).map(parse).batch(1000)
        note = " (tf_record_iterator + from_tensor_slices)"

    def epoch():
        assert consume(make()) == EXAMPLES

    return EXAMPLES / best_seconds(epoch, repeat), note


# for x in ds inside a function -------------------------------------------------------------------

def loop_us(lib, repeat):
    ds = lib.data.Dataset.range(LOOP_ELEMENTS)

    @lib.function
    def total(ds):
        s = lib.constant(0, lib.int64)
        for x in ds:
            s += x
        return s

    def run():
        assert int(total(ds)) == LOOP_ELEMENTS * (LOOP_ELEMENTS - 1) // 2

    return best_seconds(run, repeat) / LOOP_ELEMENTS * 1e6, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", default="pipeline,map,tfrecord,loop")
    args = parser.parse_args()
    wanted = args.rows.split(",")
    rng = np.random.default_rng(0)
    folder = tempfile.mkdtemp()
    libs = [("graphfn", gf)] + ([("TF", tf)] if tf is not None else [])
    rows = []
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    if "pipeline" in wanted:
        images = rng.uniform(0, 255, (ROWS, FEATURES)).astype(np.float32)
        rows.append(("pipeline 60000x784 (elements/s)", "rate", {n: pipeline_rate(lib, images, args.repeat)
                                                                  for n, lib in libs}))
    if "map" in wanted:
        data = rng.uniform(-1, 1, (MAP_ROWS, MAP_FEATURES)).astype(np.float32)
        rows.append(("map 10 ops, AUTOTUNE (elements/s)", "rate", {n: map_rate(lib, data, args.repeat)
                                                                    for n, lib in libs}))
    if "tfrecord" in wanted:
        cells = {}
        for n, lib in libs:
            path = os.path.join(folder, n + ".tfrecord")
            write_examples(lib, path)
            cells[n] = tfrecord_rate(lib, path, args.repeat)
        rows.append(("TFRecord + parse_single_example (Examples/s)", "rate", cells))
    if "loop" in wanted:
        rows.append(("for x in range(1M) in a function (us/element)", "time", {n: loop_us(lib, args.repeat)
                                                                                for n, lib in libs}))
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())
    for name, kind, cells in rows:
        ours, note = cells["graphfn"]
        line = "%-48s graphfn %12.3f%s" % (name, ours, note)
        if "TF" in cells:
            theirs = cells["TF"][0]
            ratio = ours / theirs if kind == "rate" else theirs / ours
            line += "   TF %12.3f   ratio %.2f" % (theirs, ratio)
        print(line)


if __name__ == "__main__":
    main()
