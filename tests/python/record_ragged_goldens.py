"""Records ragged_goldens.json from TensorFlow 2.21 (run with ~/tf/bin/python)."""

import json
import os
import sys

import numpy as np  # noqa: F401  (for expressions)
try:
    import tensorflow as tf
except ImportError:  # imported by the test, which needs only `evaluate`
    tf = None

sys.path.insert(0, os.path.dirname(__file__))
from ragged_cases import CASES, SETUP  # noqa: E402


def evaluate(tf_module, expr, namespace):
    if expr.startswith("fn:"):
        fn = tf_module.function(eval("lambda x: " + expr[3:], namespace))
        return fn(namespace["rt"])
    return eval(expr, namespace)


def run(tf_module, cases):
    namespace = {"tf": tf_module, "np": np}
    exec(SETUP, namespace)
    out = []
    for expr in cases:
        try:
            out.append([expr, "ok", repr(evaluate(tf_module, expr, namespace))])
        except Exception as e:  # noqa: BLE001 (recording every error)
            out.append([expr, type(e).__name__, str(e)])
    return out


if __name__ == "__main__":
    with open(os.path.join(os.path.dirname(__file__), "ragged_goldens.json"), "w") as f:
        json.dump(run(tf, CASES), f, indent=0)
        f.write("\n")
