"""TFRecord files of tf.train.Example written by real TensorFlow 2.21 (data_fixtures/, made by
tools/record_io_fixtures.py, which also checked that TF reads graphfn's files back) are read by
graphfn, parse to TF's recorded values, and graphfn writes the same files byte for byte."""

import json
import os

import pytest

import graphfn as tf

HERE = os.path.join(os.path.dirname(__file__), "data_fixtures")
with open(os.path.join(HERE, "examples.json")) as f:
    RECORDED = json.load(f)
FILES = RECORDED["files"]  # compression -> file name

FEATURES = {
    "label": tf.io.FixedLenFeature([], tf.int64),
    "weight": tf.io.FixedLenFeature([2], tf.float32),
    "name": tf.io.FixedLenFeature([], tf.string),
    "seq": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True, default_value=-1.0),
    "tags": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True),
}


def make_example(spec):
    feature = {}
    for key, (kind, values) in spec.items():
        if kind == "int64":
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=values))
        elif kind == "float":
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=values))
        else:
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[v.encode("latin-1") for v in values]))
    return tf.train.Example(features=tf.train.Features(feature=feature))


def as_recorded(t):
    value = t.numpy()
    if t.dtype == tf.string:
        flat = [value] if t.shape.rank == 0 else value.reshape(-1).tolist()
        return {"dtype": "string", "shape": t.shape.as_list(), "values": [v.decode("latin-1") for v in flat]}
    return {"dtype": t.dtype.name, "shape": t.shape.as_list(), "values": value.reshape(-1).tolist()}


@pytest.mark.parametrize("compression", sorted(FILES))
def test_tf_files_read_back(compression):
    path = os.path.join(HERE, FILES[compression])
    got = list(tf.compat.v1.io.tf_record_iterator(path, options=compression))
    assert [r.hex() for r in got] == RECORDED["serialized_hex"]


def test_examples_serialize_and_print_as_tf():
    for spec, hex_bytes, text in zip(RECORDED["examples"], RECORDED["serialized_hex"], RECORDED["text"]):
        e = make_example(spec)
        assert e.SerializeToString(deterministic=True).hex() == hex_bytes
        assert str(tf.train.Example.FromString(bytes.fromhex(hex_bytes))) == text


@pytest.mark.parametrize("compression", sorted(FILES))
def test_graphfn_writes_tfs_bytes(tmp_path, compression):
    path = str(tmp_path / "out.tfrecord")
    with tf.io.TFRecordWriter(path, options=compression) as w:
        for spec in RECORDED["examples"]:
            w.write(make_example(spec).SerializeToString(deterministic=True))
    with open(path, "rb") as mine, open(os.path.join(HERE, FILES[compression]), "rb") as tfs:
        assert mine.read() == tfs.read()


def test_parse_single_example_matches_tf():
    single = {k: FEATURES[k] for k in ("label", "weight", "name")}
    for hex_bytes, expected in zip(RECORDED["serialized_hex"], RECORDED["parse_single_example"]):
        got = tf.io.parse_single_example(bytes.fromhex(hex_bytes), single)
        assert {k: as_recorded(v) for k, v in got.items()} == expected


def test_parse_example_matches_tf_eagerly_and_in_a_function():
    serialized = [bytes.fromhex(h) for h in RECORDED["serialized_hex"]]
    got = tf.io.parse_example(serialized, FEATURES)
    assert {k: as_recorded(v) for k, v in got.items()} == RECORDED["parse_example"]
    traced = tf.function(lambda s: tf.io.parse_example(s, FEATURES))(tf.constant(serialized))
    assert {k: as_recorded(v) for k, v in traced.items()} == RECORDED["parse_example"]
