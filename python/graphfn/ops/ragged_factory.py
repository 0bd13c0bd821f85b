"""tf.ragged.constant (nested Python lists -> RaggedTensor) and tf.ragged.range."""

import numpy as np

from graphfn.ops import ragged_dense as dense
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import ops
from graphfn.ops.ragged_tensor import RaggedTensor


def _is_list(value):
    return isinstance(value, (list, tuple))


def _scalar_depths(value, depth, depths, list_depths):
    """Collects the depths at which scalars occur (and the deepest list, for lists with none)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if _is_list(value):
        list_depths.add(depth + 1)
        for item in value:
            _scalar_depths(item, depth + 1, depths, list_depths)
    else:
        depths.add(depth)


def _uniform_shape(value):
    """The shape of a nested list of equal-length lists, or None when it is ragged."""
    if not _is_list(value):
        return ()
    shapes = {_uniform_shape(v) for v in value}
    if len(shapes) > 1 or None in shapes:
        return None
    return (len(value),) + (shapes.pop() if shapes else ())


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=dtypes.int64):
    """A RaggedTensor of a nested Python list (a dense Tensor when it has no ragged dimension)."""
    if isinstance(pylist, RaggedTensor):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    if isinstance(pylist, np.ndarray):
        pylist = pylist.tolist()
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if row_splits_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("row_splits_dtype must be int32 or int64")
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if not _is_list(pylist):
        if ragged_rank is not None and ragged_rank != 0:
            raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d" % (pylist, ragged_rank))
        if inner_shape is not None and inner_shape:
            raise ValueError("Invalid pylist=%r: incompatible with dim(inner_shape)=%d" % (pylist, len(inner_shape)))
        return dense.constant(pylist, dtype)
    depths, list_depths = set(), set()
    _scalar_depths(pylist, 0, depths, list_depths)
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    scalar_depth = depths.pop() if depths else None
    max_depth = scalar_depth if scalar_depth is not None else max(list_depths)
    if inner_shape is not None:
        inner_shape = tuple(inner_shape)
    if ragged_rank is None:
        if scalar_depth is None:  # only empty lists: as TF, the inner shape fills what is below
            ragged_rank = max(0, max_depth - 1 - (len(inner_shape) if inner_shape else 0))
        else:
            ragged_rank = max(0, scalar_depth - 1 - (len(inner_shape) if inner_shape else 0))
    elif not isinstance(ragged_rank, int) or ragged_rank < 0:
        raise ValueError("Invalid ragged_rank=%r: must be nonnegative" % (ragged_rank,))
    elif scalar_depth is not None and ragged_rank >= scalar_depth:
        raise ValueError("Invalid pylist=%r: incompatible with ragged_rank=%d" % (pylist, ragged_rank))
    if ragged_rank == 0:
        return _dense(pylist, dtype, inner_shape)
    nested_splits = []
    rows = list(pylist)
    for level in range(ragged_rank):
        lengths = []
        flat = []
        for row in rows:
            if isinstance(row, np.ndarray):
                row = row.tolist()
            if not _is_list(row):
                raise ValueError("pylist has scalar values depth %d, but ragged_rank=%d requires scalar value depth "
                                 "greater than %d" % (level + 1, ragged_rank, ragged_rank))
            lengths.append(len(row))
            flat.extend(row)
        nested_splits.append(np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]))
        rows = flat
    with dense.name_scope("RaggedConstant"):
        result = _flat_values(rows, dtype, inner_shape, scalar_depth, ragged_rank)
        for splits in reversed(nested_splits):
            result = RaggedTensor._from_splits(result, dense.constant(splits, row_splits_dtype))
    return result


def _flat_values(items, dtype, inner_shape, scalar_depth, ragged_rank):
    """The dense tensor below the ragged dimensions: every item must have one shape."""
    shapes = {_uniform_shape(item) for item in items}
    if None in shapes or len(shapes) > 1:
        raise ValueError("inner values have inconsistent shape")
    item_shape = shapes.pop() if shapes else None
    if inner_shape is not None:
        if item_shape is not None and item_shape != inner_shape:
            if item_shape == () and items:
                values = dense.constant(items, dtype)
                return dense.broadcast_to(dense.reshape(values, [-1] + [1] * len(inner_shape)), [len(items)] + list(inner_shape))
            raise ValueError("Too many elements provided.")
        item_shape = inner_shape
    if not items:
        if item_shape is None:
            inner_rank = max(0, (scalar_depth or 0) - ragged_rank - 1)
            item_shape = (0,) * inner_rank
        return dense.zeros((0,) + tuple(item_shape), dtype or dtypes.float32) if (dtype or dtypes.float32) != dtypes.string \
            else dense.constant(np.zeros((0,) + tuple(item_shape), dtype=object), dtypes.string, name="values")
    return dense.constant(items, dtype, name="values")


def _dense(pylist, dtype, inner_shape):
    shape = _uniform_shape(pylist)
    if shape is None:
        raise ValueError("inner values have inconsistent shape")
    if not pylist:
        return dense.zeros((0,) + tuple(inner_shape or ()), dtype or dtypes.float32)
    return dense.constant(pylist, dtype)


# tf.ragged.range --------------------------------------------------------------------------------

def _range_dtype(values, dtype):
    if dtype is not None:
        return dtypes.as_dtype(dtype)
    found = []
    for v in values:
        if isinstance(v, Tensor):
            found.append(v.dtype)
        else:
            found.append(dense.convert_to_tensor(v).dtype)
    for candidate in (dtypes.float64, dtypes.float32, dtypes.int64, dtypes.int32):
        if candidate in found:
            return candidate
    return found[0]


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    """Row i is tf.range(starts[i], limits[i], deltas[i]); scalars apply to every row (TF's
    RaggedRange op: kernels/ragged_kernels.cc)."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    dtype = _range_dtype((starts, limits, deltas), dtype)
    if dtype not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise TypeError("Value for attr 'T' of %s is not in the list of allowed values: bfloat16, float, double, "
                        "int32, int64" % dtype.name)
    starts, limits, deltas = [dense.cast(dense.convert_to_tensor(v), dtype) if isinstance(v, Tensor)
                              else dense.convert_to_tensor(v, dtype=dtype) for v in (starts, limits, deltas)]
    splits, values = ops.RaggedRange(starts, limits, deltas, Tsplits=row_splits_dtype)
    return RaggedTensor._from_splits(values, splits)
