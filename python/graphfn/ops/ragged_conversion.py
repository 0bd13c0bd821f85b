"""Converting between ragged and dense tensors: RaggedTensor.from_tensor, to_tensor and
merge_dims, composed of dense ops (so they run in graphs and carry gradients to the values)."""

from graphfn.ops import ragged_dense as dense
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops.ragged_tensor import RaggedTensor, row_splits_to_segment_ids


def from_tensor(tensor, lengths, padding, ragged_rank, splits_dtype):
    if isinstance(tensor, RaggedTensor):
        raise TypeError("tensor must be a Tensor, got a RaggedTensor")
    tensor = dense.convert_to_tensor(tensor)
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
    shape = dense.shape(tensor, out_type=splits_dtype)
    if ragged_rank > 1:
        # The innermost ragged dimension from the outer dimensions flattened, then the outer
        # dimensions as uniform rows.
        outer = shape[:ragged_rank]
        flat = dense.reshape(tensor, dense.concat([[-1], shape[ragged_rank:]], axis=0))
        if lengths is not None:
            lengths = dense.reshape(lengths, [-1])
        result = from_tensor(flat, lengths, padding, 1, splits_dtype)
        for axis in range(ragged_rank - 1, 0, -1):
            nrows = dense.reduce_prod(outer[:axis])
            splits = dense.range(nrows + 1, dtype=splits_dtype) * outer[axis]
            result = RaggedTensor.from_row_splits(result, splits, validate=False)
        return result
    nrows, ncols = shape[0], shape[1]
    if lengths is None and padding is None:
        values = dense.reshape(tensor, dense.concat([[-1], shape[2:]], axis=0))
        splits = dense.range(nrows + 1, dtype=splits_dtype) * ncols
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    if padding is not None:
        padding = dense.convert_to_tensor(padding, dtype=tensor.dtype)
        not_padding = dense.not_equal(tensor, padding)
        inner_axes = list(range(2, rank)) if rank is not None else None
        if inner_axes:
            not_padding = dense.reduce_any(not_padding, axis=inner_axes)
        positions = dense.range(1, ncols + 1, dtype=splits_dtype)
        lengths = dense.reduce_max(dense.cast(not_padding, splits_dtype) * positions, axis=1)
        lengths = dense.maximum(lengths, dense.zeros_like(lengths))
    else:
        lengths = dense.cast(dense.convert_to_tensor(lengths), splits_dtype)
        lengths = dense.minimum(lengths, ncols)
    mask = dense.sequence_mask(lengths, ncols)
    values = dense.boolean_mask(tensor, mask)
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)


def _coordinates(rt):
    """For each flat value, its index in the dense tensor: [row, col_1, ..., col_k] (int64)."""
    flat = rt.flat_values
    current = dense.range(dense.shape(flat, out_type=dtypes.int64)[0])
    columns = []
    for splits in reversed(rt.nested_row_splits):
        splits = dense.cast(splits, dtypes.int64)
        rowids = dense.gather(row_splits_to_segment_ids(splits), current)
        columns.insert(0, current - dense.gather(splits, rowids))
        current = rowids
    return dense.stack([current] + columns, axis=1)


def _padded(value, default):
    """A ragged (or dense) value as a dense tensor: each row gathered into a row of the longest
    row's length, the missing entries taken from `default` (a row appended to the values)."""
    if not isinstance(value, RaggedTensor):
        return value
    values = _padded(value.values, default)
    dtype = value.row_splits_dtype
    lengths = value.row_lengths()
    width = dense.reduce_max(dense.concat([lengths, dense.zeros([1], dtype)], axis=0))
    columns = dense.range(width, dtype=dtype)
    inside = dense.reshape(columns, [1, -1]) < dense.reshape(lengths, [-1, 1])
    nvals = dense.shape(values, out_type=dtype)[0]
    index = dense.where(inside, dense.reshape(value.row_starts(), [-1, 1]) + dense.reshape(columns, [1, -1]), nvals)
    filler = dense.broadcast_to(dense.cast(default, values.dtype) if default.dtype != values.dtype else default,
                                dense.concat([[1], dense.shape(values)[1:]], axis=0))
    return dense.gather(dense.concat([values, filler], axis=0), index)


