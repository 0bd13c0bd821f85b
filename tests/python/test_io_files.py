"""tf.io.read_file / write_file, tf.io.decode_raw, tf.io.decode_csv and tf.io.gfile. Expected
values and messages were recorded from TensorFlow 2.21 on the same inputs."""

import os
import re

import numpy as np
import pytest

import graphfn as tf


def raises(cls, message):
    return pytest.raises(cls, match=re.escape(message))


# ---- read_file / write_file

def test_write_then_read(tmp_path):
    path = str(tmp_path / "sub" / "dir" / "w")  # WriteFile creates missing folders, as TF
    assert tf.io.write_file(path, "abc") is None
    got = tf.io.read_file(path)
    assert got.dtype == tf.string and got.shape == () and got.numpy() == b"abc"


def test_read_file_errors(tmp_path):
    missing = str(tmp_path / "nope")
    with raises(tf.errors.NotFoundError, missing + "; No such file or directory [Op:ReadFile]"):
        tf.io.read_file(missing)
    with raises(tf.errors.FailedPreconditionError, str(tmp_path) + "; Is a directory [Op:ReadFile]"):
        tf.io.read_file(str(tmp_path))
    with raises(tf.errors.InvalidArgumentError, "Input filename tensor must be scalar, but had shape: [1]"):
        tf.io.read_file([missing])
    with raises(tf.errors.InvalidArgumentError, "Contents tensor must be scalar, but had shape: [1]"):
        tf.io.write_file(missing, ["a"])
    with raises(TypeError, "Cannot convert 3 to EagerTensor of dtype string"):
        tf.io.read_file(3)


def test_read_and_write_inside_a_function(tmp_path):
    @tf.function
    def copy(src, dst):
        tf.io.write_file(dst, tf.io.read_file(src) + "!")
        return tf.io.read_file(src)

    src, dst = str(tmp_path / "a"), str(tmp_path / "b")
    with open(src, "wb") as f:
        f.write(b"one")
    assert copy(src, dst).numpy() == b"one"
    with open(dst, "rb") as f:
        assert f.read() == b"one!"
    with open(src, "wb") as f:  # ReadFile is stateful: read again on every call, never folded
        f.write(b"two")
    assert copy(src, dst).numpy() == b"two"
    with pytest.raises(tf.errors.NotFoundError, match=re.escape(str(tmp_path / "zz") + "; No such file or directory")):
        copy(str(tmp_path / "zz"), dst)


# ---- decode_raw

def test_decode_raw_values():
    r = tf.io.decode_raw(b"\x01\x02\x03\x04", tf.int16)
    assert r.dtype == tf.int16 and r.numpy().tolist() == [513, 1027]
    assert tf.io.decode_raw(b"\x01\x02\x03\x04", tf.int16, little_endian=False).numpy().tolist() == [258, 772]
    assert tf.io.decode_raw([b"\x01\x02\x03\x04", b"abcd"], tf.uint8).numpy().tolist() == [[1, 2, 3, 4],
                                                                                         [97, 98, 99, 100]]
    assert tf.io.decode_raw(b"\x00\x00\x80\x3f", tf.float32).numpy().tolist() == [1.0]
    r = tf.io.decode_raw([[b"ab"], [b"cd"]], tf.int16)
    assert r.shape == (2, 1, 1) and r.numpy().tolist() == [[[25185]], [[25699]]]
    assert tf.io.decode_raw(b"", tf.float64).shape == (0,)
    assert tf.io.decode_raw([b"", b""], tf.float64).shape == (2, 0)
    assert tf.io.decode_raw(b"abc", tf.bool).numpy().tolist() == [True, True, True]
    assert tf.io.decode_raw(b"\x01" + b"\x00" * 7, tf.int64).numpy().tolist() == [1]
    assert tf.io.decode_raw(b"\x01" + b"\x00" * 7, tf.float64, little_endian=False).numpy()[0] == pytest.approx(
        7.29112202e-304)
    assert tf.io.decode_raw(b"\x01\x02", tf.int8).numpy().tolist() == [1, 2]


def test_decode_raw_fixed_length():
    r = tf.io.decode_raw([b"ab", b"cdef"], tf.uint8, fixed_length=4)
    assert r.numpy().tolist() == [[97, 98, 0, 0], [99, 100, 101, 102]]
    assert tf.io.decode_raw(b"\x01\x02\x03\x04", tf.int16, fixed_length=4).numpy().tolist() == [513, 1027]
    with raises(tf.errors.InvalidArgumentError, "fixed_length (3) must be a multiple of the size of out_type (2)"):
        tf.io.decode_raw([b"ab", b"cdef"], tf.int16, fixed_length=3)
    with raises(tf.errors.InvalidArgumentError, "fixed_length (-1) must be a multiple of the size of out_type (2)"):
        tf.io.decode_raw(b"\x01\x02\x03\x04", tf.int16, fixed_length=-1)


