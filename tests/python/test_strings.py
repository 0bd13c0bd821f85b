"""tf.strings against TensorFlow 2.21's recorded values, printed text and errors: the table of
strings_cases.py, recorded into strings_goldens.json by tools/record_strings_goldens.py (eager
calls, calls inside tf.function, the raw ops behind the ragged results, static shapes)."""

import builtins
import json
import os

import pytest

import graphfn as tf
from strings_golden_helpers import make_namespace

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "strings_goldens.json")) as _f:
    GOLDENS = json.load(_f)
NAMESPACE = make_namespace(tf)
RESULTS = sorted(e for e, row in GOLDENS.items() if "repr" in row)
ERRORS = sorted(e for e, row in GOLDENS.items() if "error" in row)


@pytest.mark.parametrize("expr", RESULTS)
def test_result_matches_tensorflow(expr):
    assert repr(eval(expr, dict(NAMESPACE))) == GOLDENS[expr]["repr"]


@pytest.mark.parametrize("expr", ERRORS)
def test_error_matches_tensorflow(expr):
    row = GOLDENS[expr]
    error = getattr(tf.errors, row["error"], None) or getattr(builtins, row["error"])
    with pytest.raises(error) as info:
        eval(expr, dict(NAMESPACE))
    assert row["message"] in str(info.value)