def to_tensor(rt, default_value=None, shape=None):
    if shape is None:
        flat = rt.flat_values
        default = dense.zeros([], flat.dtype) if default_value is None else \
            dense.convert_to_tensor(default_value, dtype=flat.dtype)
        return _padded(rt, default)
    flat = rt.flat_values
    ragged_rank = rt.ragged_rank
    bounding = dense.cast(rt.bounding_shape(), dtypes.int64)
    coords = _coordinates(rt)
    if shape is not None:
        shape = TensorShape(shape) if not isinstance(shape, Tensor) else shape
        if isinstance(shape, TensorShape):
            if shape.rank is not None and rt.shape.rank is not None and shape.rank != rt.shape.rank:
                raise ValueError("Shapes %s and %s are incompatible" % (shape, rt.shape))
            dims = shape.dims
            if dims is not None:
                wanted = dense.stack([dense.constant(d, dtypes.int64) if d is not None else bounding[i]
                                   for i, d in enumerate(dims)])
                bounding = wanted
        else:
            bounding = dense.cast(shape, dtypes.int64)
        # Values outside the requested shape are dropped.
        outer = bounding[:ragged_rank + 1]
        keep = dense.reduce_all(coords < outer, axis=1)
        coords = dense.boolean_mask(coords, keep)
        flat = dense.boolean_mask(flat, keep)
        # Inner (uniform) dimensions keep the values' own sizes.
        bounding = dense.concat([outer, dense.shape(flat, out_type=dtypes.int64)[1:]], axis=0)
    if default_value is None:
        base = dense.zeros(bounding, flat.dtype)
    else:
        default = dense.convert_to_tensor(default_value, dtype=flat.dtype)
        base = dense.broadcast_to(default, bounding)
    result = dense.tensor_scatter_nd_update(base, coords, flat)
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
        shape = dense.shape(value)
        return dense.reshape(value, dense.concat([shape[:outer], [-1], shape[inner + 1:]], axis=0))
    if outer == 0:
        return _merge(value.values, 0, inner - 1)
    if outer > 1:
        return value.with_values(_merge(value.values, outer - 1, inner - 1))
    # Axis 1 absorbs axis 2, then the rest one at a time.
    values = value.values
    if isinstance(values, RaggedTensor):
        splits = dense.gather(values.row_splits, value.row_splits)
        merged = RaggedTensor.from_row_splits(values.values, splits, validate=False)
    else:
        shape = dense.shape(values, out_type=value.row_splits_dtype)
        flat = dense.reshape(values, dense.concat([[-1], shape[2:]], axis=0))
        merged = RaggedTensor.from_row_splits(flat, value.row_splits * shape[1], validate=False)
    return _merge(merged, 1, inner - 1)


def _from_tensor_method(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                        row_splits_dtype=dtypes.int64):
    """RaggedTensor.from_tensor: rows of a dense tensor, trimmed by `lengths` or trailing `padding`."""
    return from_tensor(tensor, lengths, padding, ragged_rank, dtypes.as_dtype(row_splits_dtype))


def _to_tensor_method(self, default_value=None, name=None, shape=None):
    """RaggedTensor.to_tensor: a dense tensor, short rows padded with `default_value`."""
    return to_tensor(self, default_value, shape)


def _merge_dims_method(self, outer_axis, inner_axis):
    """RaggedTensor.merge_dims: dimensions outer_axis..inner_axis merged into one."""
    return merge_dims(self, outer_axis, inner_axis)


RaggedTensor.from_tensor = classmethod(_from_tensor_method)
RaggedTensor.to_tensor = _to_tensor_method
RaggedTensor.merge_dims = _merge_dims_method
