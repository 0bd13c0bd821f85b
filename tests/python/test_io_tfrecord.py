"""tf.io.TFRecordWriter / TFRecordOptions and tf.compat.v1.io.tf_record_iterator. Bytes and
messages recorded from TensorFlow 2.21 (the same writes, the same damaged files)."""

import re

import pytest

import graphfn as tf

# TF's records b"hello" and b"" (the start of TF's file for b"hello", b"", b"x" * 300).
HELLO_HEX = "0500000000000000eab2043e68656c6c6fbb1f1c19000000000000000029039807d8ea82a2"
GZIP_HEX = "1f8b080000000000000363658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500f49812152a000000"
ZLIB_HEX = "789c63658080579b58ec32527372f277cbcb48b2220996e717e5a4e8fac92f0500bbf10a51"


def records(path, options=None):
    return list(tf.compat.v1.io.tf_record_iterator(str(path), options=options))


def test_writer_bytes_are_tensorflows(tmp_path):
    path = tmp_path / "r.tfrecord"
    with tf.io.TFRecordWriter(str(path)) as w:
        w.write(b"hello")
        w.write(b"")
        w.write(b"x" * 300)
    raw = path.read_bytes()
    assert len(raw) == 353 and raw.hex().startswith(HELLO_HEX + "2c01000000000000")
    assert [len(r) for r in records(path)] == [5, 0, 300]
    w = tf.io.TFRecordWriter(str(tmp_path / "s"))
    w.write("abc")  # str is written as UTF-8
    w.close()
    assert (tmp_path / "s").read_bytes().hex() == "0300000000000000b099490e6162636e57f121"


@pytest.mark.parametrize("options,expected_hex", [("GZIP", GZIP_HEX), ("ZLIB", ZLIB_HEX),
                                                  (tf.io.TFRecordOptions("GZIP"), GZIP_HEX),
                                                  (tf.io.TFRecordOptions(compression_type="ZLIB"), ZLIB_HEX)])
def test_compressed_files_are_tensorflows(tmp_path, options, expected_hex):
    path = tmp_path / "c"
    with tf.io.TFRecordWriter(str(path), options=options) as w:
        w.write(b"hello")
        w.flush()
        w.write(b"world")
    assert path.read_bytes().hex() == expected_hex
    assert records(path, options) == [b"hello", b"world"]


def test_options():
    o = tf.io.TFRecordOptions("GZIP")
    assert vars(o) == {"compression_type": "GZIP", "flush_mode": None, "input_buffer_size": None,
                       "output_buffer_size": None, "window_bits": None, "compression_level": None,
                       "compression_method": None, "mem_level": None, "compression_strategy": None}
    assert tf.io.TFRecordOptions.get_compression_type_string("GZIP") == "GZIP"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert tf.io.TFRecordOptions.get_compression_type_string(o) == "GZIP"
    assert tf.io.TFRecordOptions(tf.compat.v1.io.TFRecordCompressionType.ZLIB).compression_type == "ZLIB"
    with pytest.raises(ValueError, match='^Not a valid compression_type: "LZ4"$'):
        tf.io.TFRecordOptions("LZ4")
    with pytest.raises(ValueError, match='^Not a valid compression_type: "LZ4"$'):
        tf.io.TFRecordWriter("/tmp/graphfn_never_written", options="LZ4")


def test_writer_errors(tmp_path):
    w = tf.io.TFRecordWriter(str(tmp_path / "closed"))
    w.close()
    with pytest.raises(tf.errors.FailedPreconditionError, match="^Writer is closed.$"):
        w.write(b"a")
    with pytest.raises(tf.errors.FailedPreconditionError, match="^Writer is closed.$"):
        w.flush()
    w.close()  # twice is fine
    with pytest.raises(tf.errors.FailedPreconditionError, match="^%s; Is a directory$" % re.escape(str(tmp_path))):
        tf.io.TFRecordWriter(str(tmp_path))
    with pytest.raises(TypeError):
        tf.io.TFRecordWriter(str(tmp_path / "t")).write(3)


def _damaged(tmp_path):
    raw = bytes.fromhex(HELLO_HEX)
    cut = lambda n: raw[:n]  # noqa: E731
    return [  # (name, bytes, records read before the error, TF's error class, TF's message)
        ("cut_header", cut(5), 0, None, None),
        ("cut_data", cut(20), 0, tf.errors.DataLossError,
         "truncated record at 0' failed with Read less bytes than requested"),
        ("cut_crc", cut(19), 0, tf.errors.DataLossError,
         "truncated record at 0' failed with Read less bytes than requested"),
        ("header_only", cut(12), 0, tf.errors.DataLossError,
         "truncated record at 0' failed with Read less bytes than requested"),
        ("cut_second_header", cut(24), 1, None, None),
        ("bad_length_crc", raw[:8] + b"\0\0\0\0" + raw[12:], 0, tf.errors.DataLossError,
         "corrupted record at 0 (Is this even a TFRecord file?)"),
        ("bad_data_crc", raw[:12] + b"J" + raw[13:], 0, tf.errors.DataLossError, "corrupted record at 12"),
        ("bad_second_length_crc", raw[:21] + b"\1" + raw[22:], 1, tf.errors.DataLossError, "corrupted record at 21"),
        ("huge_length", b"\xff" * 8 + raw[8:], 0, tf.errors.DataLossError,
         "corrupted record at 0 (Is this even a TFRecord file?)"),
        ("empty", b"", 0, None, None),
    ]


@pytest.mark.parametrize("case", range(10))
def test_damaged_files_raise_data_loss(tmp_path, case):
    name, data, good, error, message = _damaged(tmp_path)[case]
    path = tmp_path / name
    path.write_bytes(data)
    it = tf.compat.v1.io.tf_record_iterator(str(path))
    read = []
    if error is None:
        read = list(it)
    else:
        with pytest.raises(error) as info:
            for r in it:
                read.append(r)
        assert str(info.value) == message
    assert len(read) == good


def test_damaged_compressed_files(tmp_path):
    z = bytes.fromhex(ZLIB_HEX)
    (tmp_path / "z").write_bytes(z[:-6])
    with pytest.raises(tf.errors.DataLossError) as info:
        records(tmp_path / "z", "ZLIB")
    assert str(info.value) == "truncated record at 21' failed with EOF reached"
    (tmp_path / "g").write_bytes(bytes.fromhex(GZIP_HEX)[:-6])  # the gzip trailer is not needed, as TF
    assert records(tmp_path / "g", "GZIP") == [b"hello", b"world"]
    (tmp_path / "p").write_bytes(bytes.fromhex(HELLO_HEX))
    for kind in ("GZIP", "ZLIB"):
        with pytest.raises(tf.errors.DataLossError) as info:
            records(tmp_path / "p", kind)
        assert str(info.value) == "inflate() failed with error -3: incorrect header check"
    (tmp_path / "garbage").write_bytes(b"\x78\x9c" + b"\xff" * 10)
    with pytest.raises(tf.errors.DataLossError, match="^inflate\\(\\) failed with error -3: invalid block type$"):
        records(tmp_path / "garbage", "ZLIB")


def test_missing_file(tmp_path):
    with pytest.raises(tf.errors.NotFoundError) as info:
        records(tmp_path / "nope")
    assert str(info.value) == "%s; No such file or directory" % (tmp_path / "nope")
