"""Creating, reshaping and combining tensors (tf.constant, tf.reshape, tf.concat, tf.gather, ...).

Indexing (t[...], tf.slice, tf.strided_slice, tf.boolean_mask) lives in graphfn.ops.slicing."""

import numbers

import numpy as np

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import math_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export

newaxis = None
tf_export("newaxis")(newaxis)

_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1


@tf_export("constant")
def constant(value, dtype=None, shape=None, name="Const"):
    """A tensor from a Python value, NumPy array or tensor; `dtype` may cast, `shape` may
    reshape or broadcast a scalar."""
    enum = 0 if dtype is None else dtypes.as_dtype(dtype).as_datatype_enum
    if isinstance(value, Tensor) and enum and value._dtype_enum != enum:
        value = value.numpy()
    t = _core.to_tensor(value, enum, True)
    if shape is not None:
        shape = [int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]
        n = int(np.prod(shape))
        if t._num_elements == n:
            t = _core.to_tensor(np.reshape(t.numpy(), shape), t._dtype_enum)
        elif t._num_elements == 1:
            t = _core.to_tensor(np.full(shape, t.numpy(), dtype=t.dtype.as_numpy_dtype), t._dtype_enum)
        else:
            raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %r "
                            "(converted from %r) has %d elements, but got `shape` %s with %d "
                            "elements)." % (t, value, t._num_elements, tuple(shape), n))
    return t


@tf_export("convert_to_tensor")
def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Like `constant`, but never casts: a value that does not fit `dtype` raises."""
    if dtype is not None:
        return _core.to_tensor(value, dtypes.as_dtype(dtype).as_datatype_enum)
    if dtype_hint is not None and not isinstance(value, Tensor):
        try:
            return _core.to_tensor(value, dtypes.as_dtype(dtype_hint).as_datatype_enum)
        except (TypeError, ValueError):
            pass
    return _core.to_tensor(value)


def convert_n_same_dtype(values):
    """Converts inputs that share one type attr the way TF's generated ops do: a tensor fixes the
    dtype (else the first value does) and Python values are converted to it, raising TypeError
    when they do not fit (tf.concat([[1], [2.0]], 0))."""
    enum = next((v._dtype_enum for v in values if isinstance(v, Tensor)), 0)
    out = []
    for v in values:
        if not isinstance(v, Tensor):
            v = _core.to_tensor(v, enum)
        enum = enum or v._dtype_enum
        out.append(v)
    return out


def _make_int(value, arg_name):
    """An int attr from a Python value, as TF's op wrappers read one (1.0 -> 1, 'a' -> TypeError)."""
    if isinstance(value, str):
        raise TypeError("Expected int for argument '%s' not %r." % (arg_name, value))
    try:
        return int(value)
    except (TypeError, ValueError):
        raise TypeError("Expected int for argument '%s' not %r." % (arg_name, value)) from None


def shape_tensor(shape):
    """A shape argument (list, tuple, TensorShape, int or tensor) as an int32 tensor, int64 when a
    dimension needs it."""
    if isinstance(shape, Tensor):
        return shape
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    elif isinstance(shape, (numbers.Integral, np.integer)) and not isinstance(shape, bool):
        shape = [shape]
    if isinstance(shape, (list, tuple)):
        if any(d is None for d in shape):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        if all(isinstance(d, (numbers.Integral, np.integer)) for d in shape):
            wide = any(not _INT32_MIN <= d <= _INT32_MAX for d in shape)
            return _core.to_tensor(shape, (dtypes.int64 if wide else dtypes.int32).as_datatype_enum)
    return _core.to_tensor(shape, dtypes.int32.as_datatype_enum)


@tf_export("identity")
def identity(input, name=None):  # noqa: A002 (TF's name)
    return ops.Identity(input)


@tf_export("reshape")
def reshape(tensor, shape, name=None):
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    return ops.Reshape(tensor, shape)


