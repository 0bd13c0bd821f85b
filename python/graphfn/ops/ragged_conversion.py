"""Converting between ragged and dense tensors: RaggedTensor.from_tensor, to_tensor and
merge_dims, composed of dense ops (so they run in graphs and carry gradients to the values)."""

import graphfn as tf
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops.ragged_tensor import RaggedTensor, row_splits_to_segment_ids


def from_tensor(tensor, lengths, padding, ragged_rank, splits_dtype):
    if isinstance(tensor, RaggedTensor):
        raise TypeError("tensor must be a Tensor, got a RaggedTensor")
    tensor = tf.convert_to_tensor(tensor)
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError("Argument `ragged_rank` must be an int. Received ragged_rank=%s of type %s."
                        % (ragged_rank, type(ragged_rank).__name__))
    if ragged_rank <= 0:
        raise ValueError("Argument `ragged_rank` must be greater than 0. Received ragged_rank=%d." % ragged_rank)
    rank = tensor.shape.rank
    if rank is not None and rank <= ragged_rank:
        raise ValueError("Argument `ragged_rank` must be less than the rank of `tensor`. Received ragged_rank=%d, "
                         "rank(tensor)=%d." % (ragged_rank, rank))
    if splits_dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("row_splits_dtype must be int32 or int64")
    shape = tf.shape(tensor, out_type=splits_dtype)
    if ragged_rank > 1:
        # The innermost ragged dimension from the outer dimensions flattened, then the outer
        # dimensions as uniform rows.
        outer = shape[:ragged_rank]
        flat = tf.reshape(tensor, tf.concat([[-1], shape[ragged_rank:]], axis=0))
        if lengths is not None:
            lengths = tf.reshape(lengths, [-1])
        result = from_tensor(flat, lengths, padding, 1, splits_dtype)
        for axis in range(ragged_rank - 1, 0, -1):
            nrows = tf.reduce_prod(outer[:axis])
            splits = tf.range(nrows + 1, dtype=splits_dtype) * outer[axis]
            result = RaggedTensor.from_row_splits(result, splits, validate=False)
        return result
    nrows, ncols = shape[0], shape[1]
    if lengths is None and padding is None:
        values = tf.reshape(tensor, tf.concat([[-1], shape[2:]], axis=0))
        splits = tf.range(nrows + 1, dtype=splits_dtype) * ncols
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    if padding is not None:
        padding = tf.convert_to_tensor(padding, dtype=tensor.dtype)
        not_padding = tf.not_equal(tensor, padding)
        inner_axes = list(range(2, rank)) if rank is not None else None
        if inner_axes:
            not_padding = tf.reduce_any(not_padding, axis=inner_axes)
        positions = tf.range(1, ncols + 1, dtype=splits_dtype)
        lengths = tf.reduce_max(tf.cast(not_padding, splits_dtype) * positions, axis=1)
        lengths = tf.maximum(lengths, tf.zeros_like(lengths))
    else:
        lengths = tf.cast(tf.convert_to_tensor(lengths), splits_dtype)
        lengths = tf.minimum(lengths, ncols)
    mask = tf.sequence_mask(lengths, ncols)
    values = tf.boolean_mask(tensor, mask)
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)


def _coordinates(rt):
    """For each flat value, its index in the dense tensor: [row, col_1, ..., col_k] (int64)."""
    flat = rt.flat_values
    current = tf.range(tf.shape(flat, out_type=dtypes.int64)[0])
    columns = []
    for splits in reversed(rt.nested_row_splits):
        splits = tf.cast(splits, dtypes.int64)
        rowids = tf.gather(row_splits_to_segment_ids(splits), current)
        columns.insert(0, current - tf.gather(splits, rowids))
        current = rowids
    return tf.stack([current] + columns, axis=1)


