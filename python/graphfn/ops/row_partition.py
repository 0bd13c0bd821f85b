"""tf.experimental.RowPartition: how one ragged dimension cuts a flat list of values into rows.

It is kept as its row_splits (row i is values[splits[i]:splits[i + 1]]), from which the other
encodings (row lengths, value row ids, nrows, nvals) are computed on demand; a uniform partition
(every row the same length) also keeps that length. DynamicRaggedShape (ragged_shape.py) is a
list of these plus the shape of the flat values. Not a composite tensor in graphfn (TF's is)."""

from graphfn.framework import dtypes
from graphfn.ops import ragged_dense as dense
from graphfn.ops.ragged_tensor import (
    _eager, convert_partition, row_splits_to_segment_ids, segment_ids_to_row_splits, splits_from_lengths)
from graphfn.util.tf_export import tf_export


def _partition_dtype(dtype, dtype_hint, tensor_like):
    """The dtype of a partition made from `tensor_like`: `dtype`, else the tensor's own int32/int64,
    else `dtype_hint`, else int64 (TF's rule)."""
    if dtype is not None:
        return dtypes.as_dtype(dtype)
    own = getattr(tensor_like, "dtype", None)
    if own in (dtypes.int32, dtypes.int64):
        return own
    return dtypes.as_dtype(dtype_hint) if dtype_hint is not None else dtypes.int64


@tf_export("experimental.RowPartition")
class RowPartition:
    """A partition of nvals values into nrows rows (TF's tf.experimental.RowPartition)."""

    def __init__(self, row_splits, uniform_row_length=None, nrows=None, internal=False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the factory methods instead "
                             "(e.g., RowPartition.from_row_lengths())")
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length
        self._nrows = nrows

    # Factories ---------------------------------------------------------------------------------

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        splits = convert_partition(row_splits, _partition_dtype(dtype, dtype_hint, row_splits), "row_splits")
        if validate and _eager(splits):
            values = splits.numpy()
            if values.ndim != 1 or values.size == 0 or values[0] != 0 or (values[1:] < values[:-1]).any():
                raise ValueError("row_splits must be a nonempty, sorted vector starting at 0, got %s" % values)
        return cls(splits, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        lengths = convert_partition(row_lengths, _partition_dtype(dtype, dtype_hint, row_lengths), "row_lengths")
        if validate and _eager(lengths) and (lengths.numpy() < 0).any():
            raise ValueError("row_lengths must be nonnegative, got %s" % lengths.numpy())
        splits = splits_from_lengths(lengths)
        return cls(splits, internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None, dtype_hint=None):
        dtype = _partition_dtype(dtype, dtype_hint, value_rowids)
        rowids = convert_partition(value_rowids, dtype, "value_rowids")
        return cls(segment_ids_to_row_splits(rowids, nrows), internal=True)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None, validate=True, dtype=None,
                                dtype_hint=None):
        dtype = _partition_dtype(dtype, dtype_hint, uniform_row_length)
        length = convert_partition(uniform_row_length, dtype, "uniform_row_length")
        if nrows is None:
            if nvals is None:
                raise ValueError("Either nvals or nrows must be given")
            nvals = convert_partition(nvals, dtype, "nvals")
            nrows = dense.where(length > 0, nvals // dense.maximum(length, 1), dense.constant(0, dtype))
        nrows = convert_partition(nrows, dtype, "nrows")
        splits = dense.range(nrows + 1, dtype=dtype) * length
        return cls(splits, uniform_row_length=length, nrows=nrows, internal=True)

    # Encodings ---------------------------------------------------------------------------------

    def row_splits(self):
        return self._row_splits

    def row_lengths(self):
        return self._row_splits[1:] - self._row_splits[:-1]

    def row_starts(self):
        return self._row_splits[:-1]

    def row_limits(self):
        return self._row_splits[1:]

    def value_rowids(self):
        return row_splits_to_segment_ids(self._row_splits)

    def nrows(self):
        if self._nrows is not None:
            return self._nrows
        return dense.shape(self._row_splits, out_type=self.dtype)[0] - 1

    def nvals(self):
        return self._row_splits[-1]

    def uniform_row_length(self):
        return self._uniform_row_length

    def is_uniform(self):
        return self._uniform_row_length is not None

    @property
    def dtype(self):
        return self._row_splits.dtype

    @property
    def static_nrows(self):
        n = self._row_splits.shape[0]
        return None if n is None else n - 1

    @property
    def static_nvals(self):
        return int(self._row_splits.numpy()[-1]) if _eager(self._row_splits) else None

    @property
    def static_uniform_row_length(self):
        length = self._uniform_row_length
        return int(length.numpy()) if length is not None and _eager(length) else None

    def with_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        if dtype == self.dtype:
            return self
        cast = lambda t: None if t is None else dense.cast(t, dtype)  # noqa: E731
        return RowPartition(cast(self._row_splits), cast(self._uniform_row_length), cast(self._nrows), internal=True)

    def __repr__(self):
        if self._uniform_row_length is not None:
            return "tf.RowPartition(nrows=%s, uniform_row_length=%s)" % (_text(self.nrows()),
                                                                        _text(self._uniform_row_length))
        return "tf.RowPartition(row_splits=%s)" % _text(self._row_splits)

    __str__ = __repr__


def _text(t):
    """A tensor as TF formats it in f-strings: its NumPy value eagerly, else the tensor's str."""
    return str(t.numpy()) if _eager(t) else str(t)
