"""Operations on RaggedTensors, registered through graphfn's dispatch (framework/dispatch.py) as
TF registers them: element-wise ops map over flat_values, reductions aggregate with segment ops,
and concat / stack / gather rebuild row partitions. Also RaggedTensor's Python operators."""

from graphfn.ops import ragged_dense as dense
from graphfn.framework import dispatch
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.ops.ragged_tensor import RaggedTensor, _eager, splits_from_lengths
from graphfn.ops import ragged_conversion  # noqa: F401  (installs RaggedTensor.from_tensor, used here)
from graphfn.ops import ragged_factory


def _convert(value, dtype_hint=None):
    """An operand as a RaggedTensor or a Tensor (nested ragged Python lists become ragged)."""
    if isinstance(value, (RaggedTensor, Tensor)):
        return value
    try:
        return dense.convert_to_tensor(value, dtype_hint=dtype_hint)
    except (TypeError, ValueError):
        if isinstance(value, (list, tuple)):
            return ragged_factory.constant(value, dtype=dtype_hint)
        raise


# Element-wise ---------------------------------------------------------------------------------

def _same_partition(x, y):
    """Both ragged tensors have one row partition; TF's error otherwise."""
    if x.ragged_rank != y.ragged_rank:
        return False
    for a, b in zip(x.nested_row_splits, y.nested_row_splits):
        if a is b:
            continue
        if _eager(a) and _eager(b):
            if a.shape != b.shape or (a.numpy() != dense.cast(b, a.dtype).numpy()).any():
                raise errors.InvalidArgumentError(None, None, "Condition x == y did not hold.\n"
                                                  "Inputs must have identical ragged splits.")
    return True


def _outer_row_ids(rt):
    """For each flat value, the index of its row in the outermost dimension."""
    ids = None
    for splits in reversed(rt.nested_row_splits):
        rowids = dense.repeat(dense.range(dense.shape(splits, out_type=splits.dtype)[0] - 1, dtype=splits.dtype),
                           splits[1:] - splits[:-1])
        ids = rowids if ids is None else dense.gather(rowids, ids)
    return ids


def _dense_on_flat(rt, other):
    """A dense operand `other` broadcast to rt's flat values (TF's broadcasting of a dense
    operand over ragged dimensions: its size along every ragged dimension must be 1)."""
    flat = rt.flat_values
    inner_rank = flat.shape.rank - 1 if flat.shape.rank is not None else None
    rank = other.shape.rank
    if rank is None or inner_rank is None or rank <= inner_rank:
        return other
    full_rank = 1 + rt.ragged_rank + inner_rank
    if rank > full_rank:
        raise ValueError("Unable to broadcast: a dense operand of rank %d has more dimensions than the ragged "
                         "operand (%d)" % (rank, full_rank))
    other = dense.reshape(other, dense.concat([dense.ones([full_rank - rank], dtypes.int32), dense.shape(other)],
                                              axis=0))
    for axis in range(1, rt.ragged_rank + 1):
        size = other.shape[axis]
        if size is not None and size != 1:
            raise errors.InvalidArgumentError(
                None, None, "Condition x == y did not hold.\nUnable to broadcast: dimension %d of the dense operand "
                "has size %d; graphfn broadcasts dense operands along ragged dimensions of size 1 only" % (axis, size))
    other = dense.reshape(other, dense.concat([dense.shape(other)[:1], dense.shape(other)[1 + rt.ragged_rank:]],
                                              axis=0))
    if other.shape[0] == 1:
        return dense.reshape(other, dense.shape(other)[1:])
    return dense.gather(other, _outer_row_ids(rt))


