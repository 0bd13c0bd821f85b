"""Convolution and pooling (tf.nn.conv*, depthwise/separable, *_pool*, tf.nn.pool) against values,
gradients, errors and static shapes recorded from TensorFlow 2.21 (tests/python/nn_conv/: cases.py
lists the cases, make_expected.py recorded expected_tf.json), eagerly and inside graphfn.function;
gradients also against finite differences."""

import json
import os
import sys
import threading

import numpy as np
import pytest

import graphfn as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "nn_conv"))
from cases import ERROR_CASES, GRAD_CASES, SECOND_CASES, SHAPE_CASES, VALUE_CASES, inputs, weights  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "nn_conv", "expected_tf.json")) as _f:
    EXPECTED = json.load(_f)

class _RawOps:
    """tf.raw_ops.Name(**inputs_and_attrs) over graphfn's op handles, until graphfn.raw_ops exists."""

    def __getattr__(self, name):
        from graphfn import _core
        from graphfn.ops._op_table import ops
        signature = _core.op_def_summary(name).split("signature=", 1)[1].split(" -> ", 1)[0]
        input_names = [arg.split(":")[0] for arg in signature.split(", ")]
        return lambda **kw: getattr(ops, name)(*[kw.pop(n) for n in input_names], **kw)


NAMESPACE = {"tf": tf, "np": np}
RAW_NAMESPACE = {"tf": tf if hasattr(tf, "raw_ops") else type("tf", (), {"raw_ops": _RawOps()}), "np": np}


def _fn(source):
    return eval(source, NAMESPACE)


def _close(actual, expected, dtype, shape=None):
    expected = np.asarray(expected, dtype=dtype)
    if shape is not None:
        expected = expected.reshape(shape)  # an empty list keeps no shape
    assert actual.shape == expected.shape
    if np.issubdtype(expected.dtype, np.integer):
        np.testing.assert_array_equal(actual, expected)
    else:
        tol = 1e-5 if expected.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol * 4)


def _check_value(name, y):
    expected = EXPECTED["values"][name]
    assert y.dtype.name == expected["dtype"]
    assert y.shape.as_list() == expected["shape"]
    _close(y.numpy(), expected["value"], expected["dtype"], expected["shape"])


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_value_matches_tensorflow(name):
    source, shapes = VALUE_CASES[name]
    _check_value(name, _fn(source)(tf, *inputs(shapes)))


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_value_in_function_matches_tensorflow(name):
    source, shapes = VALUE_CASES[name]
    fn = _fn(source)
    _check_value(name, tf.function(lambda *xs: fn(tf, *xs))(*[tf.constant(x) for x in inputs(shapes)]))


