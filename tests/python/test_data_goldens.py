"""tf.data against TF 2.21: each expression's repr (element order, values, dtypes, shapes,
element_spec, cardinality) or its error type and message, recorded from TensorFlow 2.21 with
~/tf/bin/python (tests/python/data_goldens.json is the recording)."""

import json
import os

import numpy as np
import pytest

import graphfn as tf

with open(os.path.join(os.path.dirname(__file__), "data_goldens.json")) as _f:
    _RECORDED = json.load(_f)
RESULTS = [(e, v) for e, kind, v in _RECORDED if kind == "ok"]
ERRORS = [(e, kind, v) for e, kind, v in _RECORDED if kind != "ok"]


@pytest.mark.parametrize("expr, expected", RESULTS)
def test_result_matches_tensorflow(expr, expected):
    assert repr(eval(expr, {"tf": tf, "np": np})) == expected


# TF names its graph op node in these messages ("__wrapped__PaddedBatchDatasetV2_N_1_..."); graphfn
# has no graph op there, so the text after that node name is compared.
@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_error_matches_tensorflow(expr, error, message):
    with pytest.raises(getattr(tf.errors, error, None) or getattr(__builtins__, error, None) or eval(error)) as info:
        eval(expr, {"tf": tf, "np": np})
    text = message.split("}} ", 1)[-1]
    assert text in str(info.value)