def binary_elementwise(api, x, y):
    hint = x.dtype if isinstance(x, RaggedTensor) else None
    x = _convert(x, None if isinstance(x, RaggedTensor) else (y.dtype if isinstance(y, RaggedTensor) else None))
    y = _convert(y, hint)
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        if not _same_partition(x, y):
            raise ValueError("Ragged tensors of different ragged ranks cannot be combined element-wise: %s and %s"
                             % (x._type_spec, y._type_spec))
        return x.with_flat_values(api(x.flat_values, y.flat_values))
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(api(x.flat_values, _dense_on_flat(x, y)))
    return y.with_flat_values(api(_dense_on_flat(y, x), y.flat_values))


def unary_elementwise(api, x):
    return x.with_flat_values(api(x.flat_values))


def map_flat_values(op, *args, **kwargs):
    """op applied to the flat_values of every ragged argument; the result keeps their partition."""
    partitions = []

    def replace(value):
        if isinstance(value, RaggedTensor):
            partitions.append(value)
            return value.flat_values
        if isinstance(value, list):
            return [replace(v) for v in value]
        if isinstance(value, tuple):
            return tuple(replace(v) for v in value)
        if isinstance(value, dict):
            return {k: replace(v) for k, v in value.items()}
        return value

    new_args = replace(list(args))
    new_kwargs = replace(kwargs)
    if not partitions:
        return op(*new_args, **new_kwargs)
    first = partitions[0]
    for other in partitions[1:]:
        if not _same_partition(first, other):
            raise ValueError("Input RaggedTensors have mismatched ragged_rank")
    result = op(*new_args, **new_kwargs)
    if isinstance(result, Tensor) and result.shape.rank is not None and first.flat_values.shape.rank is not None:
        n = result.shape[0] if result.shape.rank else None
        m = first.flat_values.shape[0]
        if result.shape.rank == 0 or (n is not None and m is not None and n != m):
            raise ValueError("tf.ragged.map_flat_values requires that the output of `op` have the same "
                             "outer-dimension size as flat_values of any ragged inputs. (output shape: %s; expected "
                             "outer dimension size: %s)" % (result.shape, m))
    return first.with_flat_values(result)


# Reductions -----------------------------------------------------------------------------------

_SEGMENT_OPS = {
    "sum": dense.unsorted_segment_sum, "prod": dense.unsorted_segment_prod,
    "max": dense.unsorted_segment_max, "min": dense.unsorted_segment_min,
}


def _segment_aggregate(kind, data, segment_ids, num_segments):
    """unsorted_segment_<kind> that also takes ragged data: rows of one segment are combined
    element by element (a segment's row length is its longest row's)."""
    op = _SEGMENT_OPS[kind]
    if not isinstance(data, RaggedTensor):
        return op(data, segment_ids, num_segments)
    splits_dtype = data.row_splits.dtype
    segment_ids = dense.cast(segment_ids, splits_dtype)
    num_segments = dense.cast(num_segments, splits_dtype)
    lengths = data.row_lengths()
    out_lengths = dense.unsorted_segment_max(lengths, segment_ids, num_segments)
    out_lengths = dense.maximum(out_lengths, dense.zeros_like(out_lengths))
    out_splits = dense.concat([dense.zeros([1], splits_dtype), dense.cumsum(out_lengths)], axis=0)
    starts = dense.gather(out_splits, segment_ids)
    target = ragged_factory.ragged_range(starts, starts + lengths, row_splits_dtype=splits_dtype).values
    values = _segment_aggregate(kind, data.values, target, out_splits[-1])
    return RaggedTensor.from_row_splits(values, out_splits, validate=False)


def _normalize_axes(rt, axis):
    rank = rt.shape.rank
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = []
    for a in axes:
        if isinstance(a, Tensor):
            raise TypeError("axis must be an int; got %s" % a.dtype.name)
        if not hasattr(a, "__index__"):
            raise TypeError("axis must be an int; got %s" % type(a).__name__)
        a = int(a)
        if rank is not None:
            if not -rank <= a < rank:
                raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (a, -rank, rank))
            a = a + rank if a < 0 else a
        elif a < 0:
            raise ValueError("axis may only be negative if ndims is statically known.")
        out.append(a)
    return sorted(set(out), reverse=True)


