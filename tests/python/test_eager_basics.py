"""Eager tensors: conversion rules, dtype rules and printing. Expected strings and values were
printed by TensorFlow 2.21 (NumPy 2.4) for the same expressions."""

import numpy as np
import pytest

import graphfn as tf


@pytest.mark.parametrize("expr, expected", [
    ("tf.constant(29)", "<tf.Tensor: shape=(), dtype=int32, numpy=29>"),
    ("tf.constant(1.5)", "<tf.Tensor: shape=(), dtype=float32, numpy=1.5>"),
    ("tf.constant(True)", "<tf.Tensor: shape=(), dtype=bool, numpy=True>"),
    ("tf.constant('aa')", "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>"),
    ("tf.constant(0.1)", "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"),
    ("tf.constant(0.1, tf.float64)", "<tf.Tensor: shape=(), dtype=float64, numpy=0.1>"),
    ("tf.constant(1e20)", "<tf.Tensor: shape=(), dtype=float32, numpy=1.0000000200408773e+20>"),
    ("tf.constant(2**40)", "<tf.Tensor: shape=(), dtype=int64, numpy=1099511627776>"),
    ("tf.constant([1., 0., 3.])",
     "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 0., 3.], dtype=float32)>"),
    ("tf.constant([1, 2**40])",
     "<tf.Tensor: shape=(2,), dtype=int64, numpy=array([            1, 1099511627776])>"),
    ("tf.constant(['a', 'b'])",
     "<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'b'], dtype=object)>"),
    ("tf.constant([[True, False]])",
     "<tf.Tensor: shape=(1, 2), dtype=bool, numpy=array([[ True, False]])>"),
    ("tf.constant([[1.5, 2], [3, 4]])",
     "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1.5, 2. ],\n       [3. , 4. ]], dtype=float32)>"),
    ("tf.constant(np.arange(2000.))",
     "<tf.Tensor: shape=(2000,), dtype=float64, numpy=\narray([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n"
     "       1.999e+03], shape=(2000,))>"),
    ("tf.constant(300, dtype=tf.uint8)", "<tf.Tensor: shape=(), dtype=uint8, numpy=44>"),
])
def test_repr_matches_tensorflow(expr, expected):
    assert repr(eval(expr)) == expected


@pytest.mark.parametrize("expr, expected", [
    ("tf.constant([1., 0., 3.])", "tf.Tensor([1. 0. 3.], shape=(3,), dtype=float32)"),
    ("tf.constant(29)", "tf.Tensor(29, shape=(), dtype=int32)"),
    ("tf.constant(0.1)", "tf.Tensor(0.1, shape=(), dtype=float32)"),
    ("tf.constant(1e-10)", "tf.Tensor(1e-10, shape=(), dtype=float32)"),
    ("tf.constant(b'x')", "tf.Tensor(b'x', shape=(), dtype=string)"),
    ("tf.constant([[1.5, 2], [3, 4]])", "tf.Tensor(\n[[1.5 2. ]\n [3.  4. ]], shape=(2, 2), dtype=float32)"),
])
def test_str_matches_tensorflow(expr, expected):
    assert str(eval(expr)) == expected


def test_large_tensor_str_is_elided_like_tensorflow():
    t = tf.constant(np.arange(2000.).reshape(40, 50))
    lines = str(t).splitlines()
    assert lines[0] == "tf.Tensor("
    assert lines[1] == "[[0.000e+00 1.000e+00 2.000e+00 ... 4.700e+01 4.800e+01 4.900e+01]"
    assert lines[4] == " ..."
    assert lines[-1] == " [1.950e+03 1.951e+03 1.952e+03 ... 1.997e+03 1.998e+03 1.999e+03]], shape=(40, 50), dtype=float64)"


def test_no_implicit_promotion():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.constant(1) + tf.constant(1.0)
    assert str(info.value) == ("cannot compute AddV2 as input #1(zero-based) was expected to be a "
                               "int32 tensor but is a float tensor [Op:AddV2] name: ")


