"""Records data_fn_cases.CASES in TensorFlow 2.21 into data_fn_goldens.json:
    ~/tf/bin/python tests/python/record_data_fn_goldens.py
Each entry is [expression, "ok", repr] or [expression, exception class name, message]."""

import json
import os
import sys

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
import data_fn_cases  # noqa: E402

namespace = {"tf": tf, "np": np}
exec(data_fn_cases.PRELUDE, namespace)
recorded = []
for expr in data_fn_cases.CASES:
    try:
        recorded.append([expr, "ok", repr(eval(expr, namespace))])
    except Exception as e:  # noqa: BLE001 - the error is the recording
        recorded.append([expr, type(e).__name__, str(e)])
with open(os.path.join(os.path.dirname(__file__), "data_fn_goldens.json"), "w") as f:
    json.dump(recorded, f, indent=1)
print(len(recorded), "cases recorded")