def _reduce_one(kind, rt, axis):
    if not isinstance(rt, RaggedTensor):
        fn = {"sum": dense.reduce_sum, "prod": dense.reduce_prod, "max": dense.reduce_max, "min": dense.reduce_min}[kind]
        return fn(rt, axis=axis)
    if axis == 0:
        # Column j of the result combines the j-th value of every row.
        offsets = dense.range(dense.shape(rt.values, out_type=rt.row_splits.dtype)[0] if not isinstance(
            rt.values, RaggedTensor) else rt.values.nrows()) - dense.gather(rt.row_splits, rt.value_rowids())
        width = dense.reduce_max(dense.concat([rt.row_lengths(), dense.zeros([1], rt.row_splits.dtype)], axis=0))
        return _segment_aggregate(kind, rt.values, offsets, width)
    if axis == 1:
        return _segment_aggregate(kind, rt.values, rt.value_rowids(), rt.nrows())
    return rt.with_values(_reduce_one(kind, rt.values, axis - 1))


def _reduce(kind, rt, axis, keepdims):
    if rt.dtype == dtypes.string:
        raise TypeError("Value passed to parameter 'data' has DataType string not in list of allowed values: float32, "
                        "float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
                        "qint16, quint16, uint16, complex128, float16, uint32, uint64")
    if axis is None:
        fn = {"sum": dense.reduce_sum, "prod": dense.reduce_prod, "max": dense.reduce_max, "min": dense.reduce_min}[kind]
        return fn(rt.flat_values, keepdims=False) if not keepdims else _keep_all(fn(rt.flat_values), rt)
    result = rt
    axes = _normalize_axes(rt, axis)
    for a in axes:
        result = _reduce_one(kind, result, a)
    if keepdims:
        for a in sorted(axes):
            result = _expand_dims(result, a)
    return result


def _keep_all(value, rt):
    rank = rt.shape.rank
    return dense.reshape(value, [1] * rank)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce("sum", input_tensor, axis, keepdims)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce("prod", input_tensor, axis, keepdims)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce("max", input_tensor, axis, keepdims)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce("min", input_tensor, axis, keepdims)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """As TF: integer means are float64; an empty row's mean is nan."""
    rt = input_tensor
    if rt.dtype in (dtypes.string, dtypes.bool):
        return _reduce("sum", rt, axis, keepdims)  # TF's TypeError for these dtypes
    if not rt.dtype.is_floating:
        rt = rt.with_flat_values(dense.cast(rt.flat_values, dtypes.float64))
    total = _reduce("sum", rt, axis, keepdims)
    count = _reduce("sum", rt.with_flat_values(dense.ones_like(rt.flat_values)), axis, keepdims)
    if isinstance(total, RaggedTensor):
        return binary_elementwise(dense.truediv, total, count)
    return total / count


def _bool_reduce(kind, rt, axis, keepdims):
    ints = rt.with_flat_values(dense.cast(rt.flat_values, dtypes.int32))
    result = _reduce(kind, ints, axis, keepdims)
    # An empty segment's max is the lowest int (any: False), its min the highest (all: True).
    if isinstance(result, RaggedTensor):
        return result.with_flat_values(result.flat_values > 0)
    return result > 0


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    return _bool_reduce("min", input_tensor, axis, keepdims)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    return _bool_reduce("max", input_tensor, axis, keepdims)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """As TF's ragged variance: mean of squares minus the squared mean (float64 for integers)."""
    rt = input_tensor
    if not rt.dtype.is_floating:
        rt = rt.with_flat_values(dense.cast(rt.flat_values, dtypes.float64))
    mean_of_square = reduce_mean(rt * rt, axis, keepdims)
    mean = reduce_mean(rt, axis, keepdims)
    if isinstance(mean, RaggedTensor):
        return binary_elementwise(dense.subtract, mean_of_square, mean * mean)
    return mean_of_square - mean * mean


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    variance = reduce_variance(input_tensor, axis, keepdims)
    if isinstance(variance, RaggedTensor):
        return variance.with_flat_values(dense.sqrt(variance.flat_values))
    return dense.sqrt(variance)