def test_decode_raw_errors():
    with raises(tf.errors.InvalidArgumentError, "DecodeRaw requires input strings to all be the same size, but "
                                                "element 1 has size 4 != 2 [Op:DecodeRaw]"):
        tf.io.decode_raw([b"\x01\x02\x03\x04", b"ab"], tf.uint8)
    with raises(tf.errors.InvalidArgumentError, "Input to DecodeRaw has length 3 that is not a multiple of 2, the "
                                                "size of int16 [Op:DecodeRaw]"):
        tf.io.decode_raw(b"\x01\x02\x03", tf.int16)
    with raises(tf.errors.InvalidArgumentError, "Value for attr 'out_type' of string is not in the list of allowed "
                                                "values"):
        tf.io.decode_raw(b"abc", tf.string)


def test_decode_raw_shapes_in_a_function():
    f = tf.function(lambda x: tf.io.decode_raw(x, tf.int32))
    assert f.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs.shape.as_list() == [None,
                                                                                                          None]
    assert f.get_concrete_function(tf.TensorSpec([3, 2], tf.string)).structured_outputs.shape.as_list() == [3, 2,
                                                                                                           None]
    assert f(tf.constant([b"\x01\x00\x00\x00"])).numpy().tolist() == [[1]]


# ---- decode_csv

def _values(tensors):
    return [(t.dtype.name, t.numpy().tolist()) for t in tensors]


CSV_CASES = [  # (records, defaults, keyword arguments, TF's result as (dtype, values) per column)
    (["1,2.5,a", "3,,b"], [[0], [1.0], ["z"]], {},
     [("int32", [1, 3]), ("float32", [2.5, 1.0]), ("string", [b"a", b"b"])]),
    (['"a,b",2', '"c""d",3'], [[""], [1]], {}, [("string", [b"a,b", b'c"d']), ("int32", [2, 3])]),
    (["1;2"], [[0], [1]], {"field_delim": ";"}, [("int32", [1]), ("int32", [2])]),
    (["1,NA"], [[0], [7]], {"na_value": "NA"}, [("int32", [1]), ("int32", [7])]),
    (["1,2,3"], [[0], [0]], {"select_cols": [0, 2]}, [("int32", [1]), ("int32", [3])]),
    (["1e3,2"], [[0.0], [0]], {}, [("float32", [1000.0]), ("int32", [2])]),
    ([" 1,2 "], [[0], [0]], {}, [("int32", [1]), ("int32", [2])]),
    (['"1",2'], [[0], [0]], {}, [("int32", [1]), ("int32", [2])]),
    (["1,"], [[0], [""]], {}, [("int32", [1]), ("string", [b""])]),
    ([[b"1,2"], [b"3,4"]], [[0], [0]], {}, [("int32", [[1], [3]]), ("int32", [[2], [4]])]),
    ("1,2", [[0], [0]], {}, [("int32", 1), ("int32", 2)]),
]


@pytest.mark.parametrize("records,defaults,kwargs,expected", CSV_CASES)
def test_decode_csv_values(records, defaults, kwargs, expected):
    assert _values(tf.io.decode_csv(records, defaults, **kwargs)) == expected


def test_decode_csv_dtypes_from_defaults():
    out = tf.io.decode_csv(["1.5,2"], [[0.0], [tf.constant(0, tf.int64)]])
    assert _values(out) == [("float32", [1.5]), ("int64", [2])]
    out = tf.io.decode_csv(["1.5,2"], [[0.0], [tf.constant(0.0, tf.float64)]])
    assert _values(out) == [("float32", [1.5]), ("float64", [2.0])]
    nan, inf = tf.io.decode_csv(["nan,inf"], [[0.0], [0.0]])
    assert np.isnan(nan.numpy()[0]) and inf.numpy()[0] == np.inf


