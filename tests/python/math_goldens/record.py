"""Records TensorFlow 2.21's answers for the math op tests (test_math_*.py, test_segment_ops.py,
test_top_k.py): each case is an expression (its value, or its exception type and message), an
expression traced in a tf.function (its exception type and the line naming the failing node), or
a gradient (d sum(f(x)) / dx at x). Run with TF's Python; it rewrites <table>.json beside it:

    ~/tf/bin/python tests/python/math_goldens/record.py
"""

import json
import os
import re
import sys

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402  (the tables, shared with the tests)


def _value(v):
    """None, or dtype, shape and flat values (non-finite floats as "nan", "inf", "-inf"; strings decoded)."""
    if v is None:  # no gradient
        return {"none": True}
    if isinstance(v, tuple):  # TopKV2 and other tuples of tensors
        return {"tuple": [_value(x) for x in v]}
    a = v.numpy()
    values = []
    for x in a.reshape(-1).tolist():
        if isinstance(x, bytes):
            x = x.decode()
        elif isinstance(x, float) and not np.isfinite(x):
            x = repr(x)
        values.append(x)
    return {"dtype": v.dtype.name, "shape": list(a.shape), "values": values}


def record_expr(expr):
    try:
        return _value(eval(expr, {"tf": tf, "np": np}))
    except Exception as e:  # noqa: BLE001 (the exception is what is recorded)
        return {"error": type(e).__name__, "message": str(e)}


def _message_fragments(message):
    """What a function's error must say, without its file names, line numbers or function ids:
    the error text and the failing node."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if " for '{{node " in line:  # failed while building the graph: "<text> for '{{node X}} = ..."
            text, rest = line.split(" for '{{node ", 1)
            return [text + " for '{{node " + rest.split("}}", 1)[0] + "}}"]
        if line.startswith("[[{{node "):  # failed while running: the text, then "[[{{node X}}]]"
            text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", lines[i - 1])
            return [text, line.split("]]", 1)[0] + "]]"]
    return [lines[-1]]


def record_graph_error(expr):
    """The exception of `expr` traced in a tf.function: its type and message fragments."""
    try:
        tf.function(lambda: eval(expr, {"tf": tf, "np": np}))()
    except Exception as e:  # noqa: BLE001 (the exception is what is recorded)
        return {"error": type(e).__name__, "fragments": _message_fragments(str(e))}
    return {"error": None}


def record_grad(fn, x, dtype):
    x = tf.constant(x, dtype=dtype)
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(fn, {"tf": tf, "np": np})(x)
        return _value(tape.gradient(y, x))
    except Exception as e:  # noqa: BLE001 (the exception is what is recorded)
        return {"error": type(e).__name__, "message": str(e)}


def main():
    for table, entries in cases.TABLES.items():
        out = {"exprs": {e: record_expr(e) for e in entries.get("exprs", ())},
               "graph_errors": {e: record_graph_error(e) for e in entries.get("graph_errors", ())},
               "grads": [{"fn": fn, "x": x, "dtype": dt, "expected": record_grad(fn, x, dt)}
                         for fn, x, dt in entries.get("grads", ())]}
        with open(os.path.join(HERE, table + ".json"), "w") as f:
            json.dump(out, f, indent=0, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