# Shape-changing ops ---------------------------------------------------------------------------

def _as_ragged(value, ragged_rank, splits_dtype):
    value = _convert(value)
    if isinstance(value, RaggedTensor):
        return value
    return RaggedTensor.from_tensor(value, ragged_rank=ragged_rank, row_splits_dtype=splits_dtype)


def _concat_rows(rts):
    """The rows of every ragged tensor, one after the other (axis 0)."""
    values = [rt.values for rt in rts]
    if all(isinstance(v, RaggedTensor) for v in values):
        new_values = _concat_rows(values)
    elif any(isinstance(v, RaggedTensor) for v in values):
        raise ValueError("Ragged tensors being concatenated must have the same ragged_rank")
    else:
        new_values = dense.concat(values, axis=0)
    splits = [rts[0].row_splits]
    for rt in rts[1:]:
        splits.append(rt.row_splits[1:] + splits[-1][-1])
    return RaggedTensor.from_row_splits(new_values, dense.concat(splits, axis=0), validate=False)


def _prepare(values, name):
    values = [_convert(v) for v in values]
    if not values:
        raise ValueError("%s requires at least one input" % name)
    ragged = [v for v in values if isinstance(v, RaggedTensor)]
    ragged_rank = max(v.ragged_rank for v in ragged)
    splits_dtype = dtypes.int64 if any(v.row_splits_dtype == dtypes.int64 for v in ragged) else dtypes.int32
    ranks = {v.shape.rank for v in values if v.shape.rank is not None}
    if len(ranks) > 1:
        raise ValueError("Tensor %s must have the same rank: got ranks %s" % (name, sorted(ranks)))
    out = []
    for v in values:
        v = _as_ragged(v, ragged_rank, splits_dtype)
        if v.ragged_rank != ragged_rank:
            v = _raise_ragged_rank(v, ragged_rank)
        out.append(v.with_row_splits_dtype(splits_dtype))
    return out


def _raise_ragged_rank(rt, ragged_rank):
    """rt with uniform inner dimensions made ragged until it has `ragged_rank`."""
    if rt.ragged_rank >= ragged_rank:
        return rt
    values = rt.values
    if isinstance(values, RaggedTensor):
        return rt.with_values(_raise_ragged_rank(values, ragged_rank - 1))
    return rt.with_values(RaggedTensor.from_tensor(values, ragged_rank=ragged_rank - rt.ragged_rank,
                                                   row_splits_dtype=rt.row_splits_dtype))


def _check_nrows(rts):
    counts = [rt.nrows() for rt in rts]
    if all(_eager(c) for c in counts):
        for i, c in enumerate(counts[1:], 1):
            if int(c) != int(counts[0]):
                raise errors.InvalidArgumentError(
                    None, None, "Input tensors at index 0 (=x) and %d (=y) have incompatible shapes.\n"
                    "Condition x == y did not hold.\nFirst 1 elements of x:\n[%d]\nFirst 1 elements of y:\n[%d]"
                    % (i, int(counts[0]), int(c)))


def _interleave(rts):
    """Rows i of every input, in input order, for each i: (n*k rows) as a RaggedTensor."""
    k = len(rts)
    n = rts[0].nrows()
    stacked = _concat_rows(rts)
    dtype = n.dtype
    i = dense.range(n, dtype=dtype)
    j = dense.range(k, dtype=dtype)
    order = dense.reshape(dense.reshape(j, [1, k]) * n + dense.reshape(i, [-1, 1]), [-1])
    return gather(stacked, order), n, k


