"""TFRecord read + tf.io.parse_single_example of 100 000 small tf.train.Examples, graphfn vs TF.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_io.py [--repeat 3] [--json out.json]

The file (one int64, two floats and a short string per Example, about 60 bytes a record) is
written once by each library. Rows (µs per Example, medians): reading the records
(tf.compat.v1.io.tf_record_iterator), parsing each record eagerly with parse_single_example,
parsing them in batches of 1 000 with parse_example inside a function, and the same through
tf.data: TFRecordDataset alone, .map(parse_single_example) (the pipeline parses, Python iterates
the parsed dicts), and .batch(1000).map(parse_example).
"""

import os
import statistics
import sys
import tempfile
import time

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax

tf = optional("tensorflow")

N = 100_000
BATCH = 1000


def _median_s(fn, repeat):
    """Median seconds of one call (one warm-up call first): each call handles all N Examples, so
    the harness's autorange would take minutes."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _examples(lib):
    out = []
    for i in range(N):
        feature = {"label": lib.train.Feature(int64_list=lib.train.Int64List(value=[i % 10])),
                   "xy": lib.train.Feature(float_list=lib.train.FloatList(value=[i * 0.5, -i * 0.25])),
                   "name": lib.train.Feature(bytes_list=lib.train.BytesList(value=[b"item%d" % i]))}
        out.append(lib.train.Example(features=lib.train.Features(feature=feature)).SerializeToString())
    return out


def _features(lib):
    return {"label": lib.io.FixedLenFeature([], lib.int64), "xy": lib.io.FixedLenFeature([2], lib.float32),
            "name": lib.io.FixedLenFeature([], lib.string)}


def _file(lib, folder):
    path = os.path.join(folder, lib.__name__ + ".tfrecord")
    with lib.io.TFRecordWriter(path) as w:
        for s in _examples(lib):
            w.write(s)
    return path


def run(repeat):
    folder = tempfile.mkdtemp()
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    rows = {"read records (tf_record_iterator)": {}, "read + parse_single_example, eager": {},
            "read + parse_example x1000 in a function": {}, "TFRecordDataset": {},
            "TFRecordDataset.map(parse_single_example)": {}, "TFRecordDataset.batch(1000).map(parse_example)": {}}
    for name, lib in libs:
        path = _file(lib, folder)
        features = _features(lib)

        def read_all(lib=lib, path=path):
            return sum(1 for _ in lib.compat.v1.io.tf_record_iterator(path))

        def parse_each(lib=lib, path=path, features=features):
            for record in lib.compat.v1.io.tf_record_iterator(path):
                lib.io.parse_single_example(record, features)

        parse_batch = lib.function(lambda s, lib=lib, features=features: lib.io.parse_example(s, features))

        def parse_batches(lib=lib, path=path):
            records = list(lib.compat.v1.io.tf_record_iterator(path))
            for i in range(0, N, BATCH):
                parse_batch(lib.constant(records[i:i + BATCH]))

        per_example = lambda fn: _median_s(fn, repeat) * 1e6 / N  # noqa: E731
        rows["read records (tf_record_iterator)"][name] = per_example(read_all)
        rows["read + parse_single_example, eager"][name] = per_example(parse_each)
        rows["read + parse_example x1000 in a function"][name] = per_example(parse_batches)
        records = lib.data.TFRecordDataset(path)
        parsed_each = records.map(lambda r, lib=lib, f=features: lib.io.parse_single_example(r, f))
        parsed_batches = records.batch(BATCH).map(lambda r, lib=lib, f=features: lib.io.parse_example(r, f))
        rows["TFRecordDataset"][name] = per_example(lambda records=records: sum(1 for _ in records))
        rows["TFRecordDataset.map(parse_single_example)"][name] = per_example(
            lambda d=parsed_each: sum(1 for _ in d))
        rows["TFRecordDataset.batch(1000).map(parse_example)"][name] = per_example(
            lambda d=parsed_batches: sum(1 for _ in d))
    return [{"benchmark": k, "us": v} for k, v in rows.items() if v]


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 3, argv)


if __name__ == "__main__":
    sys.exit(main())
