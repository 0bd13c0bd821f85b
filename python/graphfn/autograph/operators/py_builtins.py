"""Overloads of Python builtins for converted code: `range(tensor)` is tf.range, `len(tensor)`
is static when the first dimension is known, `abs`/`int`/`float` of a tensor are ops."""

import builtins
import collections

from graphfn.framework import dtypes
from graphfn.framework.tensor import SymbolicTensor, Tensor

# Graph tensors produced by tf.range in converted code -> (start, delta), so that `for i in
# tf.range(...)` counts without gathering, and an empty range leaves `i` at `start` (AutoGraph's
# documented deviation). Bounded: only the most recent ranges matter (the loop follows the call).
_ranges = collections.OrderedDict()


def note_range(result, start, limit, delta):
    if isinstance(result, SymbolicTensor):
        _ranges[id(result)] = (result, 0 if limit is None else start, delta)
        while len(_ranges) > 64:
            _ranges.popitem(last=False)
    return result


def range_info(tensor):
    """(start, delta) as tensors of the range's dtype, made when a loop needs them."""
    entry = _ranges.get(id(tensor))
    if entry is None or entry[0] is not tensor:
        return None
    from graphfn.ops import array_ops, math_ops
    values = []
    for v in entry[1:]:
        v = v if isinstance(v, Tensor) else array_ops.convert_to_tensor(v)
        values.append(v if v.dtype == tensor.dtype else math_ops.cast(v, tensor.dtype))
    return tuple(values)


def tf_range(start, limit=None, delta=1, dtype=None, name="range"):
    from graphfn.ops import array_ops
    return note_range(array_ops.range_(start, limit, delta, dtype, name), start, limit, delta)


def range_(start_or_stop, stop=None, step=None):
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if any(isinstance(a, Tensor) for a in args):
        if stop is None:
            return tf_range(start_or_stop)
        return tf_range(start_or_stop, stop, 1 if step is None else step)
    return builtins.range(*args)


def len_(s):
    if isinstance(s, SymbolicTensor):
        dims = s.shape.dims
        if dims is not None and dims and dims[0] is not None:
            return dims[0]
        if dims is not None and not dims:
            raise ValueError("len requires a non-scalar tensor, got one of shape %s" % (s.shape,))
        from graphfn.ops import array_ops
        return array_ops.shape(s)[0]
    return len(s)


def abs_(x):
    if isinstance(x, Tensor):
        from graphfn.ops import math_ops
        return math_ops.abs(x)
    return abs(x)


def int_(x=0, *args):
    if isinstance(x, Tensor):
        from graphfn.ops import math_ops
        return math_ops.cast(x, dtypes.int32)
    return int(x, *args)


def float_(x=0.0):
    if isinstance(x, Tensor):
        from graphfn.ops import math_ops
        return math_ops.cast(x, dtypes.float32)
    return float(x)


BUILTIN_OVERLOADS = {builtins.range: range_, builtins.len: len_, builtins.abs: abs_, builtins.int: int_,
                     builtins.float: float_}
