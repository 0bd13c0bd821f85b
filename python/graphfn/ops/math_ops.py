"""Element-wise math, comparisons, logic and casts (tf.math)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import graph_constant, node, ops
from graphfn.util.tf_export import tf_export


def _dtype_enum(dtype):
    return None if dtype is None else dtypes.as_dtype(dtype).as_datatype_enum


_add_handles = {}


@tf_export("add", "math.add")
def add(x, y, name=None):
    # As TF: y takes x's dtype only as a hint, and string tensors concatenate with Add.
    name = name or "Add"
    handle = _add_handles.get(name)
    if handle is None:
        handle = _add_handles[name] = _core.op("AddV2", name, string_op="Add")
    return handle(x, y)


@tf_export("subtract", "math.subtract")
def subtract(x, y, name=None):
    return node("Sub", name)(x, y)


@tf_export("multiply", "math.multiply")
def multiply(x, y, name=None):
    return node("Mul", name)(x, y)


@tf_export("math.floordiv")
def floordiv(x, y, name=None):
    return node("FloorDiv", name or "floordiv")(x, y)


@tf_export("math.floormod", "math.mod")
def floormod(x, y, name=None):
    return node("FloorMod", name)(x, y)


@tf_export("pow", "math.pow")
def pow(x, y, name=None):  # noqa: A001 (TF's name)
    return node("Pow", name)(x, y)


@tf_export("maximum", "math.maximum")
def maximum(x, y, name=None):
    return node("Maximum", name)(x, y)


@tf_export("minimum", "math.minimum")
def minimum(x, y, name=None):
    return node("Minimum", name)(x, y)


@tf_export("negative", "math.negative")
def negative(x, name=None):
    return node("Neg", name)(x)


@tf_export("abs", "math.abs")
def abs(x, name=None):  # noqa: A001
    dtype = getattr(x, "dtype", None)  # tensors and variables
    if isinstance(dtype, dtypes.DType) and dtype.is_complex:  # |z| has the real dtype (ComplexAbs)
        return node("ComplexAbs", name)(x, Tout=x.dtype.real_dtype)
    return node("Abs", name)(x)


@tf_export("sign", "math.sign")
def sign(x, name=None):
    dtype = getattr(x, "dtype", None)
    if isinstance(dtype, dtypes.DType) and dtype.is_complex:
        # TF: x / |x| (0 at 0) as DivNoNan, so the gradient flows through |x| (the Sign op's is 0).
        modulus = node("ComplexAbs")(x, Tout=dtype.real_dtype)
        return node("DivNoNan", name)(x, node("Cast")(modulus, DstT=dtype))
    return node("Sign", name)(x)


@tf_export("square", "math.square")
def square(x, name=None):
    return node("Square", name)(x)


@tf_export("sqrt", "math.sqrt")
def sqrt(x, name=None):
    return node("Sqrt", name)(x)


@tf_export("exp", "math.exp")
def exp(x, name=None):
    return node("Exp", name)(x)


@tf_export("math.log")
def log(x, name=None):
    return node("Log", name)(x)


@tf_export("tanh", "math.tanh", "nn.tanh")
def tanh(x, name=None):
    return node("Tanh", name)(x)


@tf_export("sigmoid", "math.sigmoid", "nn.sigmoid")
def sigmoid(x, name=None):
    return node("Sigmoid", name)(x)


@tf_export("nn.relu")
def relu(features, name=None):
    return node("Relu", name)(features)


@tf_export("less", "math.less")
def less(x, y, name=None):
    return node("Less", name)(x, y)


@tf_export("less_equal", "math.less_equal")
def less_equal(x, y, name=None):
    return node("LessEqual", name)(x, y)


@tf_export("greater", "math.greater")
def greater(x, y, name=None):
    return node("Greater", name)(x, y)


@tf_export("greater_equal", "math.greater_equal")
def greater_equal(x, y, name=None):
    return node("GreaterEqual", name)(x, y)


@tf_export("equal", "math.equal")
def equal(x, y, name=None):
    return node("Equal", name)(x, y)


@tf_export("not_equal", "math.not_equal")
def not_equal(x, y, name=None):
    return node("NotEqual", name)(x, y)


@tf_export("logical_and", "math.logical_and")
def logical_and(x, y, name=None):
    return node("LogicalAnd", name)(x, y)


@tf_export("logical_or", "math.logical_or")
def logical_or(x, y, name=None):
    return node("LogicalOr", name)(x, y)


@tf_export("logical_not", "math.logical_not")
def logical_not(x, name=None):
    return node("LogicalNot", name)(x)


@tf_export("cast", "dtypes.cast")
def cast(x, dtype, name=None):
    """Casts `x` to `dtype`; Python values are converted first (floats to float32, ...)."""
    if not isinstance(x, Tensor):
        x = _core.to_tensor(x)
    return node("Cast", name)(x, DstT=dtypes.as_dtype(dtype))


# TF's truediv: integer inputs are cast to a float type first (int8/int16/uint8 -> float32,
# int32/int64 -> float64); floats divide as they are.
_TRUEDIV_FLOAT = {"int8": dtypes.float32, "int16": dtypes.float32, "uint8": dtypes.float32,
                  "uint16": dtypes.float32, "int32": dtypes.float64, "int64": dtypes.float64,
                  "uint32": dtypes.float64, "uint64": dtypes.float64}


@tf_export("truediv", "math.truediv")
def truediv(x, y, name=None):
    python_x, python_y = not isinstance(x, Tensor), not isinstance(y, Tensor)
    if python_x:
        x = _core.to_tensor(x, 0 if python_y else y._dtype_enum)
    if python_y:
        try:  # x's dtype is only a hint: a value that does not fit keeps its own
            y = _core.to_tensor(y, x._dtype_enum)
        except TypeError:
            y = _core.to_tensor(y)
    if x.dtype != y.dtype:
        raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))
    float_type = _TRUEDIV_FLOAT.get(x.dtype.name)
    if float_type is None and name is None:
        return node("RealDiv", "truediv")(x, y)
    # A composite op: in a graph, its constants and casts are named inside its scope
    # ("truediv/y", "truediv/Cast"), and the division after the scope ("truediv").
    with name_scope(name or "truediv") as scope:
        if python_x:
            x = graph_constant(x, "x")
        if python_y:
            y = graph_constant(y, "y")
        if float_type is not None:
            x, y = cast(x, float_type), cast(y, float_type)
        return node("RealDiv", scope)(x, y)


divide = truediv
tf_export("divide", "math.divide")(divide)


def _incompatible_shapes(error):
    """True for the errors of operands that do not broadcast (TF's `==` is then False); dtype
    mismatches and unconvertible Python values still raise."""
    return not str(error).startswith(("cannot compute", "Input '"))


def tensor_equals(x, y):
    """`x == y` for tensors: element-wise, False for None or incompatible shapes (TF 2)."""
    if y is None:
        return False
    try:
        return ops.Equal(x, y)
    except (errors.InvalidArgumentError, ValueError) as e:
        if not _incompatible_shapes(e):
            raise
        return _core.to_tensor(False)
    except TypeError:
        if not isinstance(y, Tensor):  # a Python value that does not fit x's dtype (as TF)
            raise
        return _core.to_tensor(False)  # graph tensors of two dtypes (AutoGraph's list.index)


def tensor_not_equals(x, y):
    if y is None:
        return True
    try:
        return ops.NotEqual(x, y)
    except (errors.InvalidArgumentError, ValueError) as e:
        if not _incompatible_shapes(e):
            raise
        return _core.to_tensor(True)
    except TypeError:
        if not isinstance(y, Tensor):
            raise
        return _core.to_tensor(True)


def and_(x, y):
    """`x & y`: logical for bool tensors, bitwise for integers (as TF)."""
    return ops.LogicalAnd(x, y) if x._dtype_enum == 10 else ops.BitwiseAnd(x, y)


def or_(x, y):
    return ops.LogicalOr(x, y) if x._dtype_enum == 10 else ops.BitwiseOr(x, y)


def xor_(x, y):
    if x._dtype_enum == 10:  # TF: (x | y) & ~(x & y)
        return ops.LogicalAnd(ops.LogicalOr(x, y), ops.LogicalNot(ops.LogicalAnd(x, y)), )
    return ops.BitwiseXor(x, y)


def invert_(x):
    return ops.LogicalNot(x) if x._dtype_enum == 10 else ops.Invert(x)
