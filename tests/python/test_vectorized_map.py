"""tf.vectorized_map against TensorFlow 2.21's recorded answers (vectorized_map/goldens.json,
from vectorized_map/cases.py by vectorized_map/record.py): values, dtypes, shapes, nesting, the
ops TF ran in a while_loop, static shapes with an unknown batch size, gradients through it,
and its errors."""

import json
import logging
import os

import numpy as np
import pytest

import graphfn as tf
from graphfn.parallel_for import rules

from vectorized_map.cases import CASES, ERRORS, GRADIENT_CASES, SETUP

with open(os.path.join(os.path.dirname(__file__), "vectorized_map", "goldens.json")) as _f:
    GOLDENS = json.load(_f)


def _setup(code):
    ns = {"tf": tf, "np": np}
    exec(SETUP + code, ns)
    return ns["fn"], ns["elems"]


def _check_leaf(actual, expected):
    assert actual.dtype.name == expected["dtype"]
    assert actual.shape.as_list() == expected["shape"]
    value = actual.numpy()
    if value.dtype.kind == "f":
        np.testing.assert_allclose(value, np.array(expected["value"], value.dtype), rtol=2e-5, atol=2e-5)
    else:
        np.testing.assert_array_equal(value, np.array(expected["value"]))


class _Warnings(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _fallbacks(run):
    handler = _Warnings()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    try:
        result = run()
    finally:
        logger.removeHandler(handler)
    return result, [m.split()[5] for m in handler.messages if m.startswith("Using a while_loop for converting")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_tensorflow(name):
    fn, elems = _setup(CASES[name])
    expected = GOLDENS["cases"][name]
    result, fallbacks = _fallbacks(lambda: tf.vectorized_map(fn, elems))
    assert repr(tf.nest.map_structure(lambda _: 0, result)) == expected["structure"]
    flat = tf.nest.flatten(result)
    assert len(flat) == len(expected["flat"])
    for actual, leaf in zip(flat, expected["flat"]):
        _check_leaf(actual, leaf)
    assert sorted(set(fallbacks)) == sorted(set(expected["fallbacks"]))


@pytest.mark.parametrize("name", sorted(CASES))
def test_in_function_matches_tensorflow(name):
    fn, elems = _setup(CASES[name])
    expected = GOLDENS["cases"][name]
    result = tf.function(lambda e: tf.vectorized_map(fn, e))(elems)
    for actual, leaf in zip(tf.nest.flatten(result), expected["flat"]):
        _check_leaf(actual, leaf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_static_shapes_with_unknown_batch_size(name):
    fn, elems = _setup(CASES[name])
    elems = tf.nest.map_structure(tf.convert_to_tensor, elems)
    specs = tf.nest.map_structure(lambda t: tf.TensorSpec([None] + t.shape.as_list()[1:], t.dtype), elems)
    traced = tf.function(lambda e: tf.vectorized_map(fn, e)).get_concrete_function(specs).structured_outputs
    static = [[t.shape.as_list(), t.dtype.name] for t in tf.nest.flatten(traced)]
    assert static == GOLDENS["cases"][name]["unknown_batch_static"]


@pytest.mark.parametrize("name", GRADIENT_CASES)
def test_gradient_through_vectorized_map(name):
    fn, elems = _setup(CASES[name])
    elems = tf.nest.map_structure(tf.convert_to_tensor, elems)
    flat = tf.nest.flatten(elems)
    with tf.GradientTape() as tape:
        tape.watch(flat)
        out = [t for t in tf.nest.flatten(tf.vectorized_map(fn, elems)) if t.dtype.is_floating]
        total = tf.add_n([tf.reduce_sum(t * tf.reshape(tf.cast(tf.range(tf.size(t)) % 3 - 1, t.dtype), tf.shape(t)))
                          for t in out])
    grads = tape.gradient(total, flat)
    for grad, expected in zip(grads, GOLDENS["gradients"][name]):
        if expected is None:
            assert grad is None
        else:
            _check_leaf(grad, expected)


def test_no_fallback_raises_tensorflow_error():
    kind, message = GOLDENS["errors"]["no_fallback"]
    with pytest.raises(ValueError) as info:
        eval(ERRORS["no_fallback"], {"tf": tf, "np": np, "i35": np.zeros([3, 5], np.int32)})
    assert kind == "ValueError"
    text = str(info.value)
    for part in ("No pfor vectorization defined for Unique", 'op: "Unique"',
                 "is_stacked=True, is_sparse_stacked=False)].Consider enabling the fallback_to_while_loop option to "
                 "pfor, which may run slower."):
        assert part in message and part in text


def test_scalar_elems_error():
    kind, message = GOLDENS["errors"]["scalar_elems"]
    with pytest.raises(IndexError, match=message):
        eval(ERRORS["scalar_elems"], {"tf": tf})
    assert kind == "IndexError"


def test_mismatched_first_dimensions_error():
    kind, message = GOLDENS["errors"]["mismatched_first_dims"]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        eval(ERRORS["mismatched_first_dims"], {"tf": tf})
    assert kind == "InvalidArgumentError"
    assert "indices[2] = 2 is not in [0, 2)" in message and "indices[2] = 2 is not in [0, 2)" in str(info.value)


def test_no_warning_when_warn_is_false():
    fn, elems = _setup(CASES["fallback_svd"])
    result, fallbacks = _fallbacks(lambda: tf.vectorized_map(fn, elems, warn=False))
    assert fallbacks == []
    _check_leaf(result, GOLDENS["cases"]["fallback_svd"]["flat"][0])


def test_vectorized_graph_has_no_loop():
    """The batched computation is straight-line: no While node (map_fn would make one)."""
    fn, elems = _setup(CASES["per_example_dense_grads"])
    graph = tf.function(lambda e: tf.vectorized_map(fn, e)).get_concrete_function(elems).graph
    types = {op.type for op in graph.get_operations()}
    assert not types & {"While", "StatelessWhile"}
    assert "BatchMatMulV2" in types


def test_every_rule_names_a_tensorflow_op():
    with open(os.path.join(os.path.dirname(__file__), "tf_raw_op_signatures.json")) as f:
        tf_ops = set(json.load(f))
    assert sorted(set(rules.RULES) - tf_ops) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_with_unknown_batch_size(name):
    """The transform with a batch size known only when the function runs."""
    fn, elems = _setup(CASES[name])
    elems = tf.nest.map_structure(tf.convert_to_tensor, elems)
    specs = tf.nest.map_structure(lambda t: tf.TensorSpec([None] + t.shape.as_list()[1:], t.dtype), elems)
    result = tf.function(lambda e: tf.vectorized_map(fn, e), input_signature=[specs])(elems)
    for actual, leaf in zip(tf.nest.flatten(result), GOLDENS["cases"][name]["flat"]):
        _check_leaf(actual, leaf)


def test_fallback_loops_over_the_node_alone():
    """As TF: the op without a rule runs in a while_loop, the rest of fn stays batched."""
    fn, elems = _setup(CASES["fallback_partial"])
    graph = tf.function(lambda e: tf.vectorized_map(fn, e)).get_concrete_function(tf.constant(elems)).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count("StatelessWhile") == 1
    assert "Svd" in types  # inside the loop's body graph, and once in the traced example


def test_random_ops_draw_per_example_without_a_loop():
    """As TF's pfor: a random op is batched (one draw of [n] + shape), so examples differ."""
    result, fallbacks = _fallbacks(lambda: tf.vectorized_map(lambda x: x + tf.random.uniform([2]), tf.zeros([3, 2])))
    rows = result.numpy()
    assert fallbacks == [] and rows.shape == (3, 2)
    assert len({tuple(r) for r in rows}) == 3
