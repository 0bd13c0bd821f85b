"""Records the tf.strings golden table from TensorFlow 2.21:

    PYTHONPATH=tests/python ~/tf/bin/python tools/record_strings_goldens.py

runs every expression of tests/python/strings_cases.py with `tf` = TensorFlow and writes its repr,
or its error's type and message, to tests/python/strings_goldens.json."""

import json
import os
import sys

import tensorflow as tf

import strings_cases
from strings_golden_helpers import core_message, make_namespace

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "python", "strings_goldens.json")


def main():
    namespace = make_namespace(tf)
    rows = {}
    for expr in strings_cases.CASES:
        try:
            rows[expr] = {"repr": repr(eval(expr, dict(namespace)))}
        except Exception as e:  # noqa: BLE001 (recording whatever TF raises)
            rows[expr] = {"error": type(e).__name__, "message": core_message(str(e))}
    with open(OUT, "w") as f:
        json.dump(rows, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print("wrote", os.path.normpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
