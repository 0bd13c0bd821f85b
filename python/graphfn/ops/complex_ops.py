"""Complex numbers: tf.complex, tf.math.real / imag / angle / conj (TF's names and rules: real
inputs pass through real/conj, imag of a real tensor is zeros, angle of a real tensor is 0 or pi)."""

import math

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export

_REAL_FOR_COMPLEX = {"complex64": dtypes.float32, "complex128": dtypes.float64}


def _tensor(x, name=None):
    return x if isinstance(x, Tensor) else array_ops.convert_to_tensor(x, name=name)


@tf_export("dtypes.complex", "complex")
def complex(real, imag, name=None):  # noqa: A001 (TF's name)
    """real + imag * 1j, element-wise with broadcasting: float32 parts give complex64, float64
    parts complex128."""
    with name_scope(name or "Complex") as scope:
        real = _tensor(real, "real")
        imag = _tensor(imag, "imag")
        if real.dtype != imag.dtype or real.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError("The `real` and `imag` components have incorrect types: %s %s. They must be consistent, "
                            "and one of [tf.float32, tf.float64]" % (real.dtype.name, imag.dtype.name))
        tout = dtypes.complex64 if real.dtype == dtypes.float32 else dtypes.complex128
        return node("Complex", scope)(real, imag, Tout=tout)


def _numeric(x, name):
    x = _tensor(x, name)
    if not (x.dtype.is_floating or x.dtype.is_integer or x.dtype.is_complex):
        raise TypeError("input must be a numeric tensor, but got tensor with dtype %s" % (x.dtype,))
    return x


@tf_export("math.real")
def real(input, name=None):  # noqa: A002 (TF's argument name)
    """The real part of a complex tensor; a real tensor is returned as it is."""
    with name_scope(name or "Real") as scope:
        input = _numeric(input, "input")
        if input.dtype.is_complex:
            return node("Real", scope)(input, Tout=input.dtype.real_dtype)
        return input


@tf_export("math.imag")
def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor; zeros for a real tensor."""
    with name_scope(name or "Imag") as scope:
        input = _numeric(input, "input")
        if input.dtype.is_complex:
            return node("Imag", scope)(input, Tout=input.dtype.real_dtype)
        return array_ops.zeros_like(input)


@tf_export("math.angle")
def angle(input, name=None):  # noqa: A002
    """The argument of each complex element; pi for negative real elements, else 0."""
    with name_scope(name or "Angle") as scope:
        input = _numeric(input, "input")
        if input.dtype.is_complex:
            return node("Angle", scope)(input, Tout=input.dtype.real_dtype)
        zeros = array_ops.zeros_like(input)
        pi = _core.to_tensor(math.pi, input._dtype_enum)
        return node("SelectV2")(node("Less")(input, zeros), array_ops.fill(array_ops.shape(input), pi), zeros)


@tf_export("math.conj")
def conj(x, name=None):
    """The complex conjugate; real tensors are returned as they are."""
    with name_scope(name or "Conj") as scope:
        x = _tensor(x, "x")
        if x.dtype.is_complex:
            return node("Conj", scope)(x)
        if x.dtype.is_floating or x.dtype.is_integer:
            return x
        raise TypeError("Expected numeric or variant tensor, got dtype %r." % (x.dtype,))
