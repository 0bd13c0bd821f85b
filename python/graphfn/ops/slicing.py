"""Indexing: t[...] (EagerTensor.__getitem__), tf.strided_slice, tf.slice and tf.boolean_mask.

t[...] follows NumPy basic indexing as TF implements it: every item of the key becomes one entry
of a StridedSlice spec (begin/end/strides plus bit masks), and the op does the rest."""

import numbers

import numpy as np

from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
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
    if dtype not in _INDEX_DTYPES or (shape is not None and len(shape) == 1):
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _is_bool_mask(key):
    if isinstance(key, bool):
        return True
    if isinstance(key, (Tensor, np.ndarray)):
        return dtypes.as_dtype(key.dtype) == dtypes.bool
    return False


def _int64_vector(values):
    if any(not _INT64_MIN <= v <= _INT64_MAX for v in values):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    return np.array(values, dtype=np.int64)


def slice_helper(tensor, slice_spec, var=None):
    """tensor[slice_spec]: ints (negative count from the end), slices with any step, Ellipsis,
    tf.newaxis (None), integer scalar tensors; a boolean key is a mask (tf.boolean_mask)."""
    if _is_bool_mask(slice_spec):
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, slice):
            for value, out, mask_default in ((s.start, begin, "begin"), (s.stop, end, "end")):
                if value is None:
                    out.append(0)
                    if mask_default == "begin":
                        begin_mask |= bit
                    else:
                        end_mask |= bit
                else:
                    _check_index(value)
                    out.append(int(value))
            if s.step is None:
                strides.append(1)
            else:
                _check_index(s.step)
                strides.append(int(s.step))
        elif s is Ellipsis or s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            if s is None:
                new_axis_mask |= bit
            else:
                ellipsis_mask |= bit
        else:
            _check_index(s)
            s = int(s)
            begin.append(s)
            end.append(s + 1)
            strides.append(1)
            shrink_axis_mask |= bit
    return ops.StridedSlice(tensor, _int64_vector(begin), _int64_vector(end), _int64_vector(strides),
                            begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                            new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)


@tf_export("strided_slice")
def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    if strides is None:
        strides = array_ops.ones_like(begin)
    begin, end, strides = array_ops.convert_n_same_dtype([begin, end, strides])
    return ops.StridedSlice(input_, begin, end, strides, begin_mask=begin_mask, end_mask=end_mask,
                            ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
                            shrink_axis_mask=shrink_axis_mask)


@tf_export("slice")
def slice_(input_, begin, size, name=None):
    """The box starting at `begin` with `size` elements per dimension (-1: all the rest)."""
    begin, size = array_ops.convert_n_same_dtype([begin, size])
    return ops.Slice(input_, begin, size)


@tf_export("boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The elements (or sub-tensors from `axis` on) of `tensor` where `mask` is true, flattened
    over the mask's dimensions."""
    tensor = array_ops.convert_to_tensor(tensor)
    mask = array_ops.convert_to_tensor(mask)
    mask_rank = mask._rank
    if mask_rank == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    dims = list(tensor._shape_tuple())
    covered, mask_dims = dims[axis:axis + mask_rank], list(mask._shape_tuple())
    if len(covered) != len(mask_dims) or covered != mask_dims:
        raise ValueError("Shapes %s and %s are incompatible" % (tensor.shape[axis:axis + mask_rank], mask.shape))
    leading = int(np.prod(covered, dtype=np.int64))
    tensor = array_ops.reshape(tensor, dims[:axis] + [leading] + dims[axis + mask_rank:])
    indices = array_ops.squeeze(ops.Where(array_ops.reshape(mask, [-1])), axis=[1])
    return array_ops.gather(tensor, indices, axis=axis)
