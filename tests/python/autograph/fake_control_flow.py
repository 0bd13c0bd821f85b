"""A test-only stand-in for graphfn.ops.control_flow_ops (cond / while_loop) until the real
graph ops land: cond traces both branches and selects with `where`; while_loop unrolls a fixed
number of masked iterations. Values are right for small loops whose shapes do not change."""

import graphfn as tf
from graphfn.framework.tensor import SymbolicTensor
from graphfn.util import nest

UNROLL = 8


def _select(pred, a, b):
    return nest.pack_sequence_as(a, [tf.where(pred, x, y) for x, y in zip(nest.flatten(a), nest.flatten(b))])


def cond(pred, true_fn=None, false_fn=None, name=None):
    if not isinstance(pred, SymbolicTensor):
        return true_fn() if pred else false_fn()
    conv = lambda v: nest.map_structure(tf.convert_to_tensor, v)  # noqa: E731
    a, b = conv(true_fn()), conv(false_fn())
    return _select(pred, a, b)


def while_loop(cond, body, loop_vars, shape_invariants=None, maximum_iterations=None, name=None):
    loop_vars = tuple(loop_vars)
    if not any(isinstance(v, SymbolicTensor) for v in nest.flatten(loop_vars)) and not isinstance(
            cond(*loop_vars), SymbolicTensor):
        while cond(*loop_vars):
            loop_vars = tuple(body(*loop_vars))
        return loop_vars
    active = tf.convert_to_tensor(cond(*loop_vars))
    for _ in range(UNROLL):
        new = tuple(body(*loop_vars))
        loop_vars = _select(active, new, loop_vars)
        active = tf.logical_and(active, cond(*loop_vars))
    return loop_vars