def concat(values, axis, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    rts = _prepare(values, "concat")
    rank = rts[0].shape.rank
    if rank is not None:
        if not -rank <= axis < rank:
            raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -rank, rank))
        axis = axis + rank if axis < 0 else axis
    if len(rts) == 1:
        return rts[0]
    if axis == 0:
        return _concat_rows(rts)
    if axis == 1:
        _check_nrows(rts)
        rows, n, k = _interleave(rts)
        splits = rows.row_splits[::k]
        return RaggedTensor.from_row_splits(rows.values, splits, validate=False)
    # A deeper axis: every input must share its outer partition.
    first = rts[0]
    for other in rts[1:]:
        _check_nrows([first, other])
        if not _same_partition_outer(first, other):
            raise ValueError("concat along axis %d requires identical outer row partitions" % axis)
    return first.with_values(concat([rt.values for rt in rts], axis - 1))


def _same_partition_outer(x, y):
    a, b = x.row_splits, y.row_splits
    if a is b or not (_eager(a) and _eager(b)):
        return True
    return a.shape == b.shape and bool((a.numpy() == b.numpy()).all())


def stack(values, axis=0, name=None):
    if not isinstance(values, (list, tuple)):
        values = [values]
    rts = _prepare(values, "stack")
    rank = rts[0].shape.rank
    if rank is not None:
        if not -(rank + 1) <= axis < rank + 1:
            raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -(rank + 1), rank + 1))
        axis = axis + rank + 1 if axis < 0 else axis
    if axis == 0:
        dtype = rts[0].row_splits_dtype
        counts = [dense.cast(rt.nrows(), dtype) for rt in rts]
        splits = dense.concat([dense.zeros([1], dtype), dense.cumsum(dense.stack(counts))], axis=0)
        return RaggedTensor.from_row_splits(_concat_rows(rts), splits, validate=False)
    if axis == 1:
        _check_nrows(rts)
        rows, n, k = _interleave(rts)
        splits = dense.range(n + 1, dtype=n.dtype) * k
        return RaggedTensor.from_row_splits(rows, splits, validate=False)
    first = rts[0]
    for other in rts[1:]:
        _check_nrows([first, other])
    return first.with_values(stack([rt.values for rt in rts], axis - 1))


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """tf.gather with ragged params and/or indices (axis=0, batch_dims=0)."""
    if axis not in (None, 0) or batch_dims != 0:
        raise NotImplementedError("graphfn gathers ragged tensors along axis 0 with batch_dims=0 only")
    if isinstance(indices, RaggedTensor):
        return indices.with_flat_values(gather(params, indices.flat_values))
    indices = dense.convert_to_tensor(indices)
    if not isinstance(params, RaggedTensor):
        return dense.gather(params, indices)
    if indices.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value for attr 'Tindices' of %s is not in the list of allowed values: int32, int64"
                        % indices.dtype.name)
    if indices.shape.rank is not None and indices.shape.rank > 1:
        return _wrap_uniform(gather(params, dense.reshape(indices, [-1])), indices)
    if indices.shape.rank == 0:
        return params[indices]
    splits = params.row_splits
    indices = dense.cast(indices, splits.dtype)
    nrows = params.nrows()
    if _eager(indices) and _eager(nrows):
        index_values, n = indices.numpy(), int(nrows)
        bad = ((index_values < 0) | (index_values >= n)).nonzero()[0]
        if bad.size:
            raise errors.InvalidArgumentError(
                None, None, "{{function_node __wrapped__RaggedGather_OUTPUT_RAGGED_RANK_%d_PARAMS_RAGGED_RANK_%d_"
                "device_/job:localhost/replica:0/task:0/device:CPU:0}} indices[%d] = %d is not in [0, %d) "
                "[Op:RaggedGather] name: " % (params.ragged_rank, params.ragged_rank, bad[0],
                                              index_values[bad[0]], n))
    starts = dense.gather(splits, indices)
    limits = dense.gather(splits, indices + 1)
    lengths = limits - starts
    positions = ragged_factory.ragged_range(starts, limits, row_splits_dtype=splits.dtype).values
    new_values = gather(params.values, positions)
    new_splits = splits_from_lengths(lengths)
    return RaggedTensor.from_row_splits(new_values, new_splits, validate=False)