@pytest.mark.parametrize("expr", ["tf.constant(1) + 1.5", "tf.constant(1) + 2.0", "tf.add(1, 2.5)"])
def test_python_float_does_not_fit_int_tensor(expr):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"expected to be a int32 tensor but is a float tensor \[Op:AddV2\]"):
        eval(expr)


def test_string_into_int_op():
    with pytest.raises(tf.errors.InvalidArgumentError, match="but is a string tensor"):
        tf.constant(1) + "a"


def test_python_scalars_take_the_tensor_dtype():
    assert (tf.constant(2.5) + 1).dtype == tf.float32
    assert (1 + tf.constant(2.5, tf.float64)).dtype == tf.float64
    assert (tf.constant(1, dtype=tf.uint8) - 2).numpy() == 255


def test_numpy_arrays_are_cast_to_the_tensor_dtype():
    r = tf.constant([1.0]) + np.array([2.0])
    assert r.dtype == tf.float32 and r.numpy().tolist() == [3.0]
    r = tf.constant([1]) + np.array([2.5])
    assert r.dtype == tf.int32 and r.numpy().tolist() == [3]


def test_constant_float_to_int_is_a_type_error():
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant(1.5, dtype=tf.int32)
    with pytest.raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32"):
        tf.convert_to_tensor(2.0, dtype=tf.int32)
    assert tf.constant(np.array([1.5, 2.5]), dtype=tf.int32).numpy().tolist() == [1, 2]


# Recorded from TF 2.21: Python sequences follow the scalar rules (no lost fractions, no numbers
# as bools) in tf.constant and tf.Variable too; NumPy values (scalars and arrays) are cast.
@pytest.mark.parametrize("make, text", [
    (lambda: tf.constant([1.5], tf.int32), "Cannot convert [1.5] to EagerTensor of dtype int32"),
    (lambda: tf.constant([1, 2.0], tf.int32), "Cannot convert [1, 2.0] to EagerTensor of dtype int32"),
    (lambda: tf.constant([[1.5]], tf.int64), "Cannot convert [[1.5]] to EagerTensor of dtype int64"),
    (lambda: tf.constant([0, 1], tf.bool), "Cannot convert [0, 1] to EagerTensor of dtype bool"),
    (lambda: tf.constant((1.5, 2.5), tf.uint8), "Cannot convert (1.5, 2.5) to EagerTensor of dtype uint8"),
    (lambda: tf.constant([np.float32(1.5)], tf.int32),
     "Cannot convert [np.float32(1.5)] to EagerTensor of dtype int32"),
    (lambda: tf.constant([1.0, 2.0], tf.int32, shape=[2]), "Cannot convert [1.0, 2.0] to EagerTensor of dtype int32"),
    (lambda: tf.Variable([1.5], dtype=tf.int32), "Cannot convert [1.5] to EagerTensor of dtype int32"),
    (lambda: tf.Variable([[1.0], [2.5]], dtype=tf.int64), "Cannot convert [[1.0], [2.5]] to EagerTensor of dtype int64"),
])
def test_python_sequences_do_not_lose_fractions(make, text):
    with pytest.raises(TypeError) as e:
        make()
    assert str(e.value) == text


def test_lossless_python_sequences_and_numpy_values_convert():
    assert tf.constant([True, 2], tf.int32).numpy().tolist() == [1, 2]
    assert tf.constant([1.5], tf.complex64).numpy().tolist() == [1.5 + 0j]
    assert tf.constant([1, 2], tf.float16).numpy().tolist() == [1.0, 2.0]
    assert tf.constant([[]], tf.bool).shape == (1, 0)
    assert tf.constant(np.float32(1.5), tf.int32).numpy() == 1
    assert tf.constant(np.array([[1.5]]), tf.int64).numpy().tolist() == [[1]]