CSV_ERRORS = [  # (records, defaults, kwargs, TF's exception, TF's message)
    (["1,2", "3"], [[0], [1]], {}, tf.errors.InvalidArgumentError, "Expect 2 fields but have 1 in record 1 [Op:DecodeCSV]"),
    (["1,2", ",4"], [tf.constant([], tf.int32), [1]], {}, tf.errors.InvalidArgumentError,
     "Field 0 is required but missing in record 1! [Op:DecodeCSV]"),
    (["x,2"], [[0], [1]], {}, tf.errors.InvalidArgumentError, "Field 0 in record 0 is not a valid int32: x"),
    (['"a,b",2'], [[""], [1]], {"use_quote_delim": False}, tf.errors.InvalidArgumentError,
     "Expect 2 fields but have 3 in record 0"),
    (["1,2,3"], [[0], [0]], {"select_cols": [2, 0]}, ValueError, "select_cols is not strictly increasing."),
    (["1,2,3"], [[0]], {"select_cols": [0, 2]}, ValueError, "Length of select_cols and record_defaults do not match."),
    (["1,2"], [[0], [0]], {"select_cols": [-1, 0]}, ValueError, "select_cols contains negative values."),
    (["1"], [[0], [0]], {"select_cols": [0, 0]}, ValueError, "select_cols is not strictly increasing."),
    (["1,2"], [[0], [0]], {"field_delim": ";;"}, tf.errors.InvalidArgumentError, "field_delim should be only 1 char"),
    (["1,2"], [[0], [0]], {"field_delim": ""}, tf.errors.InvalidArgumentError, "field_delim should be only 1 char"),
    (["99999999999,2"], [[0], [0]], {}, tf.errors.InvalidArgumentError,
     "Field 0 in record 0 is not a valid int32: 99999999999"),
    (['"a"b,2'], [[""], [0]], {}, tf.errors.InvalidArgumentError,
     "Quote inside a string has to be escaped by another quote"),
    (['a"b,2'], [[""], [0]], {}, tf.errors.InvalidArgumentError, "Unquoted fields cannot have quotes/CRLFs inside"),
    (['"ab,2'], [[""], [0]], {}, tf.errors.InvalidArgumentError,
     "Quoted field has to end with quote followed by delim or end"),
    (["1,2"], [[0], [[0, 1]]], {}, tf.errors.InvalidArgumentError, "Each record default should be at most rank 1"),
    (["true,2"], [[True], [0]], {}, tf.errors.InvalidArgumentError,
     "Value for attr 'OUT_TYPE' of bool is not in the list of allowed values: float, double, int32, int64, string"),
    (["1,2,3"], [[0], [0]], {}, tf.errors.InvalidArgumentError, "Expect 2 fields but have 3 in record 0"),
    ([""], [[0]], {}, tf.errors.InvalidArgumentError, "Expect 1 fields but have 0 in record 0"),
    ([""], [[""]], {}, tf.errors.InvalidArgumentError, "Expect 1 fields but have 0 in record 0"),
    (["1,2"], [[0], [0]], {"select_cols": [0, 5]}, tf.errors.InvalidArgumentError,
     "Expect 2 fields but have 1 in record 0"),
    (["0x10,2"], [[0], [0]], {}, tf.errors.InvalidArgumentError, "Field 0 in record 0 is not a valid int32: 0x10"),
    (["1.0,2"], [[0], [0]], {}, tf.errors.InvalidArgumentError, "Field 0 in record 0 is not a valid int32: 1.0"),
    (["1,abc"], [[0], [0.0]], {}, tf.errors.InvalidArgumentError, "Field 1 in record 0 is not a valid float: abc"),
    (["1,2"], [[0], [0]], {"field_delim": "\n"}, tf.errors.InvalidArgumentError,
     "Expect 2 fields but have 1 in record 0"),
    ([",2"], [[], [0]], {}, tf.errors.InvalidArgumentError, "Field 0 is required but missing in record 0!"),
]


@pytest.mark.parametrize("records,defaults,kwargs,error,message", CSV_ERRORS)
def test_decode_csv_errors(records, defaults, kwargs, error, message):
    with raises(error, message):
        tf.io.decode_csv(records, defaults, **kwargs)


def test_decode_csv_in_a_function():
    f = tf.function(lambda x: tf.io.decode_csv(x, [[0], [""]]))
    outs = f.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs
    assert [(o.dtype.name, o.shape.as_list()) for o in outs] == [("int32", [None]), ("string", [None])]
    assert _values(f(tf.constant(["4,x", "5,y"]))) == [("int32", [4, 5]), ("string", [b"x", b"y"])]


# ---- gfile

