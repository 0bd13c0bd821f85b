"""tf.ragged.constant (nested Python lists -> RaggedTensor) and tf.ragged.range."""

import numpy as np

import graphfn as tf
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
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
        return tf.constant(pylist, dtype)
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
    with tf.name_scope("RaggedConstant"):
        result = _flat_values(rows, dtype, inner_shape, scalar_depth, ragged_rank)
        for splits in reversed(nested_splits):
            result = RaggedTensor._from_splits(result, tf.constant(splits, row_splits_dtype))
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
                values = tf.constant(items, dtype)
                return tf.broadcast_to(tf.reshape(values, [-1] + [1] * len(inner_shape)), [len(items)] + list(inner_shape))
            raise ValueError("Too many elements provided.")
        item_shape = inner_shape
    if not items:
        if item_shape is None:
            inner_rank = max(0, (scalar_depth or 0) - ragged_rank - 1)
            item_shape = (0,) * inner_rank
        return tf.zeros((0,) + tuple(item_shape), dtype or dtypes.float32) if (dtype or dtypes.float32) != dtypes.string \
            else tf.constant(np.zeros((0,) + tuple(item_shape), dtype=object), dtypes.string, name="values")
    return tf.constant(items, dtype, name="values")


def _dense(pylist, dtype, inner_shape):
    shape = _uniform_shape(pylist)
    if shape is None:
        raise ValueError("inner values have inconsistent shape")
    if not pylist:
        return tf.zeros((0,) + tuple(inner_shape or ()), dtype or dtypes.float32)
    return tf.constant(pylist, dtype)


# tf.ragged.range --------------------------------------------------------------------------------

def _op_error(message):
    device = "/job:localhost/replica:0/task:0/device:CPU:0"
    return errors.InvalidArgumentError(None, None, "{{function_node __wrapped__RaggedRange_device_%s}} %s "
                                       "[Op:RaggedRange] name: " % (device, message))


def _range_dtype(values, dtype):
    if dtype is not None:
        return dtypes.as_dtype(dtype)
    found = []
    for v in values:
        if isinstance(v, Tensor):
            found.append(v.dtype)
        else:
            found.append(tf.convert_to_tensor(v).dtype)
    for candidate in (dtypes.float64, dtypes.float32, dtypes.int64, dtypes.int32):
        if candidate in found:
            return candidate
    return found[0]


def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=dtypes.int64):
    """Row i is tf.range(starts[i], limits[i], deltas[i]); scalars apply to every row."""
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    dtype = _range_dtype((starts, limits, deltas), dtype)
    if dtype not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise TypeError("Value for attr 'T' of %s is not in the list of allowed values: bfloat16, float, double, "
                        "int32, int64" % dtype.name)
    starts, limits, deltas = [tf.cast(tf.convert_to_tensor(v), dtype) if isinstance(v, Tensor)
                              else tf.convert_to_tensor(v, dtype=dtype) for v in (starts, limits, deltas)]
    args = (starts, limits, deltas)
    for t in args:
        if t.shape.rank is not None and t.shape.rank > 1:
            raise _op_error("starts must be a scalar or vector") if t is starts else (
                _op_error("limits must be a scalar or vector") if t is limits else
                _op_error("deltas must be a scalar or vector"))
    sizes = {t.shape[0] for t in args if t.shape.rank == 1 and t.shape[0] is not None}
    if len(sizes) > 1:
        raise _op_error("starts, limits, and deltas must have the same shape")
    vector = next((t for t in args if t.shape.rank == 1), None)
    if vector is not None:
        n = tf.shape(vector)[0]
        starts, limits, deltas = [t if t.shape.rank == 1 else tf.fill([n], t) for t in args]
    else:
        starts, limits, deltas = [tf.reshape(t, [1]) for t in args]
    if hasattr(deltas, "numpy") and tf.executing_eagerly() and (deltas.numpy() == 0).any():
        raise _op_error("Requires delta != 0")
    if dtype.is_integer:
        up = tf.maximum((limits - starts + deltas - 1) // tf.where(deltas > 0, deltas, tf.ones_like(deltas)),
                        tf.zeros_like(deltas))
        down = tf.maximum((starts - limits - deltas - 1) // tf.where(deltas < 0, -deltas, tf.ones_like(deltas)),
                          tf.zeros_like(deltas))
        lengths = tf.where(deltas > 0, tf.where(starts < limits, up, tf.zeros_like(up)),
                           tf.where(starts > limits, down, tf.zeros_like(down)))
    else:
        lengths = tf.math.ceil(tf.abs((limits - starts) / deltas))
        lengths = tf.where(tf.logical_or(tf.logical_and(deltas > 0, starts < limits),
                                         tf.logical_and(deltas < 0, starts > limits)), lengths, tf.zeros_like(lengths))
    lengths = tf.cast(lengths, row_splits_dtype)
    splits = tf.concat([tf.zeros([1], row_splits_dtype), tf.cumsum(lengths)], axis=0)
    rowids = tf.repeat(tf.range(tf.shape(lengths, out_type=row_splits_dtype)[0], dtype=row_splits_dtype), lengths)
    positions = tf.range(splits[-1], dtype=row_splits_dtype) - tf.gather(splits, rowids)
    values = tf.gather(starts, rowids) + tf.cast(positions, dtype) * tf.gather(deltas, rowids)
    return RaggedTensor._from_splits(values, splits, cached_row_lengths=lengths, cached_value_rowids=rowids)
