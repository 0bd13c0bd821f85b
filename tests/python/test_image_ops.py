"""tf.image against TensorFlow 2.21's recorded results (image_cases.py, image_goldens.json):
values, dtypes and shapes eagerly and inside tf.function, and TF's exception types and messages."""

import json
import os
import re
import sys

import numpy as np
import pytest

import graphfn as tf
from graphfn.ops._op_table import ops

sys.path.insert(0, os.path.dirname(__file__))
import image_cases  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "image_goldens.json")) as _f:
    GOLDENS = json.load(_f)


class _RawOps:
    """tf.raw_ops.<Resize op>(images=..., size=..., **attrs) for the cases, on graphfn's op handles."""

    def __getattr__(self, name):
        def call(images, size, **attrs):
            return getattr(ops, name)(images, size, **attrs)
        return call


class _Namespace:
    """graphfn, plus raw_ops when graphfn has none yet."""

    def __getattr__(self, name):
        if name == "raw_ops" and not hasattr(tf, "raw_ops"):
            return _RawOps()
        return getattr(tf, name)


TF = _Namespace()


def _check(name, value):
    expected = GOLDENS["results"][name]
    assert value.dtype.name == expected["dtype"]
    assert list(value.shape) == expected["shape"]
    want = np.asarray(expected["value"])
    got = np.asarray(value.numpy(), np.float64)
    if value.dtype.is_integer:
        # Float -> int conversions may land one step apart where TF's float rounding differs.
        np.testing.assert_allclose(got, want, atol=1)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("name", sorted(image_cases.CASES))
def test_eager_matches_tensorflow(name):
    _check(name, image_cases.CASES[name](TF))


@pytest.mark.parametrize("name", image_cases.GRAPH_CASES)
def test_function_matches_tensorflow(name):
    case = image_cases.CASES[name]
    _check(name, tf.function(lambda: case(TF))())


def _core_message(text):
    """TF's message without the eager wrapper's "{{function_node ...}} " and " [Op:X] name: "."""
    text = re.sub(r"^\{\{function_node [^}]*\}\} ", "", text)
    return re.sub(r" \[Op:\w+\]( name: .*)?$", "", text, flags=re.S).split("\n")[0]


@pytest.mark.parametrize("name", sorted(image_cases.ERRORS))
def test_errors_match_tensorflow(name):
    expected = GOLDENS["errors"][name]
    with pytest.raises(Exception) as info:
        image_cases.ERRORS[name](TF)
    assert type(info.value).__name__ == expected["type"]
    assert _core_message(expected["message"]) in str(info.value)


@pytest.mark.parametrize("name", sorted(image_cases.SHAPE_CASES))
def test_traced_static_shape_matches_tensorflow(name):
    shape, case = image_cases.SHAPE_CASES[name]
    fn = tf.function(lambda x: case(TF, x))
    concrete = fn.get_concrete_function(tf.TensorSpec(shape, tf.float32))
    assert str(concrete.structured_outputs.shape) == GOLDENS["shapes"][name]
