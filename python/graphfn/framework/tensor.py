"""graphfn.Tensor: the tensor API users see. Eager tensors are the C++ EagerTensor type; this
module adds TensorFlow's Python surface to it (shape, dtype, numpy, printing, Python protocols).
The arithmetic dunders (+, -, *, //, %, **, <, <=, >, >=, unary -, abs) are defined in C++."""

import abc

import numpy as np

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor_shape import TensorShape

EagerTensor = _core.EagerTensor


class Tensor(abc.ABC):
    """The common type of eager and (later) symbolic tensors: `isinstance(x, graphfn.Tensor)`."""


Tensor.register(EagerTensor)


def _numpy_text(t, is_repr):
    value = t._numpy()
    if not is_repr:
        text = str(value)
    elif np.isscalar(value) and not isinstance(value, bytes):
        text = repr(value.item())  # NumPy 2 scalars repr as np.int32(29); TF shows 29
    else:
        text = repr(value)
    if "\n" in text:
        text = "\n" + text
    return text


def _install(cls):
    """Adds the Python-level API to the C++ EagerTensor class."""

    def numpy(self):
        value = self._numpy()
        return value.copy() if isinstance(value, np.ndarray) else value

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self._numpy())
        if dtype is not None and np.dtype(dtype) != value.dtype:
            return value.astype(dtype)
        return value.copy() if copy else value

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (
            _numpy_text(self, False), self.shape, self.dtype.name)

    def __repr__(self):
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            self.shape, self.dtype.name, _numpy_text(self, True))

    def __bool__(self):
        return bool(self._numpy())

    def __len__(self):
        if self._rank == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._shape_tuple()[0]

    def __iter__(self):
        if self._rank == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        from graphfn.ops import array_ops
        for i in range(self._shape_tuple()[0]):
            yield array_ops.gather(self, i)

    def __index__(self):
        if not self.dtype.is_integer or self._rank != 0:
            raise TypeError("Only integer scalar tensors can be used as an index; got %r" % (self,))
        return int(self._numpy())

    def __int__(self):
        return int(self._numpy())

    def __float__(self):
        return float(self._numpy())

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __eq__(self, other):
        from graphfn.ops import math_ops
        return math_ops.tensor_equals(self, other)

    def __ne__(self, other):
        from graphfn.ops import math_ops
        return math_ops.tensor_not_equals(self, other)

    def __truediv__(self, other):
        from graphfn.ops import math_ops
        return math_ops.truediv(self, other)

    def __rtruediv__(self, other):
        from graphfn.ops import math_ops
        return math_ops.truediv(other, self)

    def __matmul__(self, other):
        from graphfn.ops import linalg_ops
        return linalg_ops.matmul(self, other)

    def __rmatmul__(self, other):
        from graphfn.ops import linalg_ops
        return linalg_ops.matmul(other, self)

    def __and__(self, other):
        from graphfn.ops import math_ops
        return math_ops.logical_and(self, other)

    def __rand__(self, other):
        from graphfn.ops import math_ops
        return math_ops.logical_and(other, self)

    def __or__(self, other):
        from graphfn.ops import math_ops
        return math_ops.logical_or(self, other)

    def __ror__(self, other):
        from graphfn.ops import math_ops
        return math_ops.logical_or(other, self)

    def __invert__(self):
        from graphfn.ops import math_ops
        return math_ops.logical_not(self)

    def __getitem__(self, key):
        from graphfn.ops import array_ops
        return array_ops.slice_helper(self, key)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _core.to_tensor, (self.numpy(), self._dtype_enum)

    methods = dict(locals())
    for name, fn in methods.items():
        if callable(fn) and name != "cls":
            setattr(cls, name, fn)

    cls.dtype = property(lambda self: dtypes.from_enum(self._dtype_enum))
    cls.shape = property(lambda self: TensorShape(self._shape_tuple()))
    cls.ndim = property(lambda self: self._rank)
    cls.device = property(lambda self: "/job:localhost/replica:0/task:0/device:CPU:0")
    cls.get_shape = lambda self: self.shape
    cls.__array_priority__ = 100
    cls.__module__ = "graphfn"


_install(EagerTensor)
