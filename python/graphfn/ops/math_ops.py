"""Element-wise math, comparisons, logic and casts (tf.math)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


def _dtype_enum(dtype):
    return None if dtype is None else dtypes.as_dtype(dtype).as_datatype_enum


@tf_export("add", "math.add")
def add(x, y, name=None):
    return ops.AddV2(x, y)


@tf_export("subtract", "math.subtract")
def subtract(x, y, name=None):
    return ops.Sub(x, y)


@tf_export("multiply", "math.multiply")
def multiply(x, y, name=None):
    return ops.Mul(x, y)


@tf_export("math.floordiv")
def floordiv(x, y, name=None):
    return ops.FloorDiv(x, y)


@tf_export("math.floormod", "math.mod")
def floormod(x, y, name=None):
    return ops.FloorMod(x, y)


@tf_export("pow", "math.pow")
def pow(x, y, name=None):  # noqa: A001 (TF's name)
    return ops.Pow(x, y)


@tf_export("maximum", "math.maximum")
def maximum(x, y, name=None):
    return ops.Maximum(x, y)


@tf_export("minimum", "math.minimum")
def minimum(x, y, name=None):
    return ops.Minimum(x, y)


@tf_export("negative", "math.negative")
def negative(x, name=None):
    return ops.Neg(x)


@tf_export("abs", "math.abs")
def abs(x, name=None):  # noqa: A001
    return ops.Abs(x)


@tf_export("sign", "math.sign")
def sign(x, name=None):
    return ops.Sign(x)


@tf_export("square", "math.square")
def square(x, name=None):
    return ops.Square(x)


@tf_export("sqrt", "math.sqrt")
def sqrt(x, name=None):
    return ops.Sqrt(x)


@tf_export("exp", "math.exp")
def exp(x, name=None):
    return ops.Exp(x)


@tf_export("math.log")
def log(x, name=None):
    return ops.Log(x)


@tf_export("tanh", "math.tanh", "nn.tanh")
def tanh(x, name=None):
    return ops.Tanh(x)


@tf_export("sigmoid", "math.sigmoid", "nn.sigmoid")
def sigmoid(x, name=None):
    return ops.Sigmoid(x)


@tf_export("nn.relu")
def relu(features, name=None):
    return ops.Relu(features)


@tf_export("less", "math.less")
def less(x, y, name=None):
    return ops.Less(x, y)


@tf_export("less_equal", "math.less_equal")
def less_equal(x, y, name=None):
    return ops.LessEqual(x, y)


@tf_export("greater", "math.greater")
def greater(x, y, name=None):
    return ops.Greater(x, y)


@tf_export("greater_equal", "math.greater_equal")
def greater_equal(x, y, name=None):
    return ops.GreaterEqual(x, y)


@tf_export("equal", "math.equal")
def equal(x, y, name=None):
    return ops.Equal(x, y)


@tf_export("not_equal", "math.not_equal")
def not_equal(x, y, name=None):
    return ops.NotEqual(x, y)


@tf_export("logical_and", "math.logical_and")
def logical_and(x, y, name=None):
    return ops.LogicalAnd(x, y)


@tf_export("logical_or", "math.logical_or")
def logical_or(x, y, name=None):
    return ops.LogicalOr(x, y)


@tf_export("logical_not", "math.logical_not")
def logical_not(x, name=None):
    return ops.LogicalNot(x)


@tf_export("cast")
def cast(x, dtype, name=None):
    """Casts `x` to `dtype`; Python values are converted first (floats to float32, ...)."""
    if not isinstance(x, Tensor):
        x = _core.to_tensor(x)
    return ops.Cast(x, DstT=dtypes.as_dtype(dtype))


# TF's truediv: integer inputs are cast to a float type first (int8/int16/uint8 -> float32,
# int32/int64 -> float64); floats divide as they are.
_TRUEDIV_FLOAT = {"int8": dtypes.float32, "int16": dtypes.float32, "uint8": dtypes.float32,
                  "int32": dtypes.float64, "int64": dtypes.float64}


@tf_export("truediv", "math.truediv")
def truediv(x, y, name=None):
    if not isinstance(x, Tensor):
        x = _core.to_tensor(x, y._dtype_enum if isinstance(y, Tensor) else 0)
    if not isinstance(y, Tensor):
        y = _core.to_tensor(y, x._dtype_enum)
    if x.dtype != y.dtype:
        raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))
    float_type = _TRUEDIV_FLOAT.get(x.dtype.name)
    if float_type is not None:
        x, y = cast(x, float_type), cast(y, float_type)
    return ops.RealDiv(x, y)


divide = truediv
tf_export("divide", "math.divide")(divide)


def tensor_equals(x, y):
    """`x == y` for tensors: element-wise, False for None or incompatible shapes (TF 2)."""
    if y is None:
        return False
    try:
        return ops.Equal(x, y)
    except (errors.InvalidArgumentError, TypeError, ValueError):
        return _core.to_tensor(False)


def tensor_not_equals(x, y):
    if y is None:
        return True
    try:
        return ops.NotEqual(x, y)
    except (errors.InvalidArgumentError, TypeError, ValueError):
        return _core.to_tensor(True)