def _wrap_uniform(flat, indices):
    """A gather result for multi-dimensional indices: the indices' dimensions as uniform rows."""
    shape = dense.shape(indices, out_type=flat.row_splits_dtype)
    result = flat
    for axis in range(indices.shape.rank - 1, 0, -1):
        nrows = dense.reduce_prod(shape[:axis])
        result = RaggedTensor.from_row_splits(result, dense.range(nrows + 1, dtype=shape.dtype) * shape[axis],
                                              validate=False)
    return result


def _expand_dims(value, axis):
    if not isinstance(value, RaggedTensor):
        return dense.expand_dims(value, axis)
    rank = value.shape.rank
    if rank is not None:
        if not -(rank + 1) <= axis < rank + 1:
            raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -(rank + 1), rank + 1))
        axis = axis + rank + 1 if axis < 0 else axis
    dtype = value.row_splits_dtype
    if axis == 0:
        return RaggedTensor.from_row_splits(value, dense.stack([dense.zeros([], dtype), value.nrows()]), validate=False)
    if axis == 1:
        return RaggedTensor.from_row_splits(value, dense.range(value.nrows() + 1, dtype=dtype), validate=False)
    return value.with_values(_expand_dims(value.values, axis - 1))


def expand_dims(input, axis, name=None):  # noqa: A002 (TF's name)
    return _expand_dims(input, axis)


def _check_axes(rt, axes, name="axis"):
    rank = rt.shape.rank
    out = []
    for i, a in enumerate(axes):
        if rank is not None:
            if not -rank <= a < rank:
                raise ValueError("%s[%d]=%d out of bounds: expected %d<=%s[%d]<%d" % (name, i, a, -rank, name, i, rank))
            a = a + rank if a < 0 else a
        out.append(a)
    return out


def _reverse_rows_within(rt):
    """Each row of rt with its entries in reverse order."""
    starts = dense.gather(rt.row_starts(), rt.value_rowids())
    limits = dense.gather(rt.row_limits(), rt.value_rowids())
    positions = dense.range(dense.shape(rt.value_rowids(), out_type=rt.row_splits_dtype)[0], dtype=rt.row_splits_dtype)
    return rt.with_values(gather(rt.values, starts + limits - 1 - positions))


def _reverse(value, axes):
    if not isinstance(value, RaggedTensor):
        return dense.reverse(value, axes) if axes else value
    if 0 in axes:
        value = gather(value, dense.range(value.nrows() - 1, -1, -1, dtype=value.row_splits_dtype))
    if 1 in axes:
        value = _reverse_rows_within(value)
    deeper = [a - 1 for a in axes if a > 1]
    return value.with_values(_reverse(value.values, deeper)) if deeper else value


def reverse(tensor, axis, name=None):
    """tf.reverse of a RaggedTensor along any of its dimensions."""
    return _reverse(tensor, sorted(set(_check_axes(tensor, [int(a) for a in axis]))))


def tile(input, multiples, name=None):  # noqa: A002
    """tf.tile of a RaggedTensor: rows repeat along axis 0, each row's entries along axis 1, and
    the uniform inner dimensions as tf.tile does."""
    multiples = [int(m) for m in (multiples.numpy() if _eager(multiples) else multiples)]
    rank = input.shape.rank
    if rank is not None and len(multiples) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(multiples)))
    return _tile(input, multiples)


