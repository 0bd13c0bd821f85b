"""File datasets on files written by TF 2.21 (data_fixtures/, tools/record_io_fixtures.py) and on
larger files the tests write: TFRecordDataset + parse_example as TF reads them, reading in
chunks smaller than a line or record, interleaving files with num_parallel_reads, and
make_csv_dataset's shuffling and epochs. Expected values recorded from TF 2.21."""

import gzip
import os

import pytest

import graphfn as tf

FIXTURES = os.path.join(os.path.dirname(__file__), "data_fixtures")
FILES = {"": "examples.tfrecord", "GZIP": "examples_gzip.tfrecord", "ZLIB": "examples_zlib.tfrecord"}
FEATURES = {"label": tf.io.FixedLenFeature([], tf.int64), "name": tf.io.FixedLenFeature([], tf.string)}
# TF 2.21 on the fixtures (all three compressions):
LABELS = [1, 0, -7, 4611686018427387904, 3]
NAMES = [b"cat", b"dog", b"\xe9\xff\x00x", b"", b"empty lists"]


@pytest.mark.parametrize("compression", sorted(FILES))
def test_tf_written_records_parse_one_at_a_time(compression):
    ds = tf.data.TFRecordDataset(os.path.join(FIXTURES, FILES[compression]), compression_type=compression)
    parsed = ds.map(lambda r: tf.io.parse_single_example(r, FEATURES))
    assert [(int(x["label"]), x["name"].numpy()) for x in parsed] == list(zip(LABELS, NAMES))


@pytest.mark.parametrize("compression", sorted(FILES))
def test_tf_written_records_parse_in_batches(compression):
    ds = tf.data.TFRecordDataset(os.path.join(FIXTURES, FILES[compression]), compression_type=compression)
    batch = next(iter(ds.batch(5).map(lambda r: tf.io.parse_example(r, FEATURES))))
    assert batch["label"].numpy().tolist() == LABELS and batch["name"].numpy().tolist() == NAMES


def test_first_records_are_tfs_bytes():
    ds = tf.data.TFRecordDataset(os.path.join(FIXTURES, FILES[""]))
    assert [r.hex()[:20] for r in ds.as_numpy_iterator()][:2] == ["0a390a0e0a056c616265", "0a560a0e0a056c616265"]


def write_lines(path, n, compress=False):
    text = "".join("line %d %s\n" % (i, "x" * (i % 17)) for i in range(n)).encode()
    with (gzip.open(path, "wb") if compress else open(path, "wb")) as f:
        f.write(text)


@pytest.mark.parametrize("compression", ["", "GZIP"])
def test_long_files_read_in_small_chunks(tmp_path, compression):
    path = str(tmp_path / "long.txt")
    write_lines(path, 3000, compression == "GZIP")
    lines = [s.decode() for s in tf.data.TextLineDataset(path, compression_type=compression, buffer_size=7)
             .as_numpy_iterator()]
    assert lines == ["line %d %s" % (i, "x" * (i % 17)) for i in range(3000)]


def test_many_records_round_trip(tmp_path):
    path = str(tmp_path / "many.tfrecord")
    with tf.io.TFRecordWriter(path, "ZLIB") as w:
        for i in range(2000):
            w.write(b"r" * (i % 50) + str(i).encode())
    got = list(tf.data.TFRecordDataset(path, compression_type="ZLIB", buffer_size=5).as_numpy_iterator())
    assert got == [b"r" * (i % 50) + str(i).encode() for i in range(2000)]


def test_num_parallel_reads_interleaves_one_element_per_file(tmp_path):
    paths = []
    for k, n in enumerate([3, 1, 4]):
        p = tmp_path / ("f%d.txt" % k)
        p.write_text("".join("%d-%d\n" % (k, i) for i in range(n)))
        paths.append(str(p))
    def read(n):
        return [s.decode() for s in tf.data.TextLineDataset(paths, num_parallel_reads=n).as_numpy_iterator()]

    # TF 2.21's interleave (block 1): a finished file's slot takes the next file when the cycle
    # comes back to it.
    assert read(2) == ["0-0", "1-0", "0-1", "0-2", "2-0", "2-1", "2-2", "2-3"]
    assert read(3) == ["0-0", "1-0", "2-0", "0-1", "2-1", "0-2", "2-2", "2-3"]


def test_make_csv_dataset_shuffles_with_a_seed_and_repeats_epochs(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("a,b\n" + "".join("%d,%d\n" % (i, i * i) for i in range(20)))

    def run():
        ds = tf.data.experimental.make_csv_dataset(str(path), batch_size=6, shuffle=True, shuffle_seed=5,
                                                   num_epochs=2, label_name="b")
        a, shapes = [], []
        for features, label in ds:
            a += features["a"].numpy().tolist()
            shapes.append(features["a"].shape.as_list())
            assert label.numpy().tolist() == [v * v for v in features["a"].numpy().tolist()]
        return a, shapes

    first, shapes = run()
    assert sorted(first) == sorted(list(range(20)) * 2)  # TF 2.21: True
    assert shapes == [[6], [6], [6], [6], [6], [6], [4]]  # TF 2.21
    assert run()[0] == first  # the same seed, the same order
    assert first != sorted(first)


def test_make_csv_dataset_repeats_forever_with_full_batches(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("a,b\n" + "".join("%d,%d\n" % (i, i * i) for i in range(20)))
    ds = tf.data.experimental.make_csv_dataset(str(path), batch_size=6, shuffle=False)
    assert repr(ds.element_spec["b"]) == "TensorSpec(shape=(6,), dtype=tf.int32, name=None)"  # TF 2.21
    assert [f["a"].shape.as_list() for f in ds.take(5)] == [[6]] * 5
    assert [int(v) for v in next(iter(ds.skip(3)))["a"]] == [18, 19, 0, 1, 2, 3]


def test_random_bytes_give_elements_or_tf_errors_never_a_crash(tmp_path):
    import numpy as np

    rng = np.random.default_rng(7)
    good = tmp_path / "good.tfrecord"
    with tf.io.TFRecordWriter(str(good)) as w:
        for i in range(20):
            w.write(b"payload %d" % i)
    base = good.read_bytes()
    for trial in range(60):
        data = bytearray(base) if trial % 2 else bytearray(rng.integers(0, 256, 200, dtype=np.uint8).tobytes())
        for _ in range(3):
            data[int(rng.integers(0, len(data)))] = int(rng.integers(0, 256))
        path = tmp_path / ("f%d" % trial)
        path.write_bytes(bytes(data))
        readers = [tf.data.TFRecordDataset(str(path)), tf.data.TextLineDataset(str(path)),
                   tf.data.TFRecordDataset(str(path), compression_type="GZIP"),
                   tf.data.experimental.CsvDataset(str(path), [[0], [""], [0.0]])]
        for ds in readers:
            try:
                for _ in ds:
                    pass
            except tf.errors.OpError:
                pass
