"""Element-wise math (tf.math.sin, tf.math.atan2, ...): each op TF's Python layer passes straight
to its op is one line of a table below, (op type, public names); the wrapper made from it is
`f(x, name=None)` (or `f(x, y, name=None)`) and names its graph node after the op type, as TF's
generated wrappers do. Ops whose TF wrapper does more (conversion, casts, composites) follow the
tables as ordinary functions. The ops themselves are cpp/graphfn/ops/math_cwise.def."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops import clip_ops
from graphfn.ops import math_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export

# (op type, public names): the first name's last part is the function's name in this module.
UNARY_OPS = (
    ("Sin", "math.sin", "sin"),
    ("Cos", "math.cos", "cos"),
    ("Tan", "math.tan", "tan"),
    ("Asin", "math.asin", "asin"),
    ("Acos", "math.acos", "acos"),
    ("Atan", "math.atan", "atan"),
    ("Sinh", "math.sinh", "sinh"),
    ("Cosh", "math.cosh", "cosh"),
    ("Asinh", "math.asinh", "asinh"),
    ("Acosh", "math.acosh", "acosh"),
    ("Atanh", "math.atanh", "atanh"),
    ("Floor", "math.floor", "floor"),
    ("Ceil", "math.ceil"),
    ("Rint", "math.rint"),
    ("Log1p", "math.log1p"),
    ("Expm1", "math.expm1"),
    ("Rsqrt", "math.rsqrt"),
    ("Reciprocal", "math.reciprocal"),
    ("Erf", "math.erf"),
    ("Erfc", "math.erfc"),
    ("Lgamma", "math.lgamma"),
    ("Digamma", "math.digamma"),
    ("IsNan", "math.is_nan"),
    ("IsInf", "math.is_inf"),
    ("IsFinite", "math.is_finite"),
)

BINARY_OPS = (
    ("SquaredDifference", "math.squared_difference"),
    ("Xlogy", "math.xlogy"),
    ("Xdivy", "math.xdivy"),
    ("TruncateDiv", "truncatediv"),
    ("TruncateMod", "truncatemod"),
)


def _unary(op_type):
    def wrapper(x, name=None):
        return _fast_path.call(_fast_path.is_plain(x), node(op_type, name), x)
    return wrapper


def _binary(op_type):
    def wrapper(x, y, name=None):
        return _fast_path.call(_fast_path.is_plain(x) and _fast_path.is_plain(y), node(op_type, name), x, y)
    return wrapper


def _define(make, op_type, names):
    wrapper = make(op_type)
    wrapper.__name__ = wrapper.__qualname__ = names[0].rsplit(".", 1)[-1]
    wrapper.__module__ = __name__
    wrapper.__doc__ = "tf.%s: runs TF's %s op." % (names[0], op_type)
    globals()[wrapper.__name__] = tf_export(*names)(wrapper)


for _op_type, *_names in UNARY_OPS:
    _define(_unary, _op_type, _names)
for _op_type, *_names in BINARY_OPS:
    _define(_binary, _op_type, _names)


# TF's own argument names.
@tf_export("math.atan2", "atan2")
def atan2(y, x, name=None):
    return node("Atan2", name)(y, x)


@tf_export("math.polygamma")
def polygamma(a, x, name=None):
    return node("Polygamma", name)(a, x)


@tf_export("math.zeta")
def zeta(x, q, name=None):
    return node("Zeta", name)(x, q)


@tf_export("math.round", "round")
def round(x, name=None):  # noqa: A001 (TF's name)
    """Half to even, as TF; integers are returned as they are."""
    x = x if isinstance(x, Tensor) else array_ops.convert_to_tensor(x)
    if x.dtype.is_integer:
        return x
    return node("Round", name)(x)


def _same_dtype(x, y):
    if x.dtype != y.dtype:
        raise TypeError("`x` and `y` must have the same dtype, got %r != %r." % (x.dtype, y.dtype))


# TF's truediv table: which float type an integer division computes in (None: as it is).
_TRUEDIV_DTYPES = {"uint8": dtypes.float32, "int8": dtypes.float32, "int16": dtypes.float32,
                   "uint16": dtypes.float32, "int32": dtypes.float64, "int64": dtypes.float64,
                   "uint32": dtypes.float64, "uint64": dtypes.float64, "float16": None, "bfloat16": None,
                   "float32": None, "float64": None, "complex64": None, "complex128": None}
_TRUEDIV_NAMES = ("tf.uint8", "tf.int8", "tf.uint16", "tf.int16", "tf.uint32", "tf.int32", "tf.uint64", "tf.int64",
                  "tf.bfloat16", "tf.float16", "tf.float32", "tf.float64", "tf.complex64", "tf.complex128")


@tf_export("math.divide_no_nan")
def divide_no_nan(x, y, name=None):
    """x / y, 0 where y is 0; integers divide in a float type, as in tf.math.divide."""
    with name_scope(name or "div_no_nan") as scope:
        if not isinstance(x, Tensor) and isinstance(y, Tensor):
            x = array_ops.convert_to_tensor(x, dtype=y.dtype)
        else:
            x = array_ops.convert_to_tensor(x)
            y = array_ops.convert_to_tensor(y, dtype_hint=x.dtype)
        _same_dtype(x, y)
        if x.dtype.name not in _TRUEDIV_DTYPES:
            raise TypeError("Invalid dtype %r in tf.math.divide_no_nan. Expected one of {%s}."
                            % (x.dtype, ", ".join(_TRUEDIV_NAMES)))
        float_type = _TRUEDIV_DTYPES[x.dtype.name]
        if float_type is not None:
            x, y = math_ops.cast(x, float_type), math_ops.cast(y, float_type)
        return node("DivNoNan", scope)(x, y)


@tf_export("math.multiply_no_nan")
def multiply_no_nan(x, y, name=None):
    """x * y, 0 where y is 0 (even if x is NaN or infinite)."""
    with name_scope(name or "multiply_no_nan") as scope:
        x = array_ops.convert_to_tensor(x)
        try:
            y = array_ops.convert_to_tensor(y, dtype=x.dtype)
        except ValueError as e:  # TF names the argument that did not convert
            raise ValueError("y: %s" % e) from None
        _same_dtype(x, y)
        return node("MulNoNan", scope)(x, y)


@tf_export("math.polyval")
def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule as TF."""
    if not isinstance(coeffs, list):
        raise ValueError("Argument coeffs must be list type. Received type %s." % type(coeffs))
    with name_scope(name or "polyval"):
        x = array_ops.convert_to_tensor(x)
        if not coeffs:
            return array_ops.zeros_like(x)
        coeffs = [array_ops.convert_to_tensor(c) for c in coeffs]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def _saturation_limits(in_dtype, out_dtype):
    """TF's clamp bounds: the output range, nudged toward 0 where the input type rounds it up."""
    import numpy as np  # NumPy on first use (keeps `import graphfn` light)

    in_np, out_np = in_dtype.as_numpy_dtype, out_dtype.as_numpy_dtype
    promoted = np.promote_types(in_np, out_np)
    low = in_np(np.maximum(in_dtype.min, out_dtype.min))
    if np.array(low, promoted) < np.array(out_dtype.min, promoted):
        low = np.nextafter(low, in_np(0), dtype=in_np)
    high = in_np(np.minimum(float(in_dtype.max), float(out_dtype.max)))
    if np.array(high, promoted) > np.array(out_dtype.max, promoted):
        high = np.nextafter(high, in_np(0), dtype=in_np)
    return low, high


