"""tf.data.experimental.cardinality, shuffle_and_repeat and TFRecordWriter; expected values
recorded from TF 2.21."""

import pytest

import graphfn as tf


def test_cardinality():
    assert tf.data.experimental.cardinality(tf.data.Dataset.range(5)).numpy() == 5
    assert tf.data.experimental.cardinality(tf.data.Dataset.range(5).repeat()).numpy() == -1
    assert tf.data.experimental.cardinality(tf.data.Dataset.range(5).filter(lambda x: True)).numpy() == -2
    c = tf.data.experimental.cardinality(tf.data.Dataset.range(5))
    assert c.dtype == tf.int64 and c.shape == ()


def test_shuffle_and_repeat():
    ds = tf.data.Dataset.range(4).apply(tf.data.experimental.shuffle_and_repeat(3, count=2, seed=5))
    assert repr(ds) == "<_ShuffleAndRepeatDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert sorted(int(x) for x in ds) == [0, 0, 1, 1, 2, 2, 3, 3]
    # Each epoch is a permutation of the input.
    values = [int(x) for x in ds]
    assert sorted(values[:4]) == [0, 1, 2, 3] and sorted(values[4:]) == [0, 1, 2, 3]
    forever = tf.data.Dataset.range(4).apply(tf.data.experimental.shuffle_and_repeat(3))
    assert forever.cardinality().numpy() == -1


def test_tfrecord_writer(tmp_path):
    path = str(tmp_path / "a.tfrecord")
    writer = tf.data.experimental.TFRecordWriter(path)
    assert writer.write(tf.data.Dataset.from_tensor_slices([b"x", b"yy"])) is None
    assert [r.numpy() for r in tf.data.TFRecordDataset(path)] == [b"x", b"yy"]
    gz = str(tmp_path / "g")
    tf.data.experimental.TFRecordWriter(gz, compression_type="GZIP").write(tf.data.Dataset.from_tensors(b"abc"))
    assert [r.numpy() for r in tf.data.TFRecordDataset(gz, "GZIP")] == [b"abc"]


@pytest.mark.parametrize("make, message", [
    (lambda: tf.data.Dataset.range(3),
     "Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but got a dataset which "
     "produces elements with shapes () and types <dtype: 'int64'>."),
    (lambda: tf.data.Dataset.from_tensors([b"a", b"b"]),
     "Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but got a dataset which "
     "produces elements with shapes (2,) and types <dtype: 'string'>."),
])
def test_tfrecord_writer_wants_scalar_strings(tmp_path, make, message):
    with pytest.raises(TypeError) as e:
        tf.data.experimental.TFRecordWriter(str(tmp_path / "x")).write(make())
    assert str(e.value) == message
