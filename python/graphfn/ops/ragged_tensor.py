"""tf.RaggedTensor and tf.RaggedTensorSpec: tensors with variable-length (ragged) dimensions.

A RaggedTensor is `values` (a Tensor, or a RaggedTensor for more ragged dimensions) cut into
rows by `row_splits` (row i is values[row_splits[i]:row_splits[i + 1]]). It is a composite tensor
(framework/type_spec.py): its components are [flat_values, row_splits of each ragged dimension],
so functions trace it by its RaggedTensorSpec and tf.nest(expand_composites=True) sees those
tensors. Operations on ragged tensors (ragged_ops.py) work on flat_values and the row splits
with dense ops, eagerly and in graphs, so gradients reach flat_values.

The class is completed by the modules that use it: ragged_conversion.py adds from_tensor,
to_tensor and merge_dims, ragged_getitem.py indexing, ragged_ops.py the operators; import
graphfn.ops.ragged (all of them) to use RaggedTensor. The public names load it on first use
(graphfn/ops/ragged_names.py)."""

import numpy as np

from graphfn.ops import ragged_dense as dense
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import BatchableTypeSpec

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def _eager(t):
    return isinstance(t, Tensor) and dense.executing_eagerly() and type(t).__name__ == "EagerTensor"


def convert_values(values, name="values"):
    if isinstance(values, RaggedTensor):
        return values
    return dense.convert_to_tensor(values)


def convert_partition(tensor, dtype=None, name="row_splits"):
    """A row-partition tensor (splits, lengths, rowids): int64 by default, int32 or int64."""
    if isinstance(tensor, Tensor):
        if tensor.dtype not in _SPLITS_DTYPES:
            raise ValueError("%s must have dtype int32 or int64" % name)
        if dtype is not None and tensor.dtype != dtype:
            tensor = dense.cast(tensor, dtype)
        return tensor
    if isinstance(tensor, np.ndarray) and tensor.dtype in (np.int32, np.int64) and dtype is None:
        return dense.convert_to_tensor(tensor)
    try:
        return dense.convert_to_tensor(tensor, dtype=dtype or dtypes.int64)
    except (TypeError, ValueError):
        t = dense.convert_to_tensor(tensor)
        if t.dtype not in _SPLITS_DTYPES:
            raise ValueError("%s must have dtype int32 or int64" % name) from None
        return t


def splits_from_lengths(lengths):
    """Row splits of rows `lengths` long: [2, 0, 3] -> [0, 2, 2, 5], in the lengths' dtype."""
    return dense.concat([dense.zeros([1], lengths.dtype), dense.cumsum(lengths)], axis=0)


def _check_rank1(t, name):
    rank = t.shape.rank
    if rank is not None and rank != 1:
        raise ValueError("Shape %s must have rank 1" % (t.shape,))


def _splits_for_values(values, splits):
    """Row splits whose dtype matches a ragged `values`' (TF requires them to agree)."""
    if isinstance(values, RaggedTensor) and values.row_splits.dtype != splits.dtype:
        raise ValueError("dtype mismatch: values.row_splits.dtype=%s, row_splits.dtype=%s; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes."
                         % (values.row_splits.dtype.name, splits.dtype.name))
    return splits


def _nvals(values):
    """The number of rows of `values` (its first dimension), as a tensor of splits' dtype."""
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return dense.shape(values, out_type=dtypes.int64)[0]


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _array_text(a):
    return "[%s]" % " ".join(str(v) for v in a)


def _validate_splits(values, splits, factory):
    """TF's checks of row splits, eagerly (graph-mode factories trust their inputs)."""
    if not (_eager(splits) and (isinstance(values, RaggedTensor) or _eager(values))):
        return
    s = splits.numpy()
    if s.size == 0:
        raise _invalid("Arguments to %s do not form a valid RaggedTensor:zero\nCondition x == y did not hold."
                       % factory)
    if s[0] != 0:
        raise _invalid("Arguments to %s do not form a valid RaggedTensor:zero\nCondition x == y did not hold.\n"
                       "First 1 elements of x:\n[%d]\nFirst 1 elements of y:\n[0]" % (factory, s[0]))
    diffs = np.diff(s)
    if (diffs < 0).any():
        raise _invalid("Arguments to %s do not form a valid RaggedTensor:monotonic.  \nCondition x >= 0 did not "
                       "hold element-wise:\nx (shape=(%d,) dtype=%s) = \n%s"
                       % (factory, diffs.size, splits.dtype.name, [str(d) for d in diffs]))
    _validate_nvals(values, s[-1])


