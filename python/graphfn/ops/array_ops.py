"""Creating, reshaping and combining tensors (tf.constant, tf.reshape, tf.concat, tf.gather, ...).

Indexing (t[...], tf.slice, tf.strided_slice, tf.boolean_mask) lives in graphfn.ops.slicing."""

import math
import numbers
import sys

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework import indexed_slices
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import _fast_path, math_ops
from graphfn.ops._op_table import graph_constant, node, ops
from graphfn.util.lazy_numpy import is_ndarray, is_scalar, numpy
from graphfn.util.tf_export import tf_export

newaxis = None
tf_export("newaxis")(newaxis)

_INT32_MIN, _INT32_MAX = -2**31, 2**31 - 1
_INTEGRAL = numbers.Integral  # NumPy registers its integer types here
# isinstance against these is much faster than against the abstract graphfn.Tensor.
TENSOR_TYPES = (EagerTensor, SymbolicTensor)


def tracing():
    """True while a function is being traced: ops add graph nodes instead of running."""
    return _core.current_graph() is not None


def static_dims(t):
    """A tensor's dims as far as they are known before running: a tuple with None for unknown
    dims, or None when even the rank is unknown (graph tensors only)."""
    return t._shape_tuple() if isinstance(t, EagerTensor) else t._shape_dims


def static_rank(t):
    if type(t) is EagerTensor:
        return t._rank
    dims = t._shape_dims
    return None if dims is None else len(dims)


def _fully_known(dims):
    return dims is not None and None not in dims


def has_tensor(value):
    """True for a tensor, or a (nested) list or tuple holding one."""
    if isinstance(value, TENSOR_TYPES):
        return True
    return isinstance(value, (list, tuple)) and any(has_tensor(v) for v in value)


def autopack(values):
    """A list holding tensors as one tensor, as TF converts one (tf.reshape(x, [tf.shape(x)[0],
    -1])): nested lists are packed first, and Python values take the first tensor's dtype."""
    items = [autopack(v) if isinstance(v, (list, tuple)) and has_tensor(v) else v for v in values]
    return ops.named("Pack", "packed")(convert_n_same_dtype(items), axis=0)


def _known_dims(shape):
    """A TensorShape argument's dims; a partially known shape raises TF's conversion error."""
    if not shape.is_fully_defined():
        shape.__tf_tensor__()  # raises ValueError("Cannot convert a partially known TensorShape ...")
    return shape.as_list()


def _shape_arg(value):
    """A shape, permutation or other integer-vector argument: a list holding tensors is packed."""
    if isinstance(value, TensorShape):
        return _known_dims(value)
    if isinstance(value, (list, tuple)) and has_tensor(value):
        return autopack(value)
    return value


def _check_dtype(t, dtype):
    if dtype is not None and t.dtype != dtype:
        raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                         % (dtype.name, t.dtype.name, t))
    return t


def to_tensor(value, dtype=None, dtype_hint=None):
    """convert_to_tensor without graph nodes for Python values (an op that uses the result turns
    it into a constant): tensors pass through (their dtype must be `dtype`), lists holding graph
    tensors are packed, and other values become eager tensors."""
    if isinstance(value, TENSOR_TYPES) and dtype is None:
        return value
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    if hasattr(value, "__tf_tensor__") and not isinstance(value, TENSOR_TYPES):
        value = _protocol_tensor(value, dtype, dtype_hint)
    if isinstance(value, SymbolicTensor):
        return _check_dtype(value, dtype)
    try:
        if dtype is not None:
            return _core.to_tensor(value, dtype.as_datatype_enum)
        if dtype_hint is not None and not isinstance(value, TENSOR_TYPES):
            try:
                return _core.to_tensor(value, dtypes.as_dtype(dtype_hint).as_datatype_enum)
            except (TypeError, ValueError):
                pass
        return _core.to_tensor(value)
    except (TypeError, ValueError):
        if isinstance(value, (list, tuple)) and has_tensor(value):
            return _check_dtype(autopack(value), dtype)
        raise


