"""Python lists and tuples of numbers become tensors in C++ without NumPy; the results must be
TF's. Expected dtype, shape and values were printed by TensorFlow 2.21 for the same calls."""

import pytest

import graphfn as tf

CASES = [
    ("[1, 2, 3]", None, "int32", (3,), [1, 2, 3]),
    ("[1, 2**40]", None, "int64", (2,), [1, 1099511627776]),
    ("[1.5, 2]", None, "float32", (2,), [1.5, 2.0]),
    ("[True, False]", None, "bool", (2,), [True, False]),
    ("[[1, 2], [3, 4]]", None, "int32", (2, 2), [[1, 2], [3, 4]]),
    ("[[], []]", None, "float32", (2, 0), [[], []]),
    ("[]", None, "float32", (0,), []),
    ("((1, 2), [3, 4])", None, "int32", (2, 2), [[1, 2], [3, 4]]),
    ("[[[1.0]], [[2.0]]]", None, "float32", (2, 1, 1), [[[1.0]], [[2.0]]]),
    ("[2**31 - 1, -2**31]", None, "int32", (2,), [2147483647, -2147483648]),
    ("[2**31]", None, "int64", (1,), [2147483648]),
    ("[-2**63]", None, "int64", (1,), [-9223372036854775808]),
    ("[1.5, 2**70]", None, "float32", (2,), [1.5, 1.1805916207174113e+21]),
    ("[1, 2]", "float64", "float64", (2,), [1.0, 2.0]),
    ("[1, 2]", "int64", "int64", (2,), [1, 2]),
    ("[300, -1]", "uint8", "uint8", (2,), [44, 255]),
    ("[1.5, 2.5]", "float64", "float64", (2,), [1.5, 2.5]),
    ("[]", "string", "string", (0,), []),
    ("[[], []]", "int64", "int64", (2, 0), [[], []]),
    ("[1, 2]", "int8", "int8", (2,), [1, 2]),
    ("[2**40]", "int32", "int32", (1,), [0]),
]


@pytest.mark.parametrize("expr,dtype,want_dtype,want_shape,want_values", CASES)
def test_constant_from_python_sequence(expr, dtype, want_dtype, want_shape, want_values):
    t = tf.constant(eval(expr), dtype=getattr(tf, dtype) if dtype else None)
    assert (t.dtype.name, tuple(t.shape), t.numpy().tolist()) == (want_dtype, want_shape, want_values)


@pytest.mark.parametrize("expr", ["[[1, 2], [3]]", "[[1], 2]"])
def test_ragged_sequences_raise_tf_error(expr):
    with pytest.raises(ValueError, match="^Can't convert non-rectangular Python sequence to Tensor.$"):
        tf.constant(eval(expr))


def test_shape_lists_convert_for_ops():
    assert tf.reshape(tf.range(6), [2, 3]).shape == (2, 3)
    assert tf.zeros((2, 1, 3)).shape == (2, 1, 3)
    assert tf.reshape(tf.constant([5]), []).shape == ()


# Strings keep every byte, trailing NULs included (NumPy's fixed-width `S` dtype would drop
# them). Expected values printed by TensorFlow 2.21 for the same calls.
STRING_CASES = [
    ('[b"a\\x00", b"\\x00\\x00"]', [b"a\x00", b"\x00\x00"]),
    ('["a\\x00", "\\x00"]', [b"a\x00", b"\x00"]),
    ('[[b"a\\x00"], ["b\\x00\\x00"]]', [[b"a\x00"], [b"b\x00\x00"]]),
    ('(b"x\\x00",)', [b"x\x00"]),
    ('[b"a\\x00", "b\\x00"]', [b"a\x00", b"b\x00"]),
    ('np.array([b"a\\x00", b"\\x00\\x00"], dtype=object)', [b"a\x00", b"\x00\x00"]),
    # A NumPy `S`/`U` array has already lost them (TF gives the same)
    ('np.array([b"a\\x00", b"\\x00\\x00"])', [b"a", b""]),
    ('np.array(["a\\x00", "\\x00\\x00"])', [b"a", b""]),
]


@pytest.mark.parametrize("source,expected", STRING_CASES)
def test_strings_keep_trailing_nul_bytes(source, expected):
    import numpy as np  # noqa: F401  (used by the sources)
    t = tf.constant(eval(source))
    assert t.dtype == tf.string
    assert t.numpy().tolist() == expected


def test_nul_padded_string_differs_from_the_shorter_one():
    assert tf.equal([b"a\x00"], [b"a"]).numpy().tolist() == [False]
    assert tf.constant([b"a\x00"], dtype=tf.string).numpy().tolist() == [b"a\x00"]

    @tf.function
    def same(x):
        return tf.equal(x, [b"a"])
    assert same(tf.constant([b"a\x00"])).numpy().tolist() == [False]


@pytest.mark.parametrize("value", [[b"a", 1], [["a", 1.5]], [True, "x"]])
def test_strings_mixed_with_numbers_are_a_value_error(value):
    with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types to Tensor."):
        tf.constant(value)
