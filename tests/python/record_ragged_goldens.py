"""Records ragged_goldens.json from TensorFlow 2.21 (run with ~/tf/bin/python)."""

import os
import sys

import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from ragged_cases import CASES, SETUP  # noqa: E402
from setup_goldens import record  # noqa: E402


if __name__ == "__main__":
    record(tf, CASES, SETUP, "x", "rt", "ragged_goldens.json")
