"""and/or/not: Python semantics for Python values, lazy graph conditionals for graph tensors."""

from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.ops import control_flow_ops, math_ops


def and_(a, b):
    """`a and b`; `a` and `b` are thunks so `b` is evaluated only when needed."""
    a_val = a()
    if isinstance(a_val, SymbolicTensor):
        return control_flow_ops.cond(a_val, b, lambda: a_val)
    return a_val and b()


def or_(a, b):
    a_val = a()
    if isinstance(a_val, SymbolicTensor):
        return control_flow_ops.cond(a_val, lambda: a_val, b)
    return a_val or b()


def not_(a):
    if isinstance(a, Tensor):
        return math_ops.logical_not(a)
    return not a
