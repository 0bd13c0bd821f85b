"""SparseTensor and the sparse ops against TF 2.21: each expression of sparse_cases.py gives
TF's repr, or TF's error type and message (tests/python/sparse_goldens.json, recorded with
record_sparse_goldens.py under ~/tf/bin/python), eagerly and inside tf.function; the raw ops'
cases check the kernels' values and messages."""

import json
import os

import numpy as np
import pytest

import graphfn as tf
from sparse_cases import SETUP
from record_sparse_goldens import evaluate

with open(os.path.join(os.path.dirname(__file__), "sparse_goldens.json")) as _f:
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


# The recorded text leaves out the node TF names in its kernels' messages; the whole message
# (several lines for SparseToDense's ordering error) must appear in graphfn's.
@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_error_matches_tensorflow(namespace, expr, error, message):
    with pytest.raises(getattr(tf.errors, error, None) or getattr(__builtins__, error, None) or eval(error)) as info:
        evaluate(tf, expr, namespace)
    assert message in str(info.value)
