"""Records TF 2.21's float32 tanh bits for test_float_math.py (run with TF's Python:
~/tf/bin/python tests/python/float_math/record_tanh.py)."""

import json
import os

import numpy as np
import tensorflow as tf


def inputs():
    rng = np.random.default_rng(19)
    special = [0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-38, 1e-30, 3e-4, -4e-4, 1e-3, 0.5, -1.0, 7.9, -7.90738964,
               7.9074, 8.0, -8.1, 20.0, 88.0, -1e4, 3.4e38, -3.4e38, np.inf, -np.inf, np.nan]
    return np.concatenate([np.array(special), rng.uniform(-10, 10, 700), rng.uniform(-0.01, 0.01, 100),
                           rng.standard_normal(200)]).astype(np.float32)


def main():
    x = inputs()
    y = tf.tanh(x).numpy()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_tanh_float32.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "x_bits": x.view(np.uint32).tolist(),
                   "tanh_bits": y.view(np.uint32).tolist()}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
