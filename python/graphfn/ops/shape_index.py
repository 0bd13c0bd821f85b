"""Shape and indexing ops: tf.linspace, tile, split, pad, repeat, roll, reverse, meshgrid,
gather_nd, scatter_nd, tensor_scatter_nd_*, sequence_mask, ensure_shape, shape_n, identity_n,
broadcast_static_shape, broadcast_dynamic_shape, unravel_index, searchsorted and
histogram_fixed_width. The ops are cpp/graphfn/ops/shape_index_ops.cc and scatter_nd_ops.cc;
composites (linspace, repeat, meshgrid, sequence_mask, gather_nd's batch_dims) are built from
ops here as TF's Python builds them, so their gradients come from those ops."""

import math
import numbers

from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops, math_ops, reduction_ops, slicing
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export


def _int_tensor(value, name="value"):
    """An int32/int64 tensor, as TF's convert_to_int_tensor: other integer dtypes are cast."""
    t = array_ops.to_tensor(value, dtype_hint=dtypes.int32)
    if t.dtype in (dtypes.int32, dtypes.int64):
        return t
    if t.dtype.is_integer:
        return math_ops.cast(t, dtypes.int64)
    raise TypeError("%s must be an integer tensor; dtype=%s" % (name, t.dtype.name))


@tf_export("linspace")
def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` (both included), along a new `axis` when
    start and stop are tensors (broadcast together). Integer inputs give float64."""
    with name_scope(name or "linspace"):
        start = array_ops.to_tensor(start)
        stop = array_ops.to_tensor(stop, dtype=start.dtype) if not hasattr(stop, "dtype") else stop
        num_int = _int_tensor(num, "num")
        static_start, static_stop = TensorShape(array_ops.static_dims(start)), TensorShape(array_ops.static_dims(stop))
        shape = ops.BroadcastArgs(array_ops.shape(start), array_ops.shape(stop))
        start = ops.BroadcastTo(start, shape)
        stop = ops.BroadcastTo(stop, shape)
        expanded_start = array_ops.expand_dims(start, axis)
        expanded_stop = array_ops.expand_dims(stop, axis)
        shape = array_ops.shape(expanded_start)
        ndims = array_ops.shape(shape)[0]
        axis_t = array_ops.where(axis >= 0, axis, ndims + axis)
        num_fill = math_ops.maximum(num_int - 2, 0)
        n_steps = math_ops.maximum(num_int - 1, 1)
        delta = math_ops.truediv(expanded_stop - expanded_start, math_ops.cast(n_steps, expanded_stop.dtype))
        expanded_start = math_ops.cast(expanded_start, delta.dtype)
        expanded_stop = math_ops.cast(expanded_stop, delta.dtype)
        range_end = array_ops.where(num_int >= 0, n_steps, -1)
        desired = math_ops.cast(array_ops.range_(1, range_end, dtype=dtypes.int64), delta.dtype)
        mask = math_ops.equal(axis_t, array_ops.range_(ndims))
        desired = array_ops.reshape(desired, array_ops.where(mask, num_fill, 1))
        res = expanded_start + delta * desired
        joined = array_ops.concat([expanded_start, res, expanded_stop], axis=axis)
        result = slicing.slice_(joined, array_ops.zeros_like(shape), array_ops.where(mask, num_int, shape))
        _set_linspace_shape(result, static_start, static_stop, num, axis)
        return result


def _set_linspace_shape(result, start_shape, stop_shape, num, axis):
    """The static shape TF infers: start and stop broadcast, with `num` (if a Python int) inserted."""
    if array_ops.static_dims(result) is None or None not in array_ops.static_dims(result):
        return
    try:
        dims = broadcast_static_shape(start_shape, stop_shape)
    except ValueError:
        return
    if dims.rank is None:
        return
    dims = dims.as_list()
    position = axis if axis >= 0 else len(dims) + 1 + axis
    if not 0 <= position <= len(dims):
        return
    dims.insert(position, int(num) if isinstance(num, numbers.Integral) else None)
    result.set_shape(dims)


@tf_export("tile")
def tile(input, multiples, name=None):  # noqa: A002 (TF's name)
    return node("Tile", name)(input, array_ops._shape_arg(multiples))


@tf_export("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Pieces along `axis`: `num_or_size_splits` equal ones, or pieces of the listed sizes (one
    may be -1: the rest)."""
    if isinstance(num_or_size_splits, numbers.Integral) and not isinstance(num_or_size_splits, bool):
        return list(node("Split", name)(axis, value, num_split=int(num_or_size_splits)))
    size_splits = array_ops.to_tensor(num_or_size_splits, dtype_hint=dtypes.int32)
    dims = array_ops.static_dims(size_splits)
    if dims is not None and len(dims) == 0:
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         "Argument provided: %s" % (num_or_size_splits,))
    if num is None:
        num = dims[0] if dims else None
        if num is None:
            raise ValueError("Cannot infer argument `num` from shape %s" % (num_or_size_splits,))
    return list(node("SplitV", name)(value, size_splits, axis, num_split=int(num)))


def _is_plain_zero(value):
    """constant_values that make tf.pad use the Pad op: a Python or NumPy scalar equal to 0."""
    if hasattr(value, "_dtype_enum") or isinstance(value, (list, tuple)):
        return False
    try:
        return not getattr(value, "shape", ()) and value == 0
    except (TypeError, ValueError):
        return False


@tf_export("pad")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Pads with a constant, or mirrors the edges (REFLECT leaves the edge out, SYMMETRIC repeats
    it). `mode` is case-insensitive."""
    mode = mode.upper()
    paddings = array_ops._shape_arg(paddings)
    if mode == "CONSTANT":
        if _is_plain_zero(constant_values):
            return node("Pad", name)(tensor, paddings)
        tensor, constant_values = array_ops.convert_n_same_dtype([tensor, constant_values])
        return node("PadV2", name)(tensor, paddings, constant_values)
    if mode in ("REFLECT", "SYMMETRIC"):
        return node("MirrorPad", name)(tensor, paddings, mode=mode)
    raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                     "Received `mode` = %s" % mode)


@tf_export("reverse")
def reverse(tensor, axis, name=None):
    return node("ReverseV2", name)(tensor, axis)


@tf_export("roll")
def roll(input, shift, axis, name=None):  # noqa: A002
    return node("Roll", name)(input, shift, axis)


@tf_export("gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """Slices of `params` addressed by the last dim of `indices`; with batch_dims, the leading dims
    of params and indices are batch dims gathered pairwise."""
    if not isinstance(batch_dims, numbers.Integral):
        raise TypeError("Argument `batch_dims` must be an int. Received `batch_dims` = %s" % (batch_dims,))
    if batch_dims == 0:
        return node("GatherNd", name)(params, indices)
    with name_scope(name or "GatherNd"):
        params = array_ops.to_tensor(params)
        indices = array_ops.to_tensor(indices)
        rank = array_ops.static_rank(indices)
        if batch_dims < 0:
            raise ValueError("Argument `batch_dims` = %d must be non-negative" % batch_dims)
        if rank is not None and batch_dims >= rank:
            raise ValueError("Argument `batch_dims` = %d must be less than rank(`indices`) = %d" % (batch_dims, rank))
        params_rank = array_ops.static_rank(params)
        if params_rank is not None and batch_dims >= params_rank:
            raise ValueError("Argument `batch_dims` = %d must be less than rank(`params`) = %d"
                             % (batch_dims, params_rank))
        return _batch_gather_nd(params, indices, batch_dims)


def _batch_gather_nd(params, indices, batch_dims):
    """gather_nd per batch: the batch dims are flattened into one, whose index is prepended to
    every index row."""
    params_shape = array_ops.shape(params, out_type=indices.dtype)
    indices_shape = array_ops.shape(indices, out_type=indices.dtype)
    batch_shape = params_shape[:batch_dims]
    static_batch = (array_ops.static_dims(params) or [None] * batch_dims)[:batch_dims]
    if None in static_batch:
        batch_size = reduction_ops.reduce_prod(batch_shape)
    else:  # a Python int keeps the shapes below static
        batch_size = math.prod(static_batch)
    flat_params = array_ops.reshape(params, array_ops.concat([[batch_size], params_shape[batch_dims:]], 0))
    flat_indices = array_ops.reshape(indices, array_ops.concat([[batch_size], indices_shape[batch_dims:]], 0))
    # The batch number of every index row: [B, 1, ..., 1, 1] broadcast to flat_indices[..., :1].
    rows_shape = array_ops.concat([array_ops.shape(flat_indices, out_type=indices.dtype)[:-1], [1]], 0)
    rank = array_ops.static_rank(flat_indices)
    batch_ids = array_ops.range_(batch_size, dtype=indices.dtype)
    batch_ids = array_ops.reshape(batch_ids, [-1] + [1] * (rank - 1))
    batch_ids = ops.BroadcastTo(batch_ids, rows_shape)
    gathered = ops.GatherNd(flat_params, array_ops.concat([batch_ids, flat_indices], -1))
    out_shape = array_ops.concat([batch_shape, array_ops.shape(gathered, out_type=indices.dtype)[1:]], 0)
    result = array_ops.reshape(gathered, out_shape)
    # The static shape TF infers: the batch dims (params'), then indices.shape[batch_dims:-1] and
    # params.shape[batch_dims + depth:].
    params_dims, index_dims = array_ops.static_dims(params), array_ops.static_dims(indices)
    if params_dims is not None and index_dims is not None and index_dims[-1] is not None:
        result.set_shape(list(params_dims[:batch_dims]) + list(index_dims[batch_dims:-1])
                         + list(params_dims[batch_dims + index_dims[-1]:]))
    return result


@tf_export("scatter_nd")
def scatter_nd(indices, updates, shape, bad_indices_policy="", name=None):
    """Zeros of `shape` with `updates` added at the slices `indices` address (duplicates sum)."""
    indices = array_ops.to_tensor(indices)
    shape = array_ops._shape_arg(shape)
    if not hasattr(shape, "_dtype_enum"):
        shape = array_ops.to_tensor(shape, dtype=indices.dtype)
    return node("ScatterNd", name)(indices, updates, shape)


def _tensor_scatter(op_name, tensor, indices, updates, name):
    tensor, updates = array_ops.convert_n_same_dtype([tensor, updates])
    return node(op_name, name)(tensor, indices, updates)


@tf_export("tensor_scatter_nd_update")
def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return _tensor_scatter("TensorScatterUpdate", tensor, indices, updates, name)


@tf_export("tensor_scatter_nd_add")
def tensor_scatter_nd_add(tensor, indices, updates, bad_indices_policy="", name=None):
    return _tensor_scatter("TensorScatterAdd", tensor, indices, updates, name)


@tf_export("tensor_scatter_nd_sub")
def tensor_scatter_nd_sub(tensor, indices, updates, bad_indices_policy="", name=None):
    return _tensor_scatter("TensorScatterSub", tensor, indices, updates, name)


@tf_export("tensor_scatter_nd_min")
def tensor_scatter_nd_min(tensor, indices, updates, bad_indices_policy="", name=None):
    return _tensor_scatter("TensorScatterMin", tensor, indices, updates, name)


@tf_export("tensor_scatter_nd_max")
def tensor_scatter_nd_max(tensor, indices, updates, bad_indices_policy="", name=None):
    return _tensor_scatter("TensorScatterMax", tensor, indices, updates, name)


@tf_export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], for j < maxlen (default: the largest length)."""
    with name_scope(name or "SequenceMask"):
        lengths = array_ops.to_tensor(lengths)
        if maxlen is None:
            maxlen = reduction_ops.reduce_max(lengths)
            maxlen = math_ops.maximum(array_ops.constant(0, maxlen.dtype), maxlen)
        else:
            maxlen = array_ops.to_tensor(maxlen)
        rank = array_ops.static_rank(maxlen)
        if rank is not None and rank != 0:
            raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = %s with shape "
                             "'%s' instead" % (maxlen, maxlen.shape))
        row = array_ops.range_(array_ops.constant(0, maxlen.dtype), maxlen, array_ops.constant(1, maxlen.dtype))
        matrix = math_ops.cast(array_ops.expand_dims(lengths, -1), maxlen.dtype)
        result = math_ops.less(row, matrix)
        dtype = dtypes.as_dtype(dtype)
        return result if dtype == dtypes.bool else math_ops.cast(result, dtype)


@tf_export("repeat")
def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each element (or slice along `axis`) repeated; `repeats` is one count or one per slice.
    Without an axis the input is flattened first."""
    with name_scope(name or "Repeat"):
        data = array_ops.to_tensor(input)
        if axis is None:
            data = array_ops.reshape(data, [-1])
            axis = 0
        if not isinstance(axis, numbers.Integral):
            raise TypeError("Argument `axis` must be an int. Received `axis` = %s of type %s"
                            % (axis, type(axis).__name__))
        repeats = _int_tensor(repeats, "repeats")
        if array_ops.static_rank(data) == 0:
            data = array_ops.reshape(data, [1])
        rank = array_ops.static_rank(data)
        if rank is not None and not -rank <= axis < rank:
            raise ValueError("axis=%d out of bounds: expected %d<=axis<%d" % (axis, -rank, rank))
        if axis < 0:
            axis += rank
        data_dims = array_ops.static_dims(data)
        repeat_dims = array_ops.static_dims(repeats)
        if repeat_dims is not None and len(repeat_dims) > 1:
            raise ValueError("Shape %s must have rank at most 1" % (TensorShape(repeat_dims),))
        if repeat_dims and data_dims and None not in (repeat_dims[0], data_dims[axis]) \
                and repeat_dims[0] != 1 and repeat_dims[0] != data_dims[axis]:
            raise ValueError("Dimensions %d and %d are not compatible" % (data_dims[axis], repeat_dims[0]))
        count = array_ops.shape(data, out_type=repeats.dtype)[axis]
        if repeat_dims is not None and (not repeat_dims or repeat_dims == [1]):
            return _repeat_each(data, array_ops.reshape(repeats, []), axis, rank)
        repeats = ops.BroadcastTo(array_ops.reshape(repeats, [-1]) if repeat_dims else repeats,
                                  array_ops.reshape(count, [1]))
        # Row i of the mask holds repeats[i] trues: the true positions' rows are the source indices.
        mask = sequence_mask(repeats, math_ops.maximum(reduction_ops.reduce_max(repeats),
                                                       array_ops.constant(0, repeats.dtype)))
        source = array_ops.reshape(slicing.strided_slice(ops.Where(mask), [0, 0], [0, 1], [1, 1], begin_mask=1,
                                                         end_mask=1), [-1])
        if axis == 0 or rank is None:
            return array_ops.gather(data, source, axis=axis)
        # Gathered along axis 0 (whose gradient needs no static shapes), the axis moved there and back.
        perm = [axis] + [d for d in range(rank) if d != axis]
        inverse = [perm.index(d) for d in range(rank)]
        return array_ops.transpose(array_ops.gather(array_ops.transpose(data, perm), source), inverse)


def _repeat_each(data, repeats, axis, rank):
    """One repeat count for every slice, as TF: a new axis after `axis` tiled `repeats` times, then
    merged into `axis`."""
    data_shape = array_ops.shape(data, out_type=repeats.dtype)
    tiled = tile(array_ops.expand_dims(data, axis + 1),
                 array_ops.stack([1] * (axis + 1) + [repeats] + [1] * (rank - axis - 1)))
    merged = array_ops.reshape(repeats * data_shape[axis], [1])
    return array_ops.reshape(tiled, array_ops.concat([data_shape[:axis], merged, data_shape[axis + 1:]], 0))


@tf_export("meshgrid")
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D coordinate vectors ('xy': Cartesian, the first two axes swapped;
    'ij': matrix indexing)."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError("'{}' is an invalid keyword argument for this function".format(list(kwargs)[0]))
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got '{}'".format(indexing))
    with name_scope(name):
        ndim = len(args)
        if not ndim:
            return []
        ones_shape = (1,) * ndim
        output = [array_ops.reshape(array_ops.stack(x), ones_shape[:i] + (-1,) + ones_shape[i + 1:])
                  for i, x in enumerate(args)]
        shapes = [array_ops.size(x) for x in args]
        dtype = array_ops.to_tensor(args[0]).dtype
        if indexing == "xy" and ndim > 1:
            output[0] = array_ops.reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = array_ops.reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        ones = array_ops.ones(shapes, dtype)
        if dtype == dtypes.bool:  # TF's `*` on bools is a logical and
            return [math_ops.logical_and(x, ones) for x in output]
        return [x * ones for x in output]


@tf_export("ensure_shape")
def ensure_shape(x, shape, name=None):
    """x, checked (when it runs) to have a shape compatible with `shape`; the static shape
    becomes the merge of both."""
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    if shape.rank is None:  # nothing to check
        return array_ops.identity(x, name=name)
    return node("EnsureShape", name)(x, shape=shape)


@tf_export("shape_n")
def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002
    values = array_ops.convert_n_same_dtype(list(input))
    return list(node("ShapeN", name)(values, N=len(values), out_type=dtypes.as_dtype(out_type)))


@tf_export("identity_n")
def identity_n(input, name=None):  # noqa: A002
    values = [array_ops.to_tensor(v) for v in input]
    return list(node("IdentityN", name)(values))


@tf_export("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two TensorShapes (unknown dims stay unknown unless the other is > 1)."""
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    dx, dy = list(x.as_list()), list(y.as_list())
    rank = max(len(dx), len(dy))
    dx = [1] * (rank - len(dx)) + dx
    dy = [1] * (rank - len(dy)) + dy
    out = []
    for a, b in zip(dx, dy):
        if a is None or b is None:
            known = a if b is None else b
            out.append(known if known is not None and known > 1 else None)
        elif a == 1 or b == 1 or a == b:
            out.append(b if a == 1 else a)
        else:
            raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                             "pair they are either equal or one of them is 1. Received: %s and %s." % (x, y))
    return TensorShape(out)


@tf_export("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
    shape_x, shape_y = array_ops.convert_n_same_dtype([array_ops._shape_arg(shape_x), array_ops._shape_arg(shape_y)])
    return ops.BroadcastArgs(shape_x, shape_y)


@tf_export("unravel_index")
def unravel_index(indices, dims, name=None):
    indices, dims = array_ops.convert_n_same_dtype([indices, dims])
    return node("UnravelIndex", name)(indices, dims)


@tf_export("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Insertion points of `values` in the innermost dim of `sorted_sequence` ('left': before equal
    entries, 'right': after them)."""
    sorted_sequence, values = array_ops.convert_n_same_dtype([sorted_sequence, values])
    sequence_size = array_ops.shape(sorted_sequence)[-1]
    values_size = array_ops.shape(values)[-1]
    sorted_2d = array_ops.reshape(sorted_sequence, array_ops.stack([-1, sequence_size]))
    values_2d = array_ops.reshape(values, array_ops.stack([-1, values_size]))
    if side == "right":
        op_name = "UpperBound"
    elif side == "left":
        op_name = "LowerBound"
    else:
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: `side` = '%s'." % side)
    out = node(op_name, name)(sorted_2d, values_2d, out_type=dtypes.as_dtype(out_type))
    return array_ops.reshape(out, array_ops.shape(values))


@tf_export("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Counts of `values` in `nbins` equal bins over value_range (outside values go to the end
    bins)."""
    values, value_range = array_ops.convert_n_same_dtype([values, value_range])
    return node("HistogramFixedWidth", name)(values, value_range, nbins, dtype=dtypes.as_dtype(dtype))
