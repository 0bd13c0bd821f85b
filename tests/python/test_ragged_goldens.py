"""RaggedTensor against TF 2.21: each expression of ragged_cases.py gives TF's repr, or TF's
error type and message (tests/python/ragged_goldens.json, recorded with
record_ragged_goldens.py under ~/tf/bin/python), eagerly and inside tf.function."""

import json
import os

import numpy as np
import pytest

import graphfn as tf
from ragged_cases import SETUP
from record_ragged_goldens import evaluate

with open(os.path.join(os.path.dirname(__file__), "ragged_goldens.json")) as _f:
    _RECORDED = json.load(_f)
RESULTS = [(e, v) for e, kind, v in _RECORDED if kind == "ok"]
ERRORS = [(e, kind, v) for e, kind, v in _RECORDED if kind != "ok"]


@pytest.fixture(scope="module")
def namespace():
    ns = {"tf": tf, "np": np}
    exec(SETUP, ns)
    return ns


@pytest.mark.parametrize("expr, expected", RESULTS)
def test_result_matches_tensorflow(namespace, expr, expected):
    assert repr(evaluate(tf, expr, namespace)) == expected


# TF names a graph op node in some messages ("{{function_node __wrapped__RaggedRange_...}}");
# the text is compared from its first line on, where graphfn's assertion texts stop early.
@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_error_matches_tensorflow(namespace, expr, error, message):
    with pytest.raises(getattr(tf.errors, error, None) or getattr(__builtins__, error, None) or eval(error)) as info:
        evaluate(tf, expr, namespace)
    assert message.split("\n")[0] in str(info.value)
