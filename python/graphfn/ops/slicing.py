"""Indexing: t[...] (EagerTensor.__getitem__), tf.strided_slice, tf.slice and tf.boolean_mask.

t[...] follows NumPy basic indexing as TF implements it: every item of the key becomes one entry
of a StridedSlice spec (begin/end/strides plus bit masks), and the op does the rest."""

import math
import numbers

from graphfn.framework import dtypes
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import _fast_path, array_ops
from graphfn.ops._op_table import ops
from graphfn.util.lazy_numpy import is_ndarray, numpy
from graphfn.util.tf_export import tf_export

_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                     "tf.int32/tf.int64 tensors are valid indices")
_INDEX_DTYPES = (dtypes.int16, dtypes.int32, dtypes.int64)
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _check_index(idx):
    """Accepts ints and integer scalars (tensors, NumPy values); TypeError otherwise, like TF."""
    if isinstance(idx, numbers.Integral):
        return
    dtype = getattr(idx, "dtype", None)
    try:
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
    except TypeError:
        dtype = None
    shape = getattr(idx, "shape", None)
    if dtype not in _INDEX_DTYPES or (shape and len(shape) == 1):  # a shape of unknown rank is falsy
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _index(idx):
    """A checked index: an int, or a graph tensor whose value is known only at run time."""
    _check_index(idx)
    return idx if isinstance(idx, SymbolicTensor) else int(idx)


def _is_bool_mask(key):
    if isinstance(key, bool):
        return True
    if isinstance(key, (EagerTensor, SymbolicTensor)) or is_ndarray(key):
        return dtypes.as_dtype(key.dtype) == dtypes.bool
    return False


def _int64_vector(values):
    if any(not _INT64_MIN <= v <= _INT64_MAX for v in values):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    np = numpy()
    return np.array(values, dtype=np.int64)


def _spec_vectors(begin, end, strides):
    """begin, end and strides as three vectors of one integer dtype: int64 constants, unless an
    entry is a graph tensor (a tensor index while tracing); then the vectors take its dtype and
    each vector holding one packs its entries, as TF's t[...] does."""
    graph_index = next((v for v in begin + end + strides if isinstance(v, SymbolicTensor)), None)
    if graph_index is None:
        return _int64_vector(begin), _int64_vector(end), _int64_vector(strides)
    enum = graph_index._dtype_enum
    return tuple(array_ops.to_tensor_like(v, enum) if not any(isinstance(i, SymbolicTensor) for i in v)
                 else ops.Pack(array_ops.convert_n_same_dtype(v), axis=0) for v in (begin, end, strides))


def slice_helper(tensor, slice_spec, var=None):
    """tensor[slice_spec]: ints (negative count from the end), slices with any step, Ellipsis,
    tf.newaxis (None), integer scalar tensors; a boolean key is a mask (tf.boolean_mask)."""
    if _is_bool_mask(slice_spec):
        return boolean_mask(tensor, slice_spec)
    begin, end, strides, masks = strided_slice_spec(slice_spec)
    return _fast_path.call_named("strided_slice/", array_ops.node("StridedSlice", "strided_slice"), tensor, begin,
                                 end, strides, **masks)


def strided_slice_spec(slice_spec):
    """The StridedSlice spec of a non-mask key: begin, end, strides and a dict of the five masks
    (also what a variable's sliced assignment writes through)."""
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, slice):
            if s.start is None:
                begin.append(0)
                begin_mask |= bit
            else:
                begin.append(_index(s.start))
            if s.stop is None:
                end.append(0)
                end_mask |= bit
            else:
                end.append(_index(s.stop))
            strides.append(1 if s.step is None else _index(s.step))
        elif s is Ellipsis or s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            if s is None:
                new_axis_mask |= bit
            else:
                ellipsis_mask |= bit
        else:
            s = _index(s)
            begin.append(s)
            end.append(s + 1)
            strides.append(1)
            shrink_axis_mask |= bit
    begin, end, strides = _spec_vectors(begin, end, strides)
    return begin, end, strides, dict(begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                                     new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)


@tf_export("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    if strides is None:
        strides = array_ops.ones_like(begin)
    begin, end, strides = array_ops.convert_n_same_dtype([begin, end, strides])
    return _fast_path.call_named(None, array_ops.node("StridedSlice", name), input_, begin, end, strides,
                                 begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                                 new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)


@tf_export("slice")
def slice_(input_, begin, size, name=None):
    """The box starting at `begin` with `size` elements per dimension (-1: all the rest)."""
    begin, size = array_ops.convert_n_same_dtype([begin, size])
    return _fast_path.call_named(None, array_ops.node("Slice", name), input_, begin, size)


@tf_export("boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The elements (or sub-tensors from `axis` on) of `tensor` where `mask` is true, flattened
    over the mask's dimensions. The mask's rank must be known (its dims need not be)."""
    tensor = array_ops.to_tensor(tensor)
    mask = array_ops.to_tensor(mask)
    mask_dims = array_ops.static_dims(mask)
    if mask_dims is None:
        raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                         "E.g. shape=[None] is ok, but shape=None is not.")
    mask_rank = len(mask_dims)
    if mask_rank == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    dims = array_ops.static_dims(tensor)
    if dims is not None:
        covered = dims[axis:axis + mask_rank]
        if not TensorShape(covered).is_compatible_with(mask_dims):
            raise ValueError("Shapes %s and %s are incompatible" % (tensor.shape[axis:axis + mask_rank], mask.shape))
    if mask_rank > 1:  # flatten the masked dims into one
        tensor = array_ops.reshape(tensor, _collapsed_shape(tensor, dims, axis, mask_rank))
        mask = array_ops.reshape(mask, [-1])
    indices = array_ops.squeeze(ops.Where(mask), axis=[1])
    return array_ops.gather(tensor, indices, axis=axis)


def _collapsed_shape(tensor, dims, axis, n):
    """The shape of `tensor` with dims [axis, axis + n) merged into one: static sizes where known,
    the rest read from tf.shape (and the merged size left to reshape's -1 when unknown)."""
    if dims is None:
        s = ops.Shape(tensor)
        return ops.ConcatV2([s[:axis], [-1], s[axis + n:]], 0)
    covered = dims[axis:axis + n]
    merged = -1 if None in covered else math.prod(covered)
    if None in dims[:axis] + dims[axis + n:]:
        s = ops.Shape(tensor)
        dims = [s[i] if d is None else d for i, d in enumerate(dims)]
    return list(dims[:axis]) + [merged] + list(dims[axis + n:])
