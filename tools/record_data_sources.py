"""Records tests/python/data_sources_goldens.json: the outcome under TensorFlow 2.21 of every case
in tests/python/data_sources_cases.py (tf.data sources, file datasets, cache, Options). Run with
TF's interpreter: ~/tf/bin/python tools/record_data_sources.py"""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "tests", "python")
sys.path.insert(0, TESTS)

import tensorflow as tf  # noqa: E402

import data_sources_cases as cases  # noqa: E402


def main():
    with tempfile.TemporaryDirectory() as root:
        cases.write_files(root, tf)
        names = cases.namespace(tf, root)
        recorded = [[case, cases.outcome(tf, case, names)] for case in cases.CASES]
    with open(os.path.join(TESTS, "data_sources_goldens.json"), "w") as f:
        json.dump(recorded, f, indent=0)
        f.write("\n")
    print("recorded %d cases under TensorFlow %s" % (len(recorded), tf.__version__))


if __name__ == "__main__":
    main()
