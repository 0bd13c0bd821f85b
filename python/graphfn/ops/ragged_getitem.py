"""RaggedTensor.__getitem__: rows by index or slice, then the inner dimensions (slices of
ragged dimensions, any index of uniform ones), as TF's ragged indexing allows."""

from graphfn.ops import ragged_dense as dense
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.ops.ragged_tensor import RaggedTensor, _eager
from graphfn.ops import ragged_factory
from graphfn.ops import ragged_ops


def _expand_ellipsis(rt, key):
    if not any(k is Ellipsis for k in key):
        return key
    if sum(1 for k in key if k is Ellipsis) > 1:
        raise ValueError("Cannot use more than one ellipsis in a slice spec")
    rank = rt.shape.rank
    if rank is None:
        raise ValueError("Cannot use an ellipsis with a RaggedTensor of unknown rank")
    i = next(i for i, k in enumerate(key) if k is Ellipsis)
    used = sum(1 for k in key if k is not Ellipsis and k is not None)
    return key[:i] + (slice(None),) * max(0, rank - used) + key[i + 1:]


def getitem(rt, key):
    key = key if isinstance(key, tuple) else (key,)
    key = _expand_ellipsis(rt, key)
    if not key:
        return rt
    rank = rt.shape.rank
    used = sum(1 for k in key if k is not None)
    if rank is not None and used > rank:
        raise ValueError("Too many indices for RaggedTensor")
    return _getitem(rt, key)


def _getitem(value, key):
    if not key:
        return value
    if not isinstance(value, RaggedTensor):
        return value[key]
    first, rest = key[0], key[1:]
    if first is None:  # tf.newaxis before this axis
        return _getitem(ragged_ops._expand_dims(value, 0), (slice(None),) + rest)
    if isinstance(first, slice):
        return _inner(_rows(value, first), rest)
    return _getitem(_row(value, first), rest)


def _index(value):
    if isinstance(value, Tensor):
        return value
    if hasattr(value, "__index__"):
        return int(value)
    raise TypeError("Ragged __getitem__ expects an int, slice, Ellipsis or tf.newaxis; got %r" % (value,))


def _row(rt, index):
    """Row `index` of rt (a Tensor, or a RaggedTensor one ragged rank lower)."""
    index = _index(index)
    splits = rt.row_splits
    nrows = rt.nrows()
    if isinstance(index, int) and _eager(nrows):
        n = int(nrows)
        if index >= n:
            raise IndexError("Row key %d out of bounds" % index)
        if index < -n:
            raise errors.InvalidArgumentError(
                None, None, "{{function_node __wrapped__StridedSlice_device_/job:localhost/replica:0/task:0/device:"
                "CPU:0}} slice index %d of dimension 0 out of bounds. [Op:StridedSlice] name: strided_slice/"
                % (index + n))
        if index < 0:
            index += n
    index = dense.cast(index, splits.dtype)
    index = dense.where(index < 0, index + nrows, index)
    start, limit = splits[index], splits[index + 1]
    if isinstance(rt.values, RaggedTensor):
        return _rows_range(rt.values, start, limit)
    return rt.values[start:limit]


def _rows_range(rt, start, limit):
    """Rows start..limit of rt (tensors) as a RaggedTensor."""
    return ragged_ops.gather(rt, dense.range(start, limit, dtype=rt.row_splits_dtype))


def _slice_bounds(length, s, dtype):
    """(start, stop, step) tensors of a Python slice on dimensions of `length` (a tensor, one per row)."""
    step = 1 if s.step is None else _index(s.step)
    if isinstance(step, int) and step == 0:
        raise ValueError("slice step cannot be zero")
    step_t = dense.cast(step, dtype) * dense.ones_like(length)
    zero = dense.zeros_like(length)

    def bound(value, default_pos, default_neg):
        if value is None:
            return dense.where(step_t > 0, default_pos, default_neg)
        v = dense.cast(_index(value), dtype) * dense.ones_like(length)
        v = dense.where(v < 0, v + length, v)
        low = dense.where(step_t > 0, zero, -dense.ones_like(length))
        high = dense.where(step_t > 0, length, length - 1)
        return dense.minimum(dense.maximum(v, low), high)

    start = bound(s.start, zero, length - 1)
    stop = bound(s.stop, length, -dense.ones_like(length))
    return start, stop, step_t


def _rows(rt, s):
    """The rows a slice selects (step may be negative)."""
    if s == slice(None):
        return rt
    dtype = rt.row_splits_dtype
    nrows = dense.reshape(dense.cast(rt.nrows(), dtype), [1])
    start, stop, step = _slice_bounds(nrows, s, dtype)
    indices = ragged_factory.ragged_range(start, stop, step, row_splits_dtype=dtype).values
    return ragged_ops.gather(rt, indices)


def _inner(rt, key):
    """rt (rows already chosen) with `key` applied to its dimensions 1, 2, ..."""
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if first is None:
        return _newaxis_inner(rt, rest)
    if isinstance(first, slice):
        if first == slice(None):
            return rt.with_values(_inner_values(rt.values, rest))
        starts, lengths = rt.row_starts(), rt.row_lengths()
        start, stop, step = _slice_bounds(lengths, first, rt.row_splits_dtype)
        sliced = ragged_factory.ragged_range(starts + start, starts + stop, step,
                                             row_splits_dtype=rt.row_splits_dtype)
        values = ragged_ops.gather(rt.values, sliced.values)
        result = RaggedTensor.from_row_splits(values, sliced.row_splits, validate=False)
        return result.with_values(_inner_values(result.values, rest))
    raise ValueError("Cannot index into an inner ragged dimension.")


def _newaxis_inner(rt, rest):
    """rt[:, tf.newaxis, ...]: each row becomes a row of one row."""
    expanded = ragged_ops._expand_dims(rt, 1)
    return expanded.with_values(_inner(expanded.values, rest)) if rest else expanded


def _inner_values(values, key):
    """`key` applied to dimensions 1, 2, ... of a ragged tensor's values (dimension 0 is kept)."""
    if not key:
        return values
    if isinstance(values, RaggedTensor):
        return _inner(values, key)
    return values[(slice(None),) + tuple(key)]



def _getitem_method(self, key):
    return getitem(self, key)


RaggedTensor.__getitem__ = _getitem_method
