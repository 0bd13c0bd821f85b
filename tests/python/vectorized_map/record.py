"""Records TensorFlow 2.21's answers for cases.py into goldens.json:
~/tf/bin/python tests/python/vectorized_map/record.py"""

import json
import logging
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from cases import CASES, ERRORS, GRADIENT_CASES, SETUP  # noqa: E402


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _leaf(t):
    t = tf.convert_to_tensor(t)
    return {"dtype": t.dtype.name, "shape": t.shape.as_list(), "value": t.numpy().tolist()}


def _run(name, code):
    ns = {"tf": tf, "np": np}
    exec(SETUP + code, ns)
    fn, elems = ns["fn"], ns["elems"]
    handler = _Warnings()
    tf.get_logger().addHandler(handler)
    try:
        result = tf.vectorized_map(fn, elems)
    finally:
        tf.get_logger().removeHandler(handler)
    fallbacks = [m.split()[5] for m in handler.messages if m.startswith("Using a while_loop for converting")]
    elems_t = tf.nest.map_structure(tf.convert_to_tensor, elems)
    specs = tf.nest.map_structure(lambda t: tf.TensorSpec([None] + t.shape.as_list()[1:], t.dtype), elems_t)
    traced = tf.function(lambda e: tf.vectorized_map(fn, e)).get_concrete_function(specs).structured_outputs
    static = [[t.shape.as_list(), t.dtype.name] for t in tf.nest.flatten(traced)]
    return {"flat": [_leaf(t) for t in tf.nest.flatten(result)], "structure": repr(tf.nest.map_structure(lambda _: 0, result)),
            "fallbacks": fallbacks, "unknown_batch_static": static}


def _gradient(name, code):
    ns = {"tf": tf, "np": np}
    exec(SETUP + code, ns)
    fn, elems = ns["fn"], tf.nest.map_structure(tf.convert_to_tensor, ns["elems"])
    flat = tf.nest.flatten(elems)
    with tf.GradientTape() as tape:
        tape.watch(flat)
        out = [t for t in tf.nest.flatten(tf.vectorized_map(fn, elems)) if t.dtype.is_floating]
        total = tf.add_n([tf.reduce_sum(t * tf.cast(tf.range(tf.size(t)) % 3 - 1, t.dtype)[: tf.size(t)]
                                        if False else t * tf.reshape(tf.cast(tf.range(tf.size(t)) % 3 - 1, t.dtype), tf.shape(t)))
                          for t in out])
    grads = tape.gradient(total, flat)
    return [None if g is None else _leaf(g) for g in grads]


def main():
    out = {"cases": {}, "gradients": {}, "errors": {}}
    for name, code in CASES.items():
        out["cases"][name] = _run(name, code)
    for name in GRADIENT_CASES:
        out["gradients"][name] = _gradient(name, CASES[name])
    for name, expr in ERRORS.items():
        ns = {"tf": tf, "np": np}
        exec(SETUP, ns)
        try:
            eval(expr, ns)
            out["errors"][name] = None
        except Exception as e:  # noqa: BLE001 - recording whatever TF raises
            out["errors"][name] = [type(e).__name__, str(e)]
    path = os.path.join(os.path.dirname(__file__), "goldens.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print("recorded", len(out["cases"]), "cases to", path)


if __name__ == "__main__":
    main()
