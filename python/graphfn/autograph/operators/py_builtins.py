"""Overloads of Python builtins for converted code: `range(tensor)` is tf.range, `len(tensor)`
is static when the first dimension is known, `abs`/`int`/`float` of a tensor are ops."""

import builtins

from graphfn.framework import dtypes
from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.ops import array_ops, math_ops


def range_info(tensor):
    """(start, limit, delta) of a graph tensor made by tf.range (a Range op), else None: a loop
    over it counts from `start` without computing the range, and an empty range leaves the
    iterate at `start` (AutoGraph's documented deviation from Python)."""
    if not isinstance(tensor, SymbolicTensor) or tensor.op.type != "Range":
        return None
    start, limit, delta = tensor.op.inputs
    return start, limit, delta


def range_(start_or_stop, stop=None, step=None):
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if any(isinstance(a, Tensor) for a in args):
        if stop is None:
            return array_ops.range_(start_or_stop)
        return array_ops.range_(start_or_stop, stop, 1 if step is None else step)
    return builtins.range(*args)


def len_(s):
    if isinstance(s, SymbolicTensor):
        dims = s.shape.dims
        if dims is not None and dims and dims[0] is not None:
            return dims[0]
        if dims is not None and not dims:
            raise ValueError("len requires a non-scalar tensor, got one of shape %s" % (s.shape,))
        return array_ops.shape(s)[0]
    return len(s)


def abs_(x):
    if isinstance(x, Tensor):
        return math_ops.abs(x)
    return abs(x)


def int_(x=0, *args):
    if isinstance(x, Tensor):
        return math_ops.cast(x, dtypes.int32)
    return int(x, *args)


def float_(x=0.0):
    if isinstance(x, Tensor):
        return math_ops.cast(x, dtypes.float32)
    return float(x)


BUILTIN_OVERLOADS = {builtins.range: range_, builtins.len: len_, builtins.abs: abs_, builtins.int: int_,
                     builtins.float: float_}