def _indexed_slices_to_dense(value, dtype):
    """tf.convert_to_tensor of a tf.IndexedSlices: its dense tensor, rows with the same index
    summed, as TF's conversion; one without dense_shape cannot be converted (TF's ValueError)."""
    if value.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` without dense_shape: "
                         "%r" % (value,))
    dense_shape = to_tensor(value.dense_shape)
    rows = ops.UnsortedSegmentSum(to_tensor(value.values, dtype), to_tensor(value.indices), dense_shape[0])
    return ops.Reshape(rows, dense_shape)


indexed_slices.dense_conversion = _indexed_slices_to_dense  # its __tf_tensor__ (the ops layer is above it)


def _protocol_tensor(value, dtype, dtype_hint):
    """value.__tf_tensor__ asked for `dtype`, else for the hint when the value can honour it (a
    TensorShape converts to int32 or int64; a Variable gives its value, dtype-checked later)."""
    if dtype is None and dtype_hint is not None:
        try:
            return value.__tf_tensor__(dtypes.as_dtype(dtype_hint))
        except (TypeError, ValueError):
            pass
    return value.__tf_tensor__(dtype)


def _constant_dims(shape):
    """tf.constant(shape) takes the dims as a list of Python ints (so any dtype may be asked
    for); TF fails on an unknown rank as len() does, and on the first unknown dim as on any None."""
    len(shape)  # ValueError("Cannot take the length of shape with unknown rank.")
    if shape.is_fully_defined():
        return shape.as_list()
    raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")


@tf_export("constant")
def constant(value, dtype=None, shape=None, name="Const"):
    """A tensor from a Python value, NumPy array or tensor; `dtype` may cast, `shape` may
    reshape or broadcast a scalar."""
    if isinstance(value, SymbolicTensor):
        if dtype is None:
            raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        raise TypeError("Expected %s, but got %s of type 'SymbolicTensor'." % (dtypes.as_dtype(dtype).name, value))
    enum = 0 if dtype is None else dtypes.as_dtype(dtype).as_datatype_enum
    if isinstance(value, TENSOR_TYPES) and enum and value._dtype_enum != enum:
        value = value.numpy()
    if isinstance(value, TensorShape):
        value = _constant_dims(value)
    try:
        t = _core.to_tensor(value, enum)
    except (TypeError, ValueError):
        if isinstance(value, (list, tuple)) and has_tensor(value):  # graph tensors cannot be constants
            raise TypeError("Expected any non-tensor type, but got a tensor instead.") from None
        raise
    if shape is not None:
        shape = [int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]
        n = math.prod(shape)
        np = numpy()
        if t._num_elements == n:
            t = _core.to_tensor(np.reshape(t.numpy(), shape), t._dtype_enum)
        elif t._num_elements == 1:
            t = _core.to_tensor(np.full(shape, t.numpy(), dtype=t.dtype.as_numpy_dtype), t._dtype_enum)
        else:
            raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %r "
                            "(converted from %r) has %d elements, but got `shape` %s with %d "
                            "elements)." % (t, value, t._num_elements, tuple(shape), n))
    return graph_constant(t, name)


def _leaves(value):
    """The non-list items of a (nested) list or tuple."""
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


@tf_export("convert_to_tensor")
def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """Like `constant`, but never casts: a value that does not fit `dtype` raises. While tracing,
    Python values become Const nodes and lists holding graph tensors a Pack."""
    t = to_tensor(value, dtype, dtype_hint)
    return t if isinstance(value, TENSOR_TYPES) else graph_constant(t, name)


def convert_n_same_dtype(values):
    """Converts inputs that share one type attr the way TF's generated ops do: a tensor fixes the
    dtype (else the first value does) and Python values are converted to it, raising TypeError
    when they do not fit (tf.concat([[1], [2.0]], 0)). Lists holding tensors are packed."""
    enum = next((v._dtype_enum for v in values if isinstance(v, TENSOR_TYPES)), 0)
    out = []
    for v in values:
        if not isinstance(v, TENSOR_TYPES):
            v = to_tensor_like(v, enum)
        enum = enum or v._dtype_enum
        out.append(v)
    return out


def to_tensor_like(value, enum):
    """A Python value as a tensor of dtype enum `enum` (0: its own dtype); a list holding graph
    tensors is packed."""
    try:
        return _core.to_tensor(value, enum)
    except (TypeError, ValueError):
        if isinstance(value, (list, tuple)) and has_tensor(value):
            return autopack(value)
        raise


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
    dimension needs it; a list holding tensors is packed."""
    if isinstance(shape, TENSOR_TYPES):
        return shape
    if isinstance(shape, TensorShape):
        shape = _known_dims(shape)
    elif isinstance(shape, _INTEGRAL) and not isinstance(shape, bool):
        shape = [shape]
    if isinstance(shape, (list, tuple)):
        if any(d is None for d in shape):
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        if has_tensor(shape):
            return autopack(shape)
        if all(isinstance(d, _INTEGRAL) for d in shape):
            wide = any(not _INT32_MIN <= d <= _INT32_MAX for d in shape)
            return _core.to_tensor(shape, (dtypes.int64 if wide else dtypes.int32).as_datatype_enum)
    return _core.to_tensor(shape, dtypes.int32.as_datatype_enum)


@tf_export("identity")
def identity(input, name=None):  # noqa: A002 (TF's name)
    return node("Identity", name)(input)


@tf_export("reshape")
def reshape(tensor, shape, name=None):
    return _fast_path.call_named(None, node("Reshape", name), tensor, _shape_arg(shape))


@tf_export("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permutes dimensions; the default reverses them. `conjugate` is a no-op for real dtypes."""
    if perm is None:
        a = to_tensor(a)
        rank = static_rank(a)
        if rank is None:  # reverse however many dims there turn out to be
            r = ops.Rank(a)
            perm = ops.Sub(ops.Sub(r, 1), ops.Range(0, r, 1))
        else:
            perm = list(range(rank - 1, -1, -1))
    return node("Transpose", name)(a, _shape_arg(perm))


@tf_export("expand_dims")
def expand_dims(input, axis, name=None):  # noqa: A002
    return node("ExpandDims", name)(input, axis)


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):  # noqa: A002
    if axis is None:
        axis = []
    elif is_scalar(axis):
        axis = [axis]
    if not isinstance(axis, (list, tuple)):
        raise TypeError("Expected list for 'axis' argument to 'squeeze' Op, not %r." % (axis,))
    return node("Squeeze", name)(input, squeeze_dims=[_make_int(a, "axis") for a in axis])


@tf_export("concat")
def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        # TF still checks that the axis is an int32 scalar.
        axis_t = to_tensor(axis, dtype=dtypes.int32)
        if static_rank(axis_t) not in (0, None):
            raise ValueError("Shape %s must have rank 0" % (axis_t.shape,))
        return identity(values[0], name=name)
    return _fast_path.call_named(name, node("ConcatV2", name), convert_n_same_dtype(values), axis)


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    axis = _make_int(axis, "axis")
    if isinstance(values, TENSOR_TYPES):
        if axis == 0:
            return values  # converting a tensor gives the tensor itself, as in TF
        if isinstance(values, SymbolicTensor):
            raise TypeError("Expected list for 'values' argument to 'pack' Op, not %r." % (values,))
        values = list(values)
    if axis == 0 and not has_tensor(values):
        try:  # a list of Python values packs into a constant, as in TF
            return graph_constant(_core.to_tensor(values), name, "stack")
        except (TypeError, ValueError):
            pass
    values = convert_n_same_dtype(values)
    rank = static_rank(values[0]) if values else None
    if rank is not None and not -rank - 1 <= axis < rank + 1:
        raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (axis, -rank - 1, rank + 1))
    return node("Pack", name)(values, axis=axis)


@tf_export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    """The slices along `axis`; their number must be known while tracing (`num` or the shape)."""
    value = to_tensor(value)
    axis = _make_int(axis, "axis")
    dims = static_dims(value)
    if dims is not None:
        rank = len(dims)
        if not -rank <= axis < rank:
            raise ValueError("Argument `axis` = %d not in range [%d, %d)" % (axis, -rank, rank))
        if num is None:
            num = dims[axis]
    if num is None:
        raise ValueError("Cannot infer argument `num` from shape %s" % (value.shape,))
    return list(node("Unpack", name)(value, num=_make_int(num, "num"), axis=axis))


@tf_export("gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Rows of `params` along `axis` (default `batch_dims`); out-of-range indices raise."""
    if axis is None:
        axis = batch_dims
    if _is_zero(axis):
        batch_dims = 0  # TF drops batch_dims when gathering along axis 0
    fast_path = _fast_path.is_plain(params) and _fast_path.is_plain(indices) and _fast_path.is_plain(axis)
    return _fast_path.call(fast_path, node("GatherV2", name), params, indices, axis,
                           batch_dims=_make_int(batch_dims, "batch_dims"))


def _is_zero(value):
    """True if `value` is known to be 0 (a graph tensor's value is not)."""
    if isinstance(value, (SymbolicTensor, list, tuple)):
        return False
    if (isinstance(value, EagerTensor) or is_ndarray(value)) and len(value.shape) != 0:
        return False
    try:
        return int(value) == 0
    except (TypeError, ValueError):
        return False


# While tracing, TF folds shape, size and rank into constants when they are statically known, so
# ops that read them (tf.reshape(x, tf.shape(x))) still infer static shapes.

def _sparse_dense_shape(value):
    """A SparseTensor's dense_shape (int64), None for anything else: tf.shape, size and rank of a
    SparseTensor describe its dense shape, as TF's do. (Found through sys.modules, as
    tf.is_tensor finds it: sparse_tensor imports this module.)"""
    if not isinstance(value, CompositeTensor):
        return None
    module = sys.modules.get("graphfn.ops.sparse_tensor")
    return value.dense_shape if module is not None and isinstance(value, module.SparseTensor) else None


@tf_export("shape")
def shape(input, out_type=None, name=None):  # noqa: A002
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        return math_ops.cast(dense_shape, out_type, name=name)
    if tracing():
        input = to_tensor(input)  # noqa: A001
        dims = static_dims(input)
        if _fully_known(dims):
            return graph_constant(_core.to_tensor(list(dims), out_type.as_datatype_enum), name, "Shape")
    return node("Shape", name)(input, out_type=out_type)


@tf_export("size")
def size(input, out_type=None, name=None):  # noqa: A002
    """Number of elements. Like TF, any `out_type` a constant can take works when the number is
    known before running (always in eager mode)."""
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        return math_ops.cast(node("Prod", name or "Size")(dense_shape, 0), out_type)
    input = to_tensor(input)  # noqa: A001
    dims = static_dims(input)
    if (tracing() or out_type not in (dtypes.int32, dtypes.int64)) and _fully_known(dims):
        return constant(math.prod(dims), dtype=out_type, name=name or "Size")
    if out_type not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: "
                        "int32, int64" % out_type.name)
    return node("Size", name)(input, out_type=out_type)


@tf_export("rank")
def rank(input, name=None):  # noqa: A002
    dense_shape = _sparse_dense_shape(input)
    if dense_shape is not None:
        return node("Size", name or "Rank")(dense_shape, out_type=dtypes.int32)
    if tracing():
        r = static_rank(to_tensor(input))
        if r is not None:
            return graph_constant(_core.to_tensor(r, dtypes.int32.as_datatype_enum), name, "Rank")
    return node("Rank", name)(input)


@tf_export("fill")
def fill(dims, value, name=None, layout=None):
    return node("Fill", name)(_shape_arg(dims), value)


# While tracing, TF makes small filled tensors of a static shape constants (fewer than 1000
# elements), so their shapes and values stay known to the ops that use them.
_SMALL_CONSTANT = 1000


def _filled(shape, dtype, value, name=None, default_name="Fill"):
    dtype = dtypes.as_dtype(dtype)
    if tracing() and not has_tensor(shape):
        dims = _known_dims(shape) if isinstance(shape, TensorShape) else shape
        dims = list(dims) if isinstance(dims, (list, tuple)) else [dims]
        if all(isinstance(d, _INTEGRAL) and d >= 0 for d in dims) and math.prod(dims) < _SMALL_CONSTANT:
            return constant(value, dtype=dtype, shape=dims, name=name or default_name)
    return node("Fill", name or default_name)(shape_tensor(shape), _core.to_tensor(value, dtype.as_datatype_enum))


def _zero(dtype):
    return "" if dtype == dtypes.string else (False if dtype == dtypes.bool else 0)


@tf_export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    dtype = dtypes.as_dtype(dtype)
    return _filled(shape, dtype, _zero(dtype), name, "zeros")


@tf_export("ones")
def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    dtype = dtypes.as_dtype(dtype)
    return _filled(shape, dtype, True if dtype == dtypes.bool else 1, name, "ones")


def _castable(dtype):
    return dtype.is_integer or dtype.is_floating or dtype.is_bool


def _filled_like(input, dtype, value, like_op, name, default_name):  # noqa: A002
    """A tensor of `input`'s shape filled with `value`: `like_op` (ZerosLike, OnesLike) when the
    dtype stays, else Fill. A static shape makes a constant while tracing, as in TF."""
    dims = static_dims(input)
    if _fully_known(dims) and (tracing() or dtype != input.dtype):
        return _filled(list(dims), dtype, value, name, default_name)
    if dtype == input.dtype:
        return node(like_op, name or default_name)(input)
    if _castable(input.dtype) and _castable(dtype):
        return node(like_op, name or default_name)(math_ops.cast(input, dtype))  # keeps the partial static shape, as TF's does
    return _filled(ops.Shape(input), dtype, value, name, default_name)


@tf_export("zeros_like")
def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    input = to_tensor(input)  # noqa: A001
    if dtype is None and type(input) is EagerTensor and not tracing():
        return ops.ZerosLike(input)
    dtype = input.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _filled_like(input, dtype, _zero(dtype), "ZerosLike", name, "zeros_like")


@tf_export("ones_like")
def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    input = to_tensor(input)  # noqa: A001
    if dtype is None and type(input) is EagerTensor and not tracing():
        return ops.OnesLike(input)
    dtype = input.dtype if dtype is None else dtypes.as_dtype(dtype)
    return _filled_like(input, dtype, True if dtype == dtypes.bool else 1, "OnesLike", name, "ones_like")


def _int64_arg(value):
    """An Eye size argument as int64: tensors are cast, lists holding tensors packed first."""
    value = _shape_arg(value)
    if isinstance(value, TENSOR_TYPES):
        return value if value.dtype == dtypes.int64 else math_ops.cast(value, dtypes.int64)
    np = numpy()
    return np.asarray(value, np.int64)


@tf_export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """batch_shape + [num_rows, num_columns] identity matrices."""
    if num_columns is None:
        num_columns = num_rows
    if not (isinstance(num_rows, TENSOR_TYPES) or isinstance(num_columns, TENSOR_TYPES)):
        if not isinstance(num_rows, _INTEGRAL) or not isinstance(num_columns, _INTEGRAL):
            raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. "
                            "Received: num_rows=%s, num_columns=%s" % (num_rows, num_columns))
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        _core.to_tensor(1, dtype.as_datatype_enum)  # raises TF's TypeError
    if any(isinstance(v, SymbolicTensor) for v in _leaves([num_rows, num_columns, batch_shape])):
        # Sizes known only at run time: the kernel checks them.
        np = numpy()
        batch = np.zeros([0], np.int64) if batch_shape is None else _int64_arg(batch_shape)
        return node("Eye", name or "eye")(_int64_arg(num_rows), _int64_arg(num_columns), batch, dtype=dtype)
    batch_shape = [] if batch_shape is None else [int(d) for d in batch_shape]
    rows, cols = int(num_rows), int(num_columns)
    diag_shape = batch_shape + [min(rows, cols)]
    if min(diag_shape) < 0:
        ops.Fill(shape_tensor(diag_shape), 1)  # TF builds the diagonal with Fill, which reports it
    np = numpy()
    return node("Eye", name or "eye")(np.int64(rows), np.int64(cols), np.array(batch_shape, np.int64), dtype=dtype)


# tf.range's dtype inference: the "widest" of the three arguments.
_RANGE_DTYPES = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]


@tf_export("range")
def range_(start, limit=None, delta=1, dtype=None, name="range"):
    """Like Python's range; int arguments give int32 (int64 when needed), any float float32."""
    if limit is None:
        start, limit = 0, start
    args = [a if isinstance(a, TENSOR_TYPES) else to_tensor(a, dtype=dtype) for a in (start, limit, delta)]
    if dtype is None:
        if not all(a.dtype in _RANGE_DTYPES for a in args):
            raise AssertionError()
        dtype = max((a.dtype for a in args), key=_RANGE_DTYPES.index)
    dtype = dtypes.as_dtype(dtype)
    args = [a if a.dtype == dtype else math_ops.cast(a, dtype) for a in args]
    return node("Range", name)(*args)


@tf_export("where")
def where(condition, x=None, y=None, name=None):
    """With x and y: elements of x where condition is true, else of y (broadcasting). Without:
    the int64 coordinates of the true (non-zero) elements of condition."""
    if x is None and y is None:
        return node("Where", name)(condition)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    condition = to_tensor(condition, dtype=dtypes.bool)
    if isinstance(x, (list, tuple)) or isinstance(y, (list, tuple)):
        x, y = convert_n_same_dtype([x, y])  # lists may hold tensors to pack
    # Else the op converts Python values as TF's does (in graphs input by input).
    return node("SelectV2", name)(condition, x, y)


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """One-hot vectors along `axis` (default last); the dtype comes from `dtype`, on_value or
    off_value, else float32."""
    on_dtype = off_dtype = None
    if on_value is not None:
        on_value = to_tensor(on_value, dtype_hint=dtype)
        on_dtype = on_value.dtype
    if off_value is not None:
        off_value = to_tensor(off_value, dtype_hint=dtype)
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
        on_value = to_tensor(1, dtype)
        on_dtype = on_value.dtype
    if off_value is None:
        off_value = to_tensor(0, dtype)
        off_dtype = off_value.dtype
    if on_dtype != off_dtype:
        raise TypeError("dtype {0} of on_value does not match dtype {1} of off_value".format(on_dtype, off_dtype))
    depth = to_tensor(depth, dtype=dtypes.int32)
    return node("OneHot", name or "one_hot")(indices, depth, on_value, off_value, axis=-1 if axis is None else _make_int(axis, "axis"))
