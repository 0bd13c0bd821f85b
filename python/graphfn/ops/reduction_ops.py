"""Reductions (tf.reduce_sum, ...) and arg-reductions (tf.argmax, tf.argmin)."""

from graphfn import _core
from graphfn import context
from graphfn.framework import dtypes
from graphfn.framework.tensor import EagerTensor, Tensor
from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops import math_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.lazy_numpy import is_ndarray
from graphfn.util.tf_export import tf_export

_ALL_AXES = {}  # rank -> int32 tensor [0, ..., rank-1] (tensors are immutable, so shareable)


def all_axes(rank):
    """[0, ..., rank-1] as an eager int32 tensor, even while tracing."""
    axes = _ALL_AXES.get(rank)
    if axes is None:
        with context.init_scope():  # built with Range: a Python list would load NumPy
            axes = _ALL_AXES[rank] = ops.Range(0, rank, 1)
    return axes


def _every_axis(input_tensor):
    rank = input_tensor._rank if isinstance(input_tensor, EagerTensor) else input_tensor.shape.rank
    if rank is None:  # while tracing with an unknown rank: every axis, computed at run time
        return ops.Range(0, ops.Rank(input_tensor), 1)
    if not isinstance(input_tensor, EagerTensor):  # while tracing: a "Const" node, as in TF
        return array_ops.graph_constant(all_axes(rank))
    return all_axes(rank)


def _axis_tensor(axis, fast_path):
    """TF's conversion of an axis argument: bools count as ints; NumPy arrays and empty lists
    become int32. On TF's fast path a Python scalar must fit int32 (large ints wrap; floats
    and strings raise TypeError); on its slow path values keep their natural dtype (large
    ints become int64) and the op rejects non-integer axes."""
    if isinstance(axis, Tensor):
        return axis
    if isinstance(axis, bool):
        axis = int(axis)
    if fast_path or is_ndarray(axis):
        return _core.to_tensor(axis, dtypes.int32.as_datatype_enum)
    axes = _core.to_tensor(axis)
    if axes._num_elements == 0 and axes.dtype != dtypes.int32:  # [] would be float32
        return all_axes(0)
    return axes


def _reduce(op, input_tensor, axis, keepdims, dtype=None, name=None):
    if name is not None and _core.current_graph() is not None:
        op = node(op.name, name)  # the node is named `name`, as TF's (get_tensor_by_name finds it)
    fast_path = _fast_path.is_plain(input_tensor) and (axis is None or _fast_path.is_plain(axis))
    if dtype is not None and not (fast_path and isinstance(input_tensor, Tensor)):
        # A tensor of another dtype: TF's fast path leaves it to the op (InvalidArgumentError),
        # its slow path converts first (ValueError).
        input_tensor = _core.to_tensor(input_tensor, dtype.as_datatype_enum)
    elif not isinstance(input_tensor, Tensor):
        input_tensor = _core.to_tensor(input_tensor)
    keepdims = False if keepdims is None else bool(keepdims)
    axes = _every_axis(input_tensor) if axis is None else _axis_tensor(axis, fast_path)
    result = _fast_path.call(fast_path, op, input_tensor, axes, keep_dims=keepdims)
    if axis is None and not keepdims and type(result) is not EagerTensor and result._shape_dims is None:
        result._refine_shape(())  # as TF: reducing every axis gives a scalar, even of unknown rank
    return result


@tf_export("reduce_sum", "math.reduce_sum")
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.Sum, input_tensor, axis, keepdims, name=name)


@tf_export("reduce_mean", "math.reduce_mean")
def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Integer means truncate (the sum is taken in int64), like TF."""
    return _reduce(ops.Mean, input_tensor, axis, keepdims, name=name)


@tf_export("reduce_max", "math.reduce_max")
def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.Max, input_tensor, axis, keepdims, name=name)


@tf_export("reduce_min", "math.reduce_min")
def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.Min, input_tensor, axis, keepdims, name=name)


@tf_export("reduce_prod", "math.reduce_prod")
def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.Prod, input_tensor, axis, keepdims, name=name)


@tf_export("reduce_any", "math.reduce_any")
def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.Any, input_tensor, axis, keepdims, dtypes.bool, name=name)


@tf_export("reduce_all", "math.reduce_all")
def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ops.All, input_tensor, axis, keepdims, dtypes.bool, name=name)


_AXIS_DTYPES = (dtypes.int8, dtypes.uint8, dtypes.int16, dtypes.int32, dtypes.int64)
_AXIS_CAST_TO_INT32 = (dtypes.int8, dtypes.uint8, dtypes.int16)


@tf_export("argmax", "math.argmax")
def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    """Index of the largest value along `axis` (the first on ties; NaN only if all are NaN).
    TF's axis rules: None means 0; tensors need an integer dtype; other objects with a dtype
    (NumPy values) are rejected; anything else must be a Python int."""
    if axis is None:
        axis = 0
    if isinstance(axis, Tensor):
        if axis.dtype not in _AXIS_DTYPES:
            raise TypeError("axis tensor dtypes %s is not supported" % (axis.dtype,))
        if axis.dtype in _AXIS_CAST_TO_INT32:
            axis = math_ops.cast(axis, dtypes.int32)
    elif hasattr(axis, "dtype"):
        raise TypeError("axis tensor dtypes %s is not supported" % (axis.dtype,))
    elif not isinstance(axis, int):
        raise TypeError("axis must be int or Tensor with integer datatype")
    else:
        axis = int(axis)  # bool -> int
    # (TF's fast path also gives up on an output_type that is not a DType, e.g. "int32".)
    fast_path = _fast_path.is_plain(input) and isinstance(output_type, dtypes.DType)
    return _fast_path.call(fast_path, ops.ArgMax, input, axis, output_type=dtypes.as_dtype(output_type))


@tf_export("argmin", "math.argmin")
def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    """Unlike argmax, TF does not type-check the axis here: it is converted like any op input."""
    if axis is None:
        axis = 0
    fast_path = (_fast_path.is_plain(input) and _fast_path.is_plain(axis) and
                 isinstance(output_type, dtypes.DType))
    if not isinstance(input, Tensor):
        input = _core.to_tensor(input)
    return _fast_path.call(fast_path, ops.ArgMin, input, _axis_tensor(axis, fast_path),
                           output_type=dtypes.as_dtype(output_type))
