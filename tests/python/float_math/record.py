"""Records TF 2.21's float32 tanh and sigmoid bits for test_float_math.py (run with TF's Python:
~/tf/bin/python tests/python/float_math/record.py)."""

import json
import os

import numpy as np
import tensorflow as tf


def inputs():
    rng = np.random.default_rng(19)
    special = [0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-38, 1e-30, 3e-4, -4e-4, 1e-3, 0.5, -1.0, 7.9, -7.90738964,
               7.9074, 8.0, -8.1, 16.6, 16.7, 20.0, 88.0, -87.0, -103.9, -104.0, -104.1, -1e4, 3.4e38, -3.4e38,
               np.inf, -np.inf, np.nan]
    return np.concatenate([np.array(special), rng.uniform(-10, 10, 700), rng.uniform(-0.01, 0.01, 100),
                           rng.standard_normal(200), rng.uniform(-110, 20, 505)]).astype(np.float32)


def main():
    x = inputs()
    assert len(x) % 16 == 0  # TF computes all of it with its vector code (no scalar tail)
    record = {"tf_version": tf.__version__, "x_bits": x.view(np.uint32).tolist()}
    for name in ("tanh", "sigmoid"):
        record[name + "_bits"] = getattr(tf, name)(x).numpy().view(np.uint32).tolist()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_float32_bits.json")
    with open(path, "w") as f:
        json.dump(record, f)
        f.write("\n")


if __name__ == "__main__":
    main()