@tf_export("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permutes dimensions; the default reverses them. `conjugate` is a no-op for real dtypes."""
    if perm is None:
        a = convert_to_tensor(a)
        perm = list(range(a._rank - 1, -1, -1))
    return ops.Transpose(a, perm)


@tf_export("expand_dims")
def expand_dims(input, axis, name=None):  # noqa: A002
    return ops.ExpandDims(input, axis)


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):  # noqa: A002
    if axis is None:
        axis = []
    elif np.isscalar(axis):
        axis = [axis]
    if not isinstance(axis, (list, tuple)):
        raise TypeError("Expected list for 'axis' argument to 'squeeze' Op, not %r." % (axis,))
    return ops.Squeeze(input, squeeze_dims=[_make_int(a, "axis") for a in axis])


@tf_export("concat")
def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        # TF still checks that the axis is an int32 scalar.
        axis_t = convert_to_tensor(axis, dtype=dtypes.int32)
        if axis_t._rank != 0:
            raise ValueError("Shape %s must have rank 0" % (axis_t.shape,))
        return identity(values[0])
    return ops.ConcatV2(convert_n_same_dtype(values), axis)


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    if isinstance(values, Tensor):
        values = list(values)
    axis = _make_int(axis, "axis")
    if axis == 0 and not any(isinstance(v, Tensor) for v in values):
        try:  # a list of Python values packs into a constant, as in TF
            return _core.to_tensor(values)
        except (TypeError, ValueError):
            pass
    rank = convert_to_tensor(values[0])._rank + 1
    if not -rank <= axis < rank:
        raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (axis, -rank, rank))
    return ops.Pack(convert_n_same_dtype(values), axis=axis)


@tf_export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    value = convert_to_tensor(value)
    rank = value._rank
    axis = _make_int(axis, "axis")
    if not -rank <= axis < rank:
        raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (axis, -rank, rank))
    if num is None:
        num = value._shape_tuple()[axis]
    return list(ops.Unpack(value, num=_make_int(num, "num"), axis=axis))


@tf_export("gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Rows of `params` along `axis` (default `batch_dims`); out-of-range indices raise."""
    if axis is None:
        axis = batch_dims
    if _is_zero(axis):
        batch_dims = 0  # TF drops batch_dims when gathering along axis 0
    return ops.GatherV2(params, indices, axis, batch_dims=_make_int(batch_dims, "batch_dims"))


def _is_zero(value):
    try:
        return np.ndim(value) == 0 and int(value) == 0
    except (TypeError, ValueError):
        return False


@tf_export("shape")
def shape(input, out_type=None, name=None):  # noqa: A002
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return ops.Shape(input, out_type=out_type)


@tf_export("size")
def size(input, out_type=None, name=None):  # noqa: A002
    """Number of elements. Like TF in eager mode, any `out_type` a constant can take works."""
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    if out_type in (dtypes.int32, dtypes.int64):
        return ops.Size(input, out_type=out_type)
    n = convert_to_tensor(input)._num_elements
    return constant(n, dtype=out_type)


@tf_export("rank")
def rank(input, name=None):  # noqa: A002
    return ops.Rank(input)


@tf_export("fill")
def fill(dims, value, name=None, layout=None):
    if isinstance(dims, TensorShape):
        dims = dims.as_list()
    return ops.Fill(dims, value)


def _filled(shape, dtype, value):
    dtype = dtypes.as_dtype(dtype)
    return ops.Fill(shape_tensor(shape), _core.to_tensor(value, dtype.as_datatype_enum))


@tf_export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    dtype = dtypes.as_dtype(dtype)
    zero = "" if dtype == dtypes.string else (False if dtype == dtypes.bool else 0)
    return _filled(shape, dtype, zero)


@tf_export("ones")
def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    dtype = dtypes.as_dtype(dtype)
    return _filled(shape, dtype, True if dtype == dtypes.bool else 1)


@tf_export("zeros_like")
def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    input = convert_to_tensor(input)  # noqa: A001
    if dtype is not None and dtypes.as_dtype(dtype) != input.dtype:
        return zeros(input._shape_tuple(), dtype)
    return ops.ZerosLike(input)


@tf_export("ones_like")
def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    input = convert_to_tensor(input)  # noqa: A001
    if dtype is not None and dtypes.as_dtype(dtype) != input.dtype:
        return ones(input._shape_tuple(), dtype)
    return ops.OnesLike(input)


_INTEGRAL = (numbers.Integral, np.integer)


@tf_export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """batch_shape + [num_rows, num_columns] identity matrices."""
    if num_columns is None:
        num_columns = num_rows
    if not (isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor)):
        if not isinstance(num_rows, _INTEGRAL) or not isinstance(num_columns, _INTEGRAL):
            raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. "
                            "Received: num_rows=%s, num_columns=%s" % (num_rows, num_columns))
    batch_shape = [] if batch_shape is None else [int(d) for d in batch_shape]
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        _core.to_tensor(1, dtype.as_datatype_enum)  # raises TF's TypeError
    rows, cols = int(num_rows), int(num_columns)
    diag_shape = batch_shape + [min(rows, cols)]
    if min(diag_shape) < 0:
        ops.Fill(shape_tensor(diag_shape), 1)  # TF builds the diagonal with Fill, which reports it
    return ops.Eye(np.int64(rows), np.int64(cols), np.array(batch_shape, np.int64), dtype=dtype)