def _tile(value, multiples):
    if not isinstance(value, RaggedTensor):
        return dense.tile(value, [1] + multiples[1:]) if any(m != 1 for m in multiples[1:]) else value
    dtype = value.row_splits_dtype
    # Within each row (axis 1): the row's entries `multiples[1]` times, the inner dims tiled.
    inner = value.with_values(_tile(value.values, multiples[1:])) if len(multiples) > 2 else value
    if multiples[1] != 1:
        lengths = inner.row_lengths()
        repeated = ragged_factory.ragged_range(dense.zeros_like(lengths), lengths * multiples[1], row_splits_dtype=dtype)
        row_of = repeated.value_rowids()
        safe = dense.maximum(dense.gather(lengths, row_of), dense.ones_like(row_of))
        source = dense.gather(inner.row_starts(), row_of) + dense.floormod(repeated.values, safe)
        inner = RaggedTensor.from_row_splits(gather(inner.values, source), repeated.row_splits, validate=False)
    if multiples[0] != 1:
        inner = concat([inner] * multiples[0], axis=0) if multiples[0] > 0 else gather(inner, dense.zeros([0], dtype))
    return inner


def squeeze(input, axis=None, name=None):  # noqa: A002
    """tf.squeeze of a RaggedTensor: only uniform dimensions of size 1 may go."""
    if axis is None:
        raise ValueError("Ragged.squeeze must have an axis argument.")
    axes = sorted(set(_check_axes(input, [axis] if isinstance(axis, int) else list(axis))), reverse=True)
    value = input
    for a in axes:
        value = _squeeze_one(value, a)
    return value


def _not_squeezable(axis):
    return errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                       "Summarized data: b'the given axis (axis = %d) is not squeezable!'" % axis)


def _squeeze_one(value, axis, offset=0):
    if not isinstance(value, RaggedTensor):
        return dense.squeeze(value, [axis])
    if axis == 0:
        if value.shape[0] == 1 or (_eager(value.row_splits) and int(value.nrows()) == 1):
            return value.values
        raise _not_squeezable(axis + offset)
    if axis == 1:
        raise _not_squeezable(axis + offset)
    return value.with_values(_squeeze_one(value.values, axis - 1, offset + 1))


def size(input, out_type=None, name=None):  # noqa: A002
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return dense.size(input.flat_values, out_type=out_type)


def rank(input, name=None):  # noqa: A002
    return dense.constant(input.shape.rank, dtypes.int32)


def where_(condition, x=None, y=None, name=None):
    """dense.where with ragged arguments of one partition (element-wise select)."""
    if x is None and y is None:
        raise NotImplementedError("graphfn's dense.where with one ragged argument (coordinates) is not supported")
    return map_flat_values(dense.where, condition, x, y)


def boolean_mask(data, mask, name=None):
    """tf.ragged.boolean_mask for a mask of data's partition (ragged) or of data's rows (1-D)."""
    data = _convert(data)
    mask = _convert(mask, dtypes.bool)
    if isinstance(mask, RaggedTensor):
        if not isinstance(data, RaggedTensor):
            raise ValueError("if mask is ragged, then data must be ragged")
        _same_partition(data, mask)
        if mask.ragged_rank == 1 and not isinstance(data.values, RaggedTensor):
            kept = dense.cast(mask.values, data.row_splits_dtype)
            lengths = dense.unsorted_segment_sum(kept, data.value_rowids(), data.nrows())
            return RaggedTensor.from_row_lengths(dense.boolean_mask(data.values, mask.values), lengths, validate=False)
        raise NotImplementedError("graphfn's ragged boolean_mask supports masks with one ragged dimension")
    if not isinstance(data, RaggedTensor):
        return dense.boolean_mask(data, mask)
    if mask.shape.rank != 1:
        raise NotImplementedError("graphfn's ragged boolean_mask supports 1-D dense masks")
    return gather(data, dense.reshape(dense.where(mask), [-1]))


# Registration ---------------------------------------------------------------------------------

def _is_ragged_or_holds(value):
    if isinstance(value, RaggedTensor):
        return True
    return type(value) in (list, tuple) and any(isinstance(v, RaggedTensor) for v in value)