def _gradients(source, values, in_function=False):
    fn = _fn(source)

    def grads(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = fn(tf, *xs)
        return tape.gradient(y, list(xs), output_gradients=tf.constant(weights(y.shape, y.dtype.name)))
    if in_function:
        grads = tf.function(grads)
    return grads(*[tf.constant(v) for v in values])


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", GRAD_CASES)
def test_gradient_matches_tensorflow(name, in_function):
    source, shapes = VALUE_CASES[name]
    values = inputs(shapes)
    for g, expected, x in zip(_gradients(source, values, in_function), EXPECTED["grads"][name], values):
        _close(g.numpy(), expected, x.dtype)


@pytest.mark.parametrize("name", SECOND_CASES)
def test_second_derivative_matches_tensorflow(name):
    source, shapes = VALUE_CASES[name]
    fn = _fn(source)
    xs = [tf.constant(v) for v in inputs(shapes, "float64")]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(tf, *xs)
        grads = inner.gradient(y, xs, output_gradients=tf.constant(weights(y.shape, "float64")))
        total = tf.add_n([tf.reduce_sum(g * weights(g.shape, "float64")) for g in grads])
    for g, expected in zip(outer.gradient(total, xs), EXPECTED["second"][name]):
        if expected is None:
            assert g is None
        else:
            _close(g.numpy(), expected, np.float64)


FINITE_DIFFERENCE_CASES = ["conv2d_same_strides", "conv2d_explicit", "conv1d", "conv3d", "conv2d_transpose",
                           "depthwise_strides", "depthwise_dilated", "separable", "max_pool2d_same", "avg_pool2d_same",
                           "pool_avg_1d"]  # (TF has no float64 kernels for MaxPool3D, AvgPool3D)


@pytest.mark.parametrize("name", FINITE_DIFFERENCE_CASES)
def test_gradient_matches_finite_differences(name):
    source, shapes = VALUE_CASES[name]
    fn = _fn(source)
    # Distinct values (no ties inside a pooling window), so the loss is smooth around them.
    values = [v + 1e-3 * np.arange(v.size).reshape(v.shape) for v in inputs(shapes, "float64")]
    y0 = fn(tf, *values)
    w = weights(y0.shape, "float64")

    def loss(vals):
        return float(np.sum(fn(tf, *vals).numpy() * w))
    grads = _gradients(source, values)
    eps = 1e-6
    for i, x in enumerate(values):
        numeric = np.zeros_like(x)
        for j in range(x.size):
            plus, minus = [v.copy() for v in values], [v.copy() for v in values]
            plus[i].flat[j] += eps
            minus[i].flat[j] -= eps
            numeric.flat[j] = (loss(plus) - loss(minus)) / (2 * eps)
        np.testing.assert_allclose(grads[i].numpy(), numeric, rtol=1e-5, atol=1e-6)


def _without_node_prefix(message):
    """TF's kernel messages without the eager wrapper ("{{function_node ...}} " and " [Op:...]")
    and attr-validation messages up to the op summary (graphfn's lists no allowed strings)."""
    if message.startswith("{{function_node"):
        message = message.split("}} ", 1)[1]
    message = message.split(" [Op:", 1)[0]
    if message.startswith("Could not find device"):  # graphfn's node text lists no attrs
        message = message.split(" = ", 1)[0]
    return message.split("\n\t; NodeDef", 1)[0]


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_error_matches_tensorflow(name):
    error_type, message = EXPECTED["errors"][name]
    with pytest.raises(Exception) as info:
        eval(ERROR_CASES[name], RAW_NAMESPACE if "raw_ops" in ERROR_CASES[name] else NAMESPACE)
    assert type(info.value).__name__ == error_type
    assert _without_node_prefix(message) in str(info.value)


@pytest.mark.parametrize("name", sorted(SHAPE_CASES))
def test_static_shape_in_function_matches_tensorflow(name):
    source, shapes = SHAPE_CASES[name]
    fn = _fn(source)
    spec = [tf.TensorSpec(s, tf.float32) for s in shapes]
    concrete = tf.function(lambda *xs: fn(tf, *xs), input_signature=spec).get_concrete_function()
    assert concrete.structured_outputs.shape.as_list() == EXPECTED["shapes"][name]


def test_unknown_shapes_run_with_the_shapes_fed():
    # The shape inferred while tracing has unknown dims; the kernels see the real ones.
    source, shapes = VALUE_CASES["conv2d_same_strides"]
    fn = _fn(source)
    f = tf.function(lambda x, w: fn(tf, x, w),
                    input_signature=[tf.TensorSpec([None, None, None, 3]), tf.TensorSpec([None, None, 3, None])])
    _check_value("conv2d_same_strides", f(*inputs(shapes)))


def test_transpose_of_unknown_batch_runs():
    source, shapes = VALUE_CASES["conv2d_transpose"]
    fn = _fn(source)
    f = tf.function(lambda y, w: fn(tf, y, w), input_signature=[tf.TensorSpec([None, 3, 4, 4]), tf.TensorSpec(None)])
    _check_value("conv2d_transpose", f(*inputs(shapes)))


def test_many_python_threads_share_the_pool():
    # Several threads run the multi-threaded kernels at once; each gets its own right answer.
    x, w = inputs([(8, 12, 12, 8), (3, 3, 8, 16)])
    expected = tf.nn.conv2d(x, w, 1, "SAME").numpy()
    pooled = tf.nn.max_pool2d(expected, 2, 2, "SAME").numpy()
    failures = []

    def work():
        for _ in range(20):
            y = tf.nn.conv2d(x, w, 1, "SAME")
            if not np.array_equal(y.numpy(), expected) or not np.array_equal(
                    tf.nn.max_pool2d(y, 2, 2, "SAME").numpy(), pooled):
                failures.append(1)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_conv2d_transpose_traced_with_an_output_shape_from_tf_shape():
    """TF 2.21 traces this to shape (None, 16, 16, 5): the shape function runs on the partial value
    of output_shape (Keras takes len() of it to add the bias)."""

    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 4], tf.float32)])
    def f(x):
        output_shape = tf.stack([tf.shape(x)[0], 16, 16, 5])
        y = tf.nn.conv2d_transpose(x, tf.ones([2, 2, 5, 4]), output_shape, strides=2, padding="VALID")
        assert y.shape.as_list() == [None, 16, 16, 5]
        return y

    assert f(tf.ones([3, 8, 8, 4])).shape == [3, 16, 16, 5]