def to_tensor(rt, default_value=None, shape=None):
    flat = rt.flat_values
    ragged_rank = rt.ragged_rank
    bounding = tf.cast(rt.bounding_shape(), dtypes.int64)
    coords = _coordinates(rt)
    if shape is not None:
        shape = TensorShape(shape) if not isinstance(shape, Tensor) else shape
        if isinstance(shape, TensorShape):
            if shape.rank is not None and rt.shape.rank is not None and shape.rank != rt.shape.rank:
                raise ValueError("Shapes %s and %s are incompatible" % (shape, rt.shape))
            dims = shape.dims
            if dims is not None:
                wanted = tf.stack([tf.constant(d, dtypes.int64) if d is not None else bounding[i]
                                   for i, d in enumerate(dims)])
                bounding = wanted
        else:
            bounding = tf.cast(shape, dtypes.int64)
        # Values outside the requested shape are dropped.
        outer = bounding[:ragged_rank + 1]
        keep = tf.reduce_all(coords < outer, axis=1)
        coords = tf.boolean_mask(coords, keep)
        flat = tf.boolean_mask(flat, keep)
        # Inner (uniform) dimensions keep the values' own sizes.
        bounding = tf.concat([outer, tf.shape(flat, out_type=dtypes.int64)[1:]], axis=0)
    if default_value is None:
        base = tf.zeros(bounding, flat.dtype)
    else:
        default = tf.convert_to_tensor(default_value, dtype=flat.dtype)
        base = tf.broadcast_to(default, bounding)
    result = tf.tensor_scatter_nd_update(base, coords, flat)
    static = _static_dense_shape(rt, shape)
    if static is not None and hasattr(result, "set_shape") and not hasattr(result, "numpy"):
        result.set_shape(static)
    return result


def _static_dense_shape(rt, shape):
    """The static shape of to_tensor's result in a graph: known rows, requested dims, inner dims."""
    dims = rt.shape.dims
    if dims is None:
        return None
    dims = [dims[0]] + [None] * rt.ragged_rank + list(rt.flat_values.shape.dims[1:] if
                                                      rt.flat_values.shape.rank is not None else [])
    if len(dims) != rt.shape.rank:
        return None
    if isinstance(shape, TensorShape) and shape.dims is not None:
        dims = [s if s is not None else d for s, d in zip(shape.dims, dims)]
    return TensorShape(dims)


def merge_dims(rt, outer_axis, inner_axis):
    rank = rt.shape.rank
    if rank is not None:
        for name, axis in (("outer_axis", outer_axis), ("inner_axis", inner_axis)):
            if not -rank <= axis < rank:
                raise ValueError("%s=%d out of bounds: expected %d<=%s<%d" % (name, axis, -rank, name, rank))
        outer_axis = outer_axis + rank if outer_axis < 0 else outer_axis
        inner_axis = inner_axis + rank if inner_axis < 0 else inner_axis
    if outer_axis > inner_axis:
        raise ValueError("Expected outer_axis (%d) to be less than or equal to inner_axis (%d)"
                         % (outer_axis, inner_axis))
    return _merge(rt, outer_axis, inner_axis)


def _merge(value, outer, inner):
    if outer == inner:
        return value
    if not isinstance(value, RaggedTensor):
        shape = tf.shape(value)
        return tf.reshape(value, tf.concat([shape[:outer], [-1], shape[inner + 1:]], axis=0))
    if outer == 0:
        return _merge(value.values, 0, inner - 1)
    if outer > 1:
        return value.with_values(_merge(value.values, outer - 1, inner - 1))
    # Axis 1 absorbs axis 2, then the rest one at a time.
    values = value.values
    if isinstance(values, RaggedTensor):
        splits = tf.gather(values.row_splits, value.row_splits)
        merged = RaggedTensor.from_row_splits(values.values, splits, validate=False)
    else:
        shape = tf.shape(values, out_type=value.row_splits_dtype)
        flat = tf.reshape(values, tf.concat([[-1], shape[2:]], axis=0))
        merged = RaggedTensor.from_row_splits(flat, value.row_splits * shape[1], validate=False)
    return _merge(merged, 1, inner - 1)
