"""Bad input never crashes the process: every registered op, called eagerly and while tracing
with wrong counts, dtypes, shapes and values, either works or raises a Python exception."""

import itertools
import zlib

import numpy as np
import pytest

import graphfn as tf
from graphfn import _core

VALUES = [
    None, 0, -1, 3, 2**62, 1.5, float("nan"), True, "s", b"\xff",
    [], [[]], [1, 2, 3], [[1, 2], [3]], [-1, 2], [2**40, 2**40],
    np.zeros((2, 0), np.float32), np.arange(6, dtype=np.int64).reshape(2, 3), np.array([True, False]),
    tf.constant(7), tf.constant([1.0, 2.0]), tf.constant([[1, 2], [3, 4]]), tf.constant(["a", "b"]),
]
ALLOWED = (tf.errors.OpError, TypeError, ValueError, OverflowError, IndexError, KeyError, MemoryError)
RESOURCE_OPS = {"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}


def calls(op_name):
    """Argument tuples for an op: every arity from 0 to 4, drawn from VALUES (the same draws in
    every run: str hashes change with PYTHONHASHSEED, CRC-32 does not)."""
    rng = np.random.default_rng(zlib.crc32(op_name.encode()))
    for arity in range(5):
        for _ in range(12):
            yield tuple(VALUES[i] for i in rng.integers(0, len(VALUES), arity))


@pytest.mark.parametrize("op_name", [n for n in _core.op_names() if n not in ("PrintV2",)])
def test_op_rejects_bad_input_without_crashing(op_name):
    op = _core.op(op_name)
    for args in itertools.islice(calls(op_name), 60):
        try:
            op(*args)
        except ALLOWED:
            pass
        graph = _core.Graph()
        _core.push_graph(graph)
        try:
            op(*args)
        except ALLOWED:
            pass
        finally:
            _core.pop_graph()


@pytest.mark.parametrize("op_name", sorted(RESOURCE_OPS))
def test_variable_ops_reject_non_handles(op_name):
    op = _core.op(op_name)
    with pytest.raises(ALLOWED):
        op(tf.constant(1), tf.constant(1), dtype=tf.int32)


def test_list_inputs_need_a_sequence():
    """A list input given something without a length raises TF's TypeError (texts from
    tf.raw_ops.Pack in TF 2.21); a rank-1 tensor is a sequence and is unpacked."""
    pack = _core.op("Pack")
    with pytest.raises(TypeError, match=r"^Expected list for 'values' argument to 'pack' Op, not "
                                        r"<tf.Tensor: shape=\(\), dtype=int32, numpy=7>\.$"):
        pack(tf.constant(7))
    with pytest.raises(TypeError, match=r"^Expected list for 'values' argument to 'pack' Op, not 7\.$"):
        pack(7)
    with pytest.raises(TypeError, match=r"^Expected list for 'values' argument to 'pack' Op, not <generator"):
        pack(x for x in [tf.constant(1)])
    assert pack(tf.constant([1, 2])).numpy().tolist() == [1, 2]