def test_gfile_files_and_folders(tmp_path):
    g = tf.io.gfile
    d = str(tmp_path)
    assert not g.exists(d + "/x")
    g.mkdir(d)  # an existing folder: no error, as TF
    with raises(tf.errors.NotFoundError, d + "/a/b; No such file or directory"):
        g.mkdir(d + "/a/b")
    g.makedirs(d + "/a/b")
    g.makedirs(d + "/a/b")
    with g.GFile(d + "/a/f.txt", "w") as f:
        f.write("line1\nline2\nlast")
    assert g.GFile(d + "/a/f.txt").read() == "line1\nline2\nlast"
    assert g.GFile(d + "/a/f.txt", "rb").read() == b"line1\nline2\nlast"
    assert g.GFile(d + "/a/f.txt").read(3) == "lin"
    assert g.GFile(d + "/a/f.txt").readline() == "line1\n"
    assert g.GFile(d + "/a/f.txt").readlines() == ["line1\n", "line2\n", "last"]
    assert list(g.GFile(d + "/a/f.txt")) == ["line1\n", "line2\n", "last"]
    assert sorted(g.listdir(d)) == ["a"] and sorted(g.listdir(d + "/a")) == ["b", "f.txt"]
    assert (g.isdir(d + "/a"), g.isdir(d + "/a/f.txt"), g.isdir(d + "/zz")) == (True, False, False)
    assert g.glob(d + "/a/*.txt") == [d + "/a/f.txt"] and g.glob(d + "/a/*.csv") == []
    assert g.glob([d + "/a/*.txt", d + "/*"]) == [d + "/a/f.txt", d + "/a"]
    st = g.stat(d + "/a/f.txt")
    assert (st.length, st.is_directory, type(st).__name__) == (16, False, "FileStatistics")
    g.copy(d + "/a/f.txt", d + "/a/g.txt")
    with raises(tf.errors.AlreadyExistsError, "file already exists"):
        g.copy(d + "/a/f.txt", d + "/a/g.txt")
    with raises(tf.errors.AlreadyExistsError, "file already exists"):
        g.rename(d + "/a/f.txt", d + "/a/g.txt")
    g.rename(d + "/a/f.txt", d + "/a/g.txt", overwrite=True)
    assert sorted(g.listdir(d + "/a")) == ["b", "g.txt"]
    assert list(g.walk(d + "/a/b")) == [(d + "/a/b", [], [])]
    assert g.join("a", "b", "c") == "a/b/c"
    g.rmtree(d + "/a")
    assert not g.exists(d + "/a")


def test_gfile_errors(tmp_path):
    g = tf.io.gfile
    d = str(tmp_path)
    os.makedirs(d + "/a")
    cases = [
        (lambda: g.listdir(d + "/x"), tf.errors.NotFoundError, "Could not find directory %s/x" % d),
        (lambda: g.stat(d + "/zz"), tf.errors.NotFoundError, "%s/zz; No such file or directory" % d),
        (lambda: g.GFile(d + "/zz").read(), tf.errors.NotFoundError, "%s/zz; No such file or directory" % d),
        (lambda: g.remove(d + "/zz"), tf.errors.NotFoundError, "%s/zz; No such file or directory" % d),
        (lambda: g.remove(d + "/a"), tf.errors.FailedPreconditionError, "%s/a; Is a directory" % d),
        (lambda: g.rename(d + "/zz", d + "/yy"), tf.errors.NotFoundError, "%s/zz; No such file or directory" % d),
        (lambda: g.rmtree(d + "/zz"), tf.errors.NotFoundError, "%s/zz not found" % d),
        (lambda: g.GFile(d + "/q", "x"), tf.errors.InvalidArgumentError,
         "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'"),
        (lambda: g.GFile(d + "/w", "w").read(), tf.errors.PermissionDeniedError, "File isn't open for reading"),
    ]
    for call, error, message in cases:
        with pytest.raises(error) as info:
            call()
        assert str(info.value) == message
    g.GFile(d + "/zz")  # opened on first use: no error yet, as TF
    with g.GFile(d + "/r", "w") as f:
        f.write("x")
    with pytest.raises(tf.errors.PermissionDeniedError, match="File isn't open for writing"):
        g.GFile(d + "/r").write("a")


def test_gfile_modes(tmp_path):
    g = tf.io.gfile
    d = str(tmp_path)
    with g.GFile(d + "/app", "w") as f:
        f.write("a")
    with g.GFile(d + "/app", "a") as f:
        f.write(b"b")  # bytes in a text mode and str in a binary mode are both written, as TF
    assert g.GFile(d + "/app").read() == "ab"
    with g.GFile(d + "/bin", "wb") as f:
        f.write(b"\x00\x01")
        f.write("x")
    assert g.GFile(d + "/bin", "rb").read() == b"\x00\x01x"
    f = g.GFile(d + "/app")
    assert f.size() == 2
    f.read(1)
    assert f.tell() == 1
    f.seek(0)
    assert f.read() == "ab"
    assert (f.name, f.mode) == (d + "/app", "r")
    f.close()
