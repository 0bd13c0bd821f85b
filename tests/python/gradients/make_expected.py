"""Regenerates expected_tf.json: every case's gradients under real TensorFlow, float32 and float64,
and (float64) second derivatives from nested tapes: the gradient of sum(grads * v) for fixed v.
Run with the TF venv: /work/tfenv/bin/python tests/python/gradients/make_expected.py"""

import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from grad_cases import CASES  # noqa: E402
from grad_weights import output_weights  # noqa: E402


def _numpy(g):
    # TF gives IndexedSlices for gather; graphfn gives the equal dense tensor.
    return None if g is None else np.asarray(tf.convert_to_tensor(g)).tolist()


def gradients(source, values, dtype):
    fn = eval(source)
    xs = [tf.constant(np.asarray(v, dtype=dtype)) for v in values]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(tf, *xs)
    grads = tape.gradient(y, xs, output_gradients=tf.constant(output_weights(y.shape, dtype)))
    return [_numpy(g) for g in grads]


def second_derivatives(source, values):
    fn = eval(source)
    xs = [tf.constant(np.asarray(v, dtype="float64")) for v in values]
    with tf.GradientTape() as outer:
        outer.watch(xs)
        with tf.GradientTape() as inner:
            inner.watch(xs)
            y = fn(tf, *xs)
        grads = inner.gradient(y, xs, output_gradients=tf.constant(output_weights(y.shape, "float64")))
        total = tf.add_n([tf.reduce_sum(tf.convert_to_tensor(g) * output_weights(g.shape, "float64"))
                          for g in grads if g is not None])
    return [_numpy(g) for g in outer.gradient(total, xs)]


def main():
    out = {}
    for name, (source, values) in sorted(CASES.items()):
        out[name] = {dt: gradients(source, values, dt) for dt in ("float32", "float64")}
        out[name]["second"] = second_derivatives(source, values)
    path = os.path.join(os.path.dirname(__file__), "expected_tf.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
