"""Regenerates expected_tf.json: the inputs (drawn once with NumPy) and every case of
keras_cases.py run under real TensorFlow 2.21 / Keras 3.
Run with the TF venv: /work/tfenv/bin/python tests/python/keras/make_expected.py"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from keras_cases import CASES, make_inputs  # noqa: E402


def main():
    tf.keras.utils.set_random_seed(0)
    data = make_inputs()
    out = {"inputs": data, "cases": {}}
    for name, fn in CASES.items():
        out["cases"][name] = fn(tf, data)
    path = os.path.join(os.path.dirname(__file__), "expected_tf.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
