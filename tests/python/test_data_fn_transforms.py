"""tf.data's function-based and structural transformations against TF 2.21: each expression of
data_fn_cases.py gives TF's repr (element order, values, dtypes, element_spec, cardinality,
reprs) or raises TF's exception type and message, as recorded in data_fn_goldens.json by
record_data_fn_goldens.py from TensorFlow 2.21."""

import json
import os
import sys

import numpy as np
import pytest

import graphfn as tf

sys.path.insert(0, os.path.dirname(__file__))
import data_fn_cases  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "data_fn_goldens.json")) as _f:
    _RECORDED = json.load(_f)
RESULTS = [(e, v) for e, kind, v in _RECORDED if kind == "ok"]
ERRORS = [(e, kind, v) for e, kind, v in _RECORDED if kind != "ok"]


def _namespace():
    namespace = {"tf": tf, "np": np}
    exec(data_fn_cases.PRELUDE, namespace)
    return namespace


def test_every_case_is_recorded():
    assert [e for e, _, _ in _RECORDED] == data_fn_cases.CASES


@pytest.mark.parametrize("expr, expected", RESULTS)
def test_result_matches_tensorflow(expr, expected):
    assert repr(eval(expr, _namespace())) == expected


# TF names its graph op node in these messages ("{{function_node __wrapped__ShardDataset_...}}");
# the text after it is compared, and the class TF's module path names is graphfn's own.
@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_error_matches_tensorflow(expr, error, message):
    with pytest.raises(getattr(tf.errors, error, None) or getattr(__builtins__, error, None) or eval(error)) as info:
        eval(expr, _namespace())
    # (TF's own module path once graphfn is installed as tensorflow, which tf.keras does in-process.)
    text = message.split("}} ", 1)[-1].replace("tensorflow.python.data.ops.dataset_ops", tf.data.Dataset.__module__)
    assert text in str(info.value)
