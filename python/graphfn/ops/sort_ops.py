"""Sorting and sets: tf.sort, tf.argsort, tf.unique, tf.unique_with_counts.

TF's Python sorts with TopKV2 (negating the values for ASCENDING); graphfn has a sort kernel of its
own, StableSort (cpp/graphfn/ops/sort_ops.cc), which sorts the last axis stably in either
direction, so equal values keep their order as with TF (argsort is always stable)."""

import collections

from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import EagerTensor
from graphfn.ops import array_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export

_DIRECTIONS = ("ASCENDING", "DESCENDING")
# What TF's generated wrappers return (their reprs name the fields).
Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])
_SORTABLE = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32,
             dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.uint32, dtypes.uint64)


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in _DIRECTIONS:
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=%s"
                         % direction)
    axis_t = array_ops.to_tensor(axis)
    if not isinstance(axis_t, EagerTensor) or axis_t.shape.rank not in (None, 0):
        raise ValueError("Argument `axis` must be a constant scalar. Received: axis=%s." % (axis,))
    axis = int(axis_t.numpy())
    values = array_ops.to_tensor(values)
    array_ops.shape(values)[axis]  # TF's StridedSlice error for an axis the values do not have
    if values.dtype not in _SORTABLE and direction == "ASCENDING":
        ops.Neg(values)  # TF negates the values first: its error for other dtypes comes from Neg
    rank = array_ops.static_rank(values)
    if axis < 0 and rank is not None:
        axis += rank
    transposition = None
    if rank is None or axis != rank - 1:
        if rank is None:
            raise ValueError("sort along an axis other than the last needs a known rank")
        transposition = list(range(axis)) + [rank - 1] + list(range(axis + 1, rank - 1)) + [axis]
        values = array_ops.transpose(values, transposition)
    sorted_values, indices = ops.StableSort(values, descending=direction == "DESCENDING")
    result = indices if return_argsort else sorted_values
    if transposition is not None:
        result = array_ops.transpose(result, transposition)  # a swap of two axes is its own inverse
    return result


@tf_export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The values sorted along `axis` (a constant), ascending or descending."""
    with name_scope(name or "sort"):
        return _sort_or_argsort(values, axis, direction, False)


@tf_export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 positions that sort `values` along `axis`; equal values keep their order."""
    with name_scope(name or "argsort"):
        return _sort_or_argsort(values, axis, direction, True)


@tf_export("unique")
def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values of the 1-D x in order of first occurrence, and x[i]'s
    position in y."""
    return Unique(*node("Unique", name)(x, out_idx=dtypes.as_dtype(out_idx)))


@tf_export("unique_with_counts")
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): as unique, with how often each value occurs."""
    return UniqueWithCounts(*node("UniqueWithCounts", name)(x, out_idx=dtypes.as_dtype(out_idx)))
