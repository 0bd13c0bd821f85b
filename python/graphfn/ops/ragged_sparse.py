"""Converting between ragged and sparse tensors: RaggedTensor.to_sparse and
RaggedTensor.from_sparse, composed of dense ops (so they run in graphs too)."""

from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import EagerTensor
from graphfn.ops import ragged_dense as dense
from graphfn.ops.check_ops import Assert
from graphfn.ops.control_dependency_ops import control_dependencies
from graphfn.ops.ragged_tensor import RaggedTensor
from graphfn.ops.sparse_tensor import SparseTensor

_SUMMARIZE = 3  # how many index entries TF's failed Assert shows


def to_sparse(rt, name=None):
    """The SparseTensor with rt's values at their (row, column, ...) coordinates; its dense
    shape is rt's bounding shape."""
    flat_values = rt.flat_values
    # The outer coordinates of each flat value, found level by level from the innermost
    # partition: a position's row is its value_rowid, its column the offset from the row start.
    position = dense.range(dense.shape(flat_values, out_type=dtypes.int64)[0], dtype=dtypes.int64)
    columns = []
    level = rt
    levels = []
    while isinstance(level, RaggedTensor):
        levels.append(level)
        level = level.values
    for level in reversed(levels):
        splits = dense.cast(level.row_splits, dtypes.int64)
        row = dense.gather(dense.cast(level.value_rowids(), dtypes.int64), position)
        columns.append(position - dense.gather(splits, row))
        position = row
    columns.append(position)
    indices = dense.stack(columns[::-1], axis=1)
    values = flat_values
    if flat_values.shape.rank != 1:
        # Uniform inner dimensions: one entry per element, in row-major order.
        inner = dense.where(dense.ones_like(flat_values, dtype=dtypes.bool))
        indices = dense.concat([dense.gather(indices, inner[:, 0]), inner[:, 1:]], axis=1)
        values = dense.reshape(flat_values, [-1])
    return SparseTensor(indices, values, rt.bounding_shape(out_type=dtypes.int64))


def from_sparse(st_input, name=None, row_splits_dtype=dtypes.int64):
    """The RaggedTensor of a rank-2 SparseTensor whose entries fill each row from column 0
    ("right-ragged"); rows without entries are empty."""
    if not isinstance(st_input, SparseTensor):
        raise TypeError("Argument `st_input` must be of type SparseTensor, but is of type %s."
                        % type(st_input).__name__)
    row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
    rank_from_shape = st_input.dense_shape.shape[0] if st_input.dense_shape.shape.rank else None
    rank_from_indices = st_input.indices.shape[1] if st_input.indices.shape.rank == 2 else None
    if rank_from_shape != 2 and rank_from_indices != 2:
        raise ValueError("rank(st_input) must be 2.")
    with control_dependencies(_check_right_ragged(st_input.indices)):
        rowids = dense.cast(st_input.indices[:, 0], row_splits_dtype)
        nrows = dense.cast(st_input.dense_shape[0], row_splits_dtype)
        return RaggedTensor.from_value_rowids(st_input.values, rowids, nrows, validate=False)


def _check_right_ragged(indices):
    """TF's check that each row's entries sit in columns 0, 1, 2, ... (sorted, no gaps). Eagerly
    it raises TF's error; in a graph it returns the Assert to depend on."""
    prefix, suffix = indices[:, :-1], indices[:, -1]
    starts_row = dense.reduce_any(dense.not_equal(prefix[1:], prefix[:-1]), axis=1)
    next_ok = dense.where(starts_row, dense.equal(suffix[1:], 0), dense.equal(suffix[1:], suffix[:-1] + 1))
    ok = dense.logical_and(dense.reduce_all(dense.equal(suffix[:1], 0)), dense.reduce_all(next_ok))
    if isinstance(ok, EagerTensor):
        if not ok.numpy():
            shown = [str(v) for v in indices.numpy().reshape(-1)[:_SUMMARIZE + 1]]
            data = ", ".join(shown[:_SUMMARIZE]) + (", ..." if len(shown) > _SUMMARIZE else "")
            raise errors.InvalidArgumentError(
                None, None, "Expected '%s' to be true. Summarized data: b'SparseTensor is not right-ragged'\n"
                "b'SparseTensor.indices ='\n%s" % (ok, data))
        return []
    return [Assert(ok, ["SparseTensor is not right-ragged", "SparseTensor.indices =", indices])]


def _to_sparse_method(self, name=None):
    return to_sparse(self, name)


def _from_sparse_method(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
    return from_sparse(st_input, name, row_splits_dtype)


RaggedTensor.to_sparse = _to_sparse_method
RaggedTensor.from_sparse = classmethod(_from_sparse_method)