def test_conversion_errors():
    with pytest.raises(ValueError, match="Can't convert non-rectangular Python sequence to Tensor."):
        tf.constant([[1, 2], [3]])
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(<object object at .*\) with an unsupported type \(<class 'object'>\) to a Tensor."):
        tf.constant(object())


def test_integer_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Integer division by zero \[Op:FloorDiv\]"):
        tf.constant(1) // 0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Integers to negative integer powers are not allowed \[Op:Pow\]"):
        tf.constant(2) ** -1
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\] \[Op:AddV2\]"):
        tf.constant([1, 2, 3]) + tf.constant([1, 2])


def test_disallowed_dtype():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of allowed values"):
        tf.sqrt(tf.constant(4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool is not in the list of allowed values"):
        tf.add(tf.constant(True), tf.constant(False))
    with pytest.raises(tf.errors.UnimplementedError, match=r"Cast string to int32 is not supported \[Op:Cast\]"):
        tf.cast("a", tf.int32)


def test_numpy_returns_copies_and_scalars():
    t = tf.constant([1, 2])
    a = t.numpy()
    a[0] = 100
    assert t.numpy().tolist() == [1, 2]
    assert type(tf.constant(1).numpy()) is np.int32
    assert type(tf.constant(3.5).numpy()) is np.float32
    assert type(tf.constant(b"x").numpy()) is bytes
    assert np.asarray(tf.constant([[1., 2.]])).shape == (1, 2)


def test_python_protocols():
    assert bool(tf.constant(1)) and not bool(tf.constant(0.0))
    assert int(tf.constant(7)) == 7 and float(tf.constant(2.5)) == 2.5
    assert [10, 20, 30][tf.constant(1)] == 20
    assert len(tf.constant([1, 2, 3])) == 3
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1))
    with pytest.raises(TypeError, match="Tensor is unhashable. Instead, use tensor.ref\\(\\) as the key."):
        hash(tf.constant(1))
    assert (tf.constant(1) == None) is False  # noqa: E711


def test_equality_is_elementwise_and_shape_tolerant():
    assert (tf.constant([1, 2]) == tf.constant([1, 3])).numpy().tolist() == [True, False]
    r = tf.constant([1, 2]) == tf.constant([1, 2, 3])
    assert r.dtype == tf.bool and r.shape == () and not r.numpy()


def test_arithmetic_semantics():
    assert (tf.constant(5.0) % 3).numpy() == 2.0
    assert (tf.constant(-7) // 2).numpy() == -4
    assert tf.divide(tf.constant(7), 2).dtype == tf.float64
    assert (tf.constant(7) / tf.constant(2)).numpy() == 3.5
    assert (tf.constant(1.0) / 0).numpy() == np.inf
    assert (tf.constant(["a", "b"]) + "x").numpy().tolist() == [b"ax", b"bx"]


def test_zero_dim_numpy_values_stay_scalars():
    assert tf.constant(np.array(1.5, np.float32)).shape == ()
    assert tf.constant(np.float64(2.0)).dtype == tf.float64
    assert repr(tf.constant(np.float64(1.0))) == "<tf.Tensor: shape=(), dtype=float64, numpy=1.0>"


def test_zero_d_numpy_values_stay_scalars():
    # TF 2.21: shape=() for all of these.
    assert tf.constant(np.array(1.5)).shape == ()
    assert tf.constant(np.float32(2)).shape == ()
    assert (tf.constant(1) + np.int32(1)).shape == ()
    # np.float64 is a Python float subclass but keeps its dtype.
    assert tf.constant(np.float64(1.5)).dtype == tf.float64


def test_empty_lists_convert_to_any_dtype():
    # TF 2.21: tf.convert_to_tensor([], dtype) works for every dtype.
    for dtype in (tf.int32, tf.int64, tf.bool, tf.float32, tf.string):
        t = tf.convert_to_tensor([], dtype)
        assert t.dtype == dtype and t.shape == (0,)
    assert tf.convert_to_tensor([[]], tf.int32).shape == (1, 0)