def _validate_nvals(values, last):
    n = int(values.nrows().numpy()) if isinstance(values, RaggedTensor) else values.shape[0]
    if n is not None and last != n:
        raise _invalid("Arguments to _from_row_partition do not form a valid RaggedTensor\nCondition x == y did not "
                       "hold.\nFirst 1 elements of x:\n[%d]\nFirst 1 elements of y:\n[%d]" % (last, n))


class RaggedTensor(CompositeTensor):
    """A tensor with one or more ragged dimensions; make one with tf.ragged.constant or a
    RaggedTensor.from_* factory."""

    __array_priority__ = 100  # numpy_array + rt defers to RaggedTensor.__radd__

    def __init__(self, values, row_splits, cached_row_lengths=None, cached_value_rowids=None, cached_nrows=None,
                 uniform_row_length=None, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._row_lengths = cached_row_lengths
        self._value_rowids = cached_value_rowids
        self._nrows = cached_nrows
        self._uniform_row_length = uniform_row_length

    # Factories ---------------------------------------------------------------------------------

    @classmethod
    def _from_splits(cls, values, splits, **cached):
        return cls(values, _splits_for_values(values, splits), internal=True, **cached)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = convert_values(values)
        row_splits = convert_partition(row_splits, _values_splits_dtype(values))
        _check_rank1(row_splits, "row_splits")
        if validate:
            _validate_splits(values, row_splits, "from_row_splits")
        return cls._from_splits(values, row_splits)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        values = convert_values(values)
        row_lengths = convert_partition(row_lengths, _values_splits_dtype(values), "row_lengths")
        _check_rank1(row_lengths, "row_lengths")
        if validate and _eager(row_lengths) and (row_lengths.numpy() < 0).any():
            raise _invalid("Arguments to from_row_lengths do not form a valid RaggedTensor:nonnegative\n"
                           "Condition x >= 0 did not hold element-wise:")
        splits = splits_from_lengths(row_lengths)
        if validate and _eager(splits) and (isinstance(values, RaggedTensor) or _eager(values)):
            _validate_nvals(values, splits.numpy()[-1])
        return cls._from_splits(values, splits, cached_row_lengths=row_lengths)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        values = convert_values(values)
        value_rowids = convert_partition(value_rowids, _values_splits_dtype(values), "value_rowids")
        _check_rank1(value_rowids, "value_rowids")
        dtype = value_rowids.dtype
        if nrows is None:
            if value_rowids.shape.rank is not None and value_rowids.shape[0] == 0:
                nrows = dense.constant(0, dtype)
            else:
                last = dense.gather(value_rowids, dense.shape(value_rowids, out_type=dtype)[0] - 1)
                nrows = dense.cond(dense.size(value_rowids) > 0, lambda: last + 1, lambda: dense.constant(0, dtype)) \
                    if not _eager(value_rowids) else (last + 1 if int(dense.size(value_rowids)) else dense.constant(0, dtype))
        else:
            nrows = dense.cast(dense.convert_to_tensor(nrows), dtype)
        if validate and _eager(value_rowids):
            ids = value_rowids.numpy()
            diffs = np.diff(ids)
            if (ids < 0).any():
                raise _invalid("Arguments to from_value_rowids do not form a valid RowPartition:nonnegative\n"
                               "Condition x >= 0 did not hold element-wise:")
            if (diffs < 0).any():
                raise _invalid("Arguments to from_value_rowids do not form a valid RowPartition.  \nCondition x >= 0 "
                               "did not hold element-wise:\nx (shape=(%d,) dtype=%s) = \n%s"
                               % (diffs.size, dtype.name, [str(d) for d in diffs]))
            if ids.size and ids[-1] >= int(nrows.numpy()):
                raise _invalid("Arguments to from_value_rowids do not form a valid RowPartition:bound\n"
                               "Condition x < y did not hold element-wise:")
        lengths = dense.unsorted_segment_sum(dense.ones_like(value_rowids), value_rowids, nrows)
        splits = splits_from_lengths(lengths)
        if validate and _eager(splits) and (isinstance(values, RaggedTensor) or _eager(values)):
            _validate_nvals(values, splits.numpy()[-1])
        return cls._from_splits(values, splits, cached_row_lengths=lengths, cached_value_rowids=value_rowids,
                                cached_nrows=nrows)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        values = convert_values(values)
        row_starts = convert_partition(row_starts, _values_splits_dtype(values), "row_starts")
        _check_rank1(row_starts, "row_starts")
        nvals = dense.cast(dense.reshape(_nvals(values), [1]), row_starts.dtype)
        return cls.from_row_splits(values, dense.concat([row_starts, nvals], axis=0), validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        values = convert_values(values)
        row_limits = convert_partition(row_limits, _values_splits_dtype(values), "row_limits")
        _check_rank1(row_limits, "row_limits")
        return cls.from_row_splits(values, dense.concat([dense.zeros([1], row_limits.dtype), row_limits], axis=0),
                                   validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        values = convert_values(values)
        dtype = _values_splits_dtype(values) or (uniform_row_length.dtype if isinstance(uniform_row_length, Tensor)
                                                 else dtypes.int64)
        length = dense.cast(dense.convert_to_tensor(uniform_row_length), dtype)
        nvals = dense.cast(_nvals(values), dtype)
        if nrows is None:
            nrows = dense.cond(length > 0, lambda: nvals // dense.maximum(length, 1), lambda: dense.constant(0, dtype)) \
                if not _eager(length) else (nvals // length if int(length) else dense.constant(0, dtype))
        nrows = dense.cast(dense.convert_to_tensor(nrows), dtype)
        if validate and _eager(length) and _eager(nrows) and int(length) * int(nrows) != int(nvals):
            raise _invalid("Arguments to from_uniform_row_length do not form a valid RaggedTensor")
        splits = dense.range(nrows + 1, dtype=dtype) * length
        static = int(uniform_row_length) if isinstance(uniform_row_length, int) else (
            int(length.numpy()) if _eager(length) else None)
        return cls._from_splits(values, splits, cached_nrows=nrows, uniform_row_length=static)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = convert_values(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        if isinstance(nested_row_lengths, Tensor):
            raise TypeError("nested_row_lengths must be a list of Tensors")
        result = convert_values(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True):
        if isinstance(nested_value_rowids, Tensor):
            raise TypeError("nested_value_rowids must be a list of Tensors")
        nested_value_rowids = list(nested_value_rowids)
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        elif len(nested_nrows) != len(nested_value_rowids):
            raise ValueError("Argument `nested_nrows` must have the same length as argument `nested_value_rowids`. "
                             "len(nested_nrows) = %d vs. len(nested_values_rowids) = %d."
                             % (len(nested_nrows), len(nested_value_rowids)))
        result = convert_values(flat_values)
        for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
            result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
        return result

    # Properties --------------------------------------------------------------------------------

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def flat_values(self):
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values._values
        return values

    @property
    def nested_row_splits(self):
        splits, rt = [self._row_splits], self._values
        while isinstance(rt, RaggedTensor):
            splits.append(rt._row_splits)
            rt = rt._values
        return tuple(splits)

    @property
    def ragged_rank(self):
        return self._values.ragged_rank + 1 if isinstance(self._values, RaggedTensor) else 1

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def uniform_row_length(self):
        if self._uniform_row_length is None:
            return None
        return dense.constant(self._uniform_row_length, self._row_splits.dtype)

    @property
    def shape(self):
        """The static shape: ragged dimensions are None."""
        splits_dim = self._row_splits.shape[0] if self._row_splits.shape.rank is not None else None
        nrows = None if splits_dim is None else splits_dim - 1
        inner = self._values.shape
        if inner.rank is None:
            return TensorShape(None)
        return TensorShape([nrows, self._uniform_row_length] + list(inner.dims[1:]))

    def get_shape(self):
        return self.shape

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    # Row partition -----------------------------------------------------------------------------

    def nrows(self, out_type=None, name=None):
        if self._nrows is not None and out_type is None:
            return self._nrows
        static = self.shape[0]
        if static is not None:
            n = dense.constant(static, self._row_splits.dtype)
        else:
            n = dense.shape(self._row_splits, out_type=self._row_splits.dtype)[0] - 1
        return n if out_type is None else dense.cast(n, out_type)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        if axis == 0:
            return self.nrows()
        rank = self.shape.rank
        if rank is not None:
            if not -rank <= axis < rank:
                raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -rank, rank))
            axis = axis + rank if axis < 0 else axis
        if axis == 1:
            if self._row_lengths is None:
                self._row_lengths = self._row_splits[1:] - self._row_splits[:-1]
            return self._row_lengths
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        shape = dense.shape(self._values, out_type=self._row_splits.dtype)
        return self.with_values(dense.ones(shape[:axis - 1], self._row_splits.dtype) * shape[axis - 1])

    def value_rowids(self, name=None):
        if self._value_rowids is None:
            self._value_rowids = row_splits_to_segment_ids(self._row_splits)
        return self._value_rowids

    def nested_row_lengths(self, name=None):
        lengths, rt = [], self
        while isinstance(rt, RaggedTensor):
            lengths.append(rt.row_lengths())
            rt = rt._values
        return tuple(lengths)

    def nested_value_rowids(self, name=None):
        rowids, rt = [], self
        while isinstance(rt, RaggedTensor):
            rowids.append(rt.value_rowids())
            rt = rt._values
        return tuple(rowids)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        out_type = dtypes.as_dtype(out_type) if out_type is not None else self._row_splits.dtype
        dims = [self.nrows()]
        rt = self
        while isinstance(rt, RaggedTensor):
            lengths = rt.row_lengths()
            dims.append(dense.cond(dense.size(lengths) > 0, lambda: dense.reduce_max(lengths),
                                lambda: dense.zeros([], lengths.dtype)) if not _eager(lengths)
                        else (dense.reduce_max(lengths) if int(dense.size(lengths)) else dense.zeros([], lengths.dtype)))
            rt = rt._values
        dims = [dense.cast(d, out_type) for d in dims]
        inner = dense.shape(rt, out_type=out_type)[1:]
        shape = dense.concat([dense.stack(dims), inner], axis=0)
        if axis is None:
            return shape
        return dense.gather(shape, axis)

    # New tensors with the same partition --------------------------------------------------------

    def with_values(self, new_values):
        new_values = convert_values(new_values)
        if isinstance(new_values, RaggedTensor) and new_values.row_splits_dtype != self.row_splits_dtype:
            raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
        return RaggedTensor(new_values, self._row_splits, self._row_lengths, self._value_rowids, self._nrows,
                            self._uniform_row_length, internal=True)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        if dtype not in _SPLITS_DTYPES:
            raise ValueError("dtype must be int32 or int64")
        if self._row_splits.dtype == dtype:
            return self
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        cast = (lambda t: None if t is None else dense.cast(t, dtype))
        return RaggedTensor(values, dense.cast(self._row_splits, dtype), cast(self._row_lengths),
                            cast(self._value_rowids), cast(self._nrows), self._uniform_row_length, internal=True)

    # Conversion --------------------------------------------------------------------------------

    def _is_eager(self):
        return all(_eager(t) for t in (self.flat_values,) + self.nested_row_splits)

    def _eager_check(self, what):
        if not self._is_eager():
            raise ValueError("%s is only supported in eager mode." % what)

    def to_list(self):
        """The value as nested Python lists (eager only)."""
        if not self._is_eager():
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode; in graph mode, evaluate the "
                             "RaggedTensor first and then use RaggedTensorValue.to_list().")
        rows = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values.numpy().tolist()
        splits = self._row_splits.numpy().tolist()
        return [rows[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def numpy(self):
        """A NumPy array: rows of one length stack into one array, else an object array of rows."""
        self._eager_check("RaggedTensor.numpy()")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            for i, row in enumerate(rows):
                out[i] = row
            return out
        return np.array(rows)

    # Printing ----------------------------------------------------------------------------------

    def __repr__(self):
        if self._is_eager():
            with np.printoptions(formatter={"all": _element_text}):
                return "<tf.RaggedTensor %s>" % _element_text(self.numpy())
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

    __str__ = __repr__

    # Python protocol ---------------------------------------------------------------------------

    def __iter__(self):
        """The rows (eagerly, or in a graph when the number of rows is static: the loop unrolls)."""
        n = int(self.nrows().numpy()) if self._is_eager() else self.shape[0]
        if n is None:
            raise TypeError("graphfn cannot iterate over a RaggedTensor whose number of rows is unknown inside a "
                            "tf.function yet; loop over tf.range(rt.nrows()) and index rt[i] instead")
        return (self[i] for i in range(n))

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __hash__(self):
        raise TypeError("RaggedTensor is unhashable.")

    def __tf_tracing_type__(self, context):
        return self._type_spec

    def __tf_tensor__(self, dtype=None, name=None):
        # As TF: a RaggedTensor does not convert to a Tensor (use to_tensor()).
        raise ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")


def _element_text(x):
    """How TF prints a ragged value: NumPy's layout with ', ' between elements and each scalar
    as str() gives it (1.0, b'a', True), an empty array as its list."""
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


def _values_splits_dtype(values):
    return values.row_splits.dtype if isinstance(values, RaggedTensor) else None


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of each value: [0, 2, 3] -> [0, 0, 1]."""
    splits = convert_partition(splits, name="splits")
    _check_rank1(splits, "splits")
    out_type = splits.dtype if out_type is None else dtypes.as_dtype(out_type)
    # Value j's row is the number of row limits <= j: a binary search per value.
    positions = dense.range(splits[-1], dtype=splits.dtype)
    return dense.searchsorted(splits[1:], positions, side="right", out_type=out_type)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """Row splits for sorted segment ids: [0, 0, 2] -> [0, 2, 2, 3]."""
    segment_ids = convert_partition(segment_ids, name="segment_ids")
    out_type = segment_ids.dtype if out_type is None else dtypes.as_dtype(out_type)
    if num_segments is None:
        num_segments = dense.cond(dense.size(segment_ids) > 0, lambda: dense.reduce_max(segment_ids) + 1,
                               lambda: dense.zeros([], segment_ids.dtype))
    lengths = dense.unsorted_segment_sum(dense.ones_like(segment_ids), segment_ids,
                                           dense.cast(num_segments, segment_ids.dtype))
    return dense.cast(splits_from_lengths(lengths), out_type)


class RaggedTensorSpec(BatchableTypeSpec):
    """The type of a RaggedTensor: shape (None for ragged dims), dtype, ragged_rank and
    row_splits_dtype."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=dtypes.int64,
                 flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        self._flat_values_spec = flat_values_spec
        if flat_values_spec is not None:
            if dtype is not None and dtypes.as_dtype(dtype) != flat_values_spec.dtype:
                raise ValueError("dtype must be the same as flat_values_spec.dtype")
            dtype = flat_values_spec.dtype
        self._dtype = dtypes.as_dtype(dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError("Argument `ragged_rank` must be an int. Received %s." % (ragged_rank,))
        if rank is not None:
            if ragged_rank >= rank:
                raise ValueError("Argument `ragged_rank` (%d) must be less than rank (%d)." % (ragged_rank, rank))
        self._ragged_rank = ragged_rank

    @property
    def value_type(self):
        return RaggedTensor

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ragged_rank(self):
        return self._ragged_rank

    @property
    def row_splits_dtype(self):
        return self._row_splits_dtype

    @property
    def flat_values_spec(self):
        return self._flat_values_spec

    def _serialize(self):
        if self._flat_values_spec is None:
            return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype, self._flat_values_spec)

    @property
    def _component_specs(self):
        if self._ragged_rank == 0:
            return [TensorSpec(self._shape, self._dtype)]
        if self._flat_values_spec is not None:
            flat = self._flat_values_spec
        elif self._shape.rank is None:
            flat = TensorSpec(None, self._dtype)
        else:
            flat = TensorSpec([None] + self._shape.dims[self._ragged_rank + 1:], self._dtype)
        outer = None if self._shape.rank is None or self._shape[0] is None else self._shape[0] + 1
        specs = [flat, TensorSpec([outer], self._row_splits_dtype)]
        specs += [TensorSpec([None], self._row_splits_dtype) for _ in range(self._ragged_rank - 1)]
        return specs

    def _to_components(self, value):
        if isinstance(value, RaggedTensor):
            return [value.flat_values] + list(value.nested_row_splits)
        return [value]  # as TF: anything else is one component (binding then reports the mismatch)

    def _from_components(self, tensors):
        if self._ragged_rank == 0:
            return tensors[0]
        result = tensors[0]
        for splits in reversed(tensors[1:]):
            result = RaggedTensor(result, splits, internal=True)
        return result

    def _batch(self, batch_size):
        return RaggedTensorSpec(TensorShape([batch_size]).dims + (self._shape.dims or []) if self._shape.rank
                                is not None else None, self._dtype, self._ragged_rank + 1, self._row_splits_dtype)

    def _unbatch(self):
        return RaggedTensorSpec(None if self._shape.rank is None else self._shape.dims[1:], self._dtype,
                                self._ragged_rank - 1, self._row_splits_dtype)

    @classmethod
    def from_value(cls, value):
        return value._type_spec
