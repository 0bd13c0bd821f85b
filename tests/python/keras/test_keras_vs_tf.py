"""Every case of keras_cases.py under graphfn against TensorFlow's results (expected_tf.json,
from make_expected.py): per-step training losses within 1e-5, single layers, activations,
losses, metrics and optimizer steps within 1e-6, names, paths and reprs exactly."""

import json
import math
import os
import sys

import pytest

import graphfn as tf

sys.path.insert(0, os.path.dirname(__file__))
import keras_cases  # noqa: E402
from keras_cases import CASES  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "expected_tf.json")) as _f:
    _EXPECTED = json.load(_f)

# Training runs 20 steps of float32 arithmetic: allow 1e-5 (absolute and relative) there.
_TOLERANCE = {name: 1e-5 for name in CASES if name.startswith(("train_", "fit_"))}
# graphfn's Tanh kernel (Eigen's tanh approximation) is a few ulps off TF's for |x| near 3, which
# tanh'(x) = 1 - tanh(x)^2 magnifies: 1.4e-6 absolute here.
_TOLERANCE["activation_gradients"] = 1e-5


def _compare(actual, expected, tol, path="result"):
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and sorted(actual) == sorted(expected), (path, actual, expected)
        for key in expected:
            _compare(actual[key], expected[key], tol, "%s[%r]" % (path, key))
    elif isinstance(expected, list):
        assert isinstance(actual, (list, tuple)) and len(actual) == len(expected), (path, actual, expected)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, tol, "%s[%d]" % (path, i))
    elif isinstance(expected, bool) or isinstance(expected, str) or expected is None:
        assert actual == expected, (path, actual, expected)
    else:
        assert math.isclose(float(actual), expected, rel_tol=tol, abs_tol=tol), (path, actual, expected)


def _jsonable(value):
    """The case's result as make_expected.py stored it (tuples become lists, ints stay)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_tensorflow(name):
    actual = _jsonable(CASES[name](tf, _EXPECTED["inputs"]))
    _compare(actual, _EXPECTED["cases"][name], _TOLERANCE.get(name, 1e-6))


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("train_")))
def test_training_with_a_traced_train_step_matches_tensorflow(name, monkeypatch):
    # The same 20 steps with `train_step` under graphfn.function: forward, tape gradient and
    # optimizer updates all in one graph; the losses must still be TF's within 1e-5.
    monkeypatch.setattr(keras_cases, "TRACE_TRAIN_STEP", True)
    actual = _jsonable(CASES[name](tf, _EXPECTED["inputs"]))
    _compare(actual, _EXPECTED["cases"][name], 1e-5)


def test_every_case_has_expected_values():
    assert sorted(_EXPECTED["cases"]) == sorted(CASES)