@tf_export("dtypes.saturate_cast", "saturate_cast")
def saturate_cast(value, dtype, name=None):
    """Casts `value` to `dtype`, clamping it to the range `dtype` holds."""
    with name_scope(name or "saturate_cast") as scope:
        value = array_ops.convert_to_tensor(value)
        dtype = dtypes.as_dtype(dtype)
        if value.dtype.is_complex:
            # Complex to complex clamps both parts; complex to real keeps the real part (as TF).
            from graphfn.ops import complex_ops  # noqa: PLC0415 (complex_ops imports this module's peers)
            if dtype.is_complex:
                in_real, out_real = value.dtype.real_dtype, dtype.real_dtype
                if in_real.min < out_real.min or in_real.max > out_real.max:
                    parts = [saturate_cast(part, out_real) for part in (complex_ops.real(value), complex_ops.imag(value))]
                    return complex_ops.complex(parts[0], parts[1], name=scope)
                return math_ops.cast(value, dtype, name=scope)
            value = complex_ops.real(value)
        if value.dtype not in (dtypes.bool, dtypes.string) and dtype not in (dtypes.bool, dtypes.string):
            low, high = _saturation_limits(value.dtype, dtype.real_dtype)
            value = clip_ops.clip_by_value(value, _core.to_tensor(low, value._dtype_enum),
                                           _core.to_tensor(high, value._dtype_enum), name="clamp")
        return math_ops.cast(value, dtype, name=scope)


# tf.dtypes is graphfn.framework.dtypes itself, which cannot import ops: the op installs itself.
dtypes.saturate_cast = saturate_cast