# tf.range's dtype inference: the "widest" of the three arguments.
_RANGE_DTYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


@tf_export("range")
def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """Like Python's range; int arguments give int32 (int64 when needed), any float float32."""
    if limit is None:
        start, limit = 0, start
    args = [a if isinstance(a, Tensor) else convert_to_tensor(a, dtype=dtype) for a in (start, limit, delta)]
    if dtype is None:
        if not all(a.dtype in _RANGE_DTYPES for a in args):
            raise AssertionError()
        dtype = max((a.dtype for a in args), key=_RANGE_DTYPES.index)
    dtype = dtypes.as_dtype(dtype)
    args = [a if a.dtype == dtype else math_ops.cast(a, dtype) for a in args]
    return ops.Range(*args)


@tf_export("where")
def where(condition, x=None, y=None, name=None):
    """With x and y: elements of x where condition is true, else of y (broadcasting). Without:
    the int64 coordinates of the true (non-zero) elements of condition."""
    if x is None and y is None:
        return ops.Where(condition)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    condition = convert_to_tensor(condition, dtype=dtypes.bool)
    x, y = convert_n_same_dtype([x, y])
    return ops.SelectV2(condition, x, y)


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors along `axis` (default last); the dtype comes from `dtype`, on_value or
    off_value, else float32."""
    on_dtype = off_dtype = None
    if on_value is not None:
        on_value = convert_to_tensor(on_value, dtype_hint=dtype)
        on_dtype = on_value.dtype
    if off_value is not None:
        off_value = convert_to_tensor(off_value, dtype_hint=dtype)
        off_dtype = off_value.dtype
    if on_dtype is not None or off_dtype is not None:
        if dtype is not None:
            if on_dtype is not None and on_dtype != dtype:
                raise TypeError("dtype {0} of on_value does not match dtype parameter {1}".format(on_dtype, dtype))
            if off_dtype is not None and off_dtype != dtype:
                raise TypeError("dtype {0} of off_value does not match dtype parameter {1}".format(off_dtype, dtype))
        else:
            dtype = on_dtype if on_dtype is not None else off_dtype
    elif dtype is None:
        dtype = dtypes.float32
    if on_value is None:
        on_value = convert_to_tensor(1, dtype)
        on_dtype = on_value.dtype
    if off_value is None:
        off_value = convert_to_tensor(0, dtype)
        off_dtype = off_value.dtype
    if on_dtype != off_dtype:
        raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value".format(on_dtype, off_dtype))
    depth = convert_to_tensor(depth, dtype=dtypes.int32)
    return ops.OneHot(indices, depth, on_value, off_value, axis=-1 if axis is None else _make_int(axis, "axis"))


from graphfn.ops.slicing import slice_helper  # noqa: E402,F401  (EagerTensor.__getitem__ uses it)
