"""Regenerates expected_tf.json from real TensorFlow 2.21 (values, dtypes and shapes of
VALUE_CASES, gradients of GRAD_CASES, second derivatives of SECOND_CASES, the exception type and
message of ERROR_CASES, the static shapes of SHAPE_CASES inside tf.function). Run with the TF venv:
    ~/tf/bin/python tests/python/nn_conv/make_expected.py"""

import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from cases import ERROR_CASES, GRAD_CASES, SECOND_CASES, SHAPE_CASES, VALUE_CASES, inputs, weights  # noqa: E402

NAMESPACE = {"tf": tf, "np": np}


def gradients(source, values):
    fn = eval(source, NAMESPACE)
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(tf, *xs)
    grads = tape.gradient(y, xs, output_gradients=tf.constant(weights(y.shape, y.dtype.name)))
    return [None if g is None else g.numpy().tolist() for g in grads]


def second_derivatives(source, values):
    fn = eval(source, NAMESPACE)
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(tf, *xs)
        grads = inner.gradient(y, xs, output_gradients=tf.constant(weights(y.shape, "float64")))
        total = tf.add_n([tf.reduce_sum(g * weights(g.shape, "float64")) for g in grads])
    return [None if g is None else g.numpy().tolist() for g in outer.gradient(total, xs)]


def error(source):
    try:
        eval(source, NAMESPACE)
    except Exception as e:  # noqa: BLE001 (recording whatever TF raises)
        return [type(e).__name__, str(e)]
    raise AssertionError("TF accepted " + source)


def static_shape(source, shapes):
    fn = eval(source, NAMESPACE)
    spec = [tf.TensorSpec(s, tf.float32) for s in shapes]
    concrete = tf.function(lambda *xs: fn(tf, *xs), input_signature=spec).get_concrete_function()
    return concrete.structured_outputs.shape.as_list()


def main():
    out = {"values": {}, "grads": {}, "second": {}, "errors": {}, "shapes": {}}
    for name, (source, shapes) in sorted(VALUE_CASES.items()):
        y = eval(source, NAMESPACE)(tf, *inputs(shapes))
        out["values"][name] = {"value": y.numpy().tolist(), "dtype": y.dtype.name, "shape": y.shape.as_list()}
    for name in GRAD_CASES:
        source, shapes = VALUE_CASES[name]
        out["grads"][name] = gradients(source, inputs(shapes))
    for name in SECOND_CASES:
        source, shapes = VALUE_CASES[name]
        out["second"][name] = second_derivatives(source, inputs(shapes, "float64"))
    for name, source in sorted(ERROR_CASES.items()):
        out["errors"][name] = error(source)
    for name, (source, shapes) in sorted(SHAPE_CASES.items()):
        out["shapes"][name] = static_shape(source, shapes)
    with open(os.path.join(os.path.dirname(__file__), "expected_tf.json"), "w") as f:
        json.dump(out, f, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