def _ragged_in(*params):
    """A matcher: the call is the ragged version when one of `params` (name, position) holds a
    RaggedTensor (as TF's dispatch, which looks at the API's typed parameters only)."""
    def matcher(args, kwargs):
        for name, position in params:
            value = args[position] if position < len(args) else kwargs.get(name)
            if _is_ragged_or_holds(value):
                return True
        return False
    return matcher


_REDUCTION = _ragged_in(("input_tensor", 0))
_API_HANDLERS = {
    "reduce_sum": (reduce_sum, _REDUCTION), "reduce_prod": (reduce_prod, _REDUCTION),
    "reduce_max": (reduce_max, _REDUCTION), "reduce_min": (reduce_min, _REDUCTION),
    "reduce_mean": (reduce_mean, _REDUCTION), "reduce_all": (reduce_all, _REDUCTION),
    "reduce_any": (reduce_any, _REDUCTION),
    "concat": (concat, _ragged_in(("values", 0))), "stack": (stack, _ragged_in(("values", 0))),
    "gather": (gather, _ragged_in(("params", 0), ("indices", 1))),
    "expand_dims": (expand_dims, _ragged_in(("input", 0))), "size": (size, _ragged_in(("input", 0))),
    "rank": (rank, _ragged_in(("input", 0))),
    "where": (where_, _ragged_in(("condition", 0), ("x", 1), ("y", 2))),
    "math.reduce_variance": (reduce_variance, _REDUCTION), "math.reduce_std": (reduce_std, _REDUCTION),
    "reverse": (reverse, _ragged_in(("tensor", 0))), "tile": (tile, _ragged_in(("input", 0))),
    "squeeze": (squeeze, _ragged_in(("input", 0))),
}


def register():
    dispatch.register_unary_elementwise(RaggedTensor, unary_elementwise)
    dispatch.register_binary_elementwise((RaggedTensor, object), RaggedTensor, binary_elementwise)
    dispatch.register_binary_elementwise(RaggedTensor, (object,), binary_elementwise)
    for name, (handler, matcher) in _API_HANDLERS.items():
        api = dispatch.exported_api(name)
        if api is not None:
            dispatch.register_api(api, handler, matcher, (RaggedTensor,))


# Python operators -----------------------------------------------------------------------------

def _operator(api, reflected=False):
    if reflected:
        def method(self, other):
            return binary_elementwise(api, other, self)
    else:
        def method(self, other):
            return binary_elementwise(api, self, other)
    return method


def _unhashable(self):
    raise TypeError("RaggedTensor is unhashable.")


def _install_operators():
    ops = {"add": dense.add, "sub": dense.subtract, "mul": dense.multiply, "truediv": dense.truediv,
           "floordiv": dense.floordiv, "mod": dense.floormod, "pow": dense.pow, "and": dense.logical_and,
           "or": dense.logical_or}
    for name, api in ops.items():
        setattr(RaggedTensor, "__%s__" % name, _operator(api))
        setattr(RaggedTensor, "__r%s__" % name, _operator(api, reflected=True))
    for name, api in {"lt": dense.less, "le": dense.less_equal, "gt": dense.greater,
                      "ge": dense.greater_equal}.items():
        setattr(RaggedTensor, "__%s__" % name, _operator(dispatch.original_api(api)))
    RaggedTensor.__eq__ = _operator(dispatch.original_api(dense.equal))
    RaggedTensor.__ne__ = _operator(dispatch.original_api(dense.not_equal))
    RaggedTensor.__hash__ = _unhashable
    RaggedTensor.__neg__ = lambda self: self.with_flat_values(-self.flat_values)
    RaggedTensor.__abs__ = lambda self: self.with_flat_values(abs(self.flat_values))
    RaggedTensor.__invert__ = lambda self: self.with_flat_values(dense.logical_not(self.flat_values))


_install_operators()
register()
