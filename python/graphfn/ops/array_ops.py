"""Creating and reshaping tensors (tf.constant, tf.reshape, slicing, ...)."""

import numpy as np

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


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


@tf_export("identity")
def identity(input, name=None):  # noqa: A002 (TF's name)
    return ops.Identity(input)
