"""Records the shape/indexing/sorting golden tables from TensorFlow 2.21:

    PYTHONPATH=tests/python ~/tf/bin/python tools/record_shape_index_goldens.py

runs every expression of tests/python/shape_index_cases.py with `tf` = TensorFlow and writes its
repr, or its error's type and message, to tests/python/shape_index_goldens.json."""

import json
import os
import sys

import tensorflow as tf

import shape_index_cases
from shape_index_golden_helpers import core_message, make_namespace

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "python", "shape_index_goldens.json")


def record(expressions):
    namespace = make_namespace(tf)
    rows = {}
    for expr in expressions:
        try:
            rows[expr] = {"repr": repr(eval(expr, dict(namespace)))}
        except Exception as e:  # noqa: BLE001 (recording whatever TF raises)
            rows[expr] = {"error": type(e).__name__, "message": core_message(str(e))}
    return rows


def main():
    tables = {name: record(getattr(shape_index_cases, name))
              for name in dir(shape_index_cases) if name.isupper()}
    with open(OUT, "w") as f:
        json.dump(tables, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.normpath(OUT), file=sys.stderr)


if __name__ == "__main__":
    main()
