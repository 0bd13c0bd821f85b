"""Tables of expressions evaluated after a SETUP program (ragged_cases.py, sparse_cases.py):
recorded from TensorFlow 2.21 by a family's record_*_goldens.py (run with ~/tf/bin/python) as
[expression, "ok", repr] or [expression, error type, message], and checked against graphfn by its
test_*_goldens.py. An expression "fn:<body>" is run inside tf.function: <body> is a lambda of one
parameter `fn_arg`, called with the SETUP's value named `fn_value`."""

import builtins
import json
import os

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))


def evaluate(tf_module, expr, namespace, fn_arg, fn_value):
    if expr.startswith("fn:"):
        fn = tf_module.function(eval("lambda %s: %s" % (fn_arg, expr[3:]), namespace))
        return fn(namespace[fn_value])
    return eval(expr, namespace)


def record(tf_module, cases, setup, fn_arg, fn_value, filename, message_of=str):
    """Evaluates every case under tf_module and writes the table to tests/python/<filename>."""
    namespace = {"tf": tf_module, "np": np}
    exec(setup, namespace)
    out = []
    for expr in cases:
        try:
            out.append([expr, "ok", repr(evaluate(tf_module, expr, namespace, fn_arg, fn_value))])
        except Exception as e:  # noqa: BLE001 (recording every error)
            out.append([expr, type(e).__name__, message_of(e)])
    with open(os.path.join(_HERE, filename), "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


def golden_tests(tf_module, setup, fn_arg, fn_value, filename, same_message):
    """The two parametrized tests of a recorded table; same_message(recorded, graphfn's) compares
    error texts (families differ in how much of TF's kernel text they keep)."""
    with open(os.path.join(_HERE, filename)) as f:
        recorded = json.load(f)
    results = [(e, v) for e, kind, v in recorded if kind == "ok"]
    errors = [(e, kind, v) for e, kind, v in recorded if kind != "ok"]

    @pytest.fixture(scope="module")
    def namespace():
        ns = {"tf": tf_module, "np": np}
        exec(setup, ns)
        return ns

    @pytest.mark.parametrize("expr, expected", results)
    def test_result_matches_tensorflow(namespace, expr, expected):
        assert repr(evaluate(tf_module, expr, namespace, fn_arg, fn_value)) == expected

    @pytest.mark.parametrize("expr, error, message", errors)
    def test_error_matches_tensorflow(namespace, expr, error, message):
        expected_type = getattr(tf_module.errors, error, None) or getattr(builtins, error, None) or eval(error)
        with pytest.raises(expected_type) as info:
            evaluate(tf_module, expr, namespace, fn_arg, fn_value)
        assert same_message(message, str(info.value)), (message, str(info.value))

    return namespace, test_result_matches_tensorflow, test_error_matches_tensorflow
