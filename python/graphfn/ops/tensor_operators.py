"""The Tensor operators that call op wrappers: ==, !=, ~, /, @, &, |, ^ (and their reflected
forms), t[...] and iterating an eager tensor.

framework/tensor.py defines the rest of the Tensor API but may not import ops/ (it sits below
them), so this module installs these methods on EagerTensor and SymbolicTensor when graphfn is
imported. (The arithmetic operators +, -, *, //, %, **, <, <=, >, >=, unary - and abs are C++
number slots of the tensor types.)"""

from graphfn import _core
from graphfn.framework.tensor import EagerTensor, SymbolicTensor
from graphfn.ops import array_ops, linalg_ops, math_ops
from graphfn.ops.slicing import slice_helper

# The binary operators written in Python: name -> the wrapper computing `x op y`.
_PYTHON_OPERATORS = {"truediv": math_ops.truediv, "matmul": linalg_ops.matmul, "and": math_ops.and_,
                     "or": math_ops.or_, "xor": math_ops.xor_}


def _forward_operator(fn, reflected_name):
    """`x op y` as TF's operators compute it: on TypeError/ValueError the other operand's
    reflected method may answer (`t & [1]`), else the first error stands. (A missing reflected
    method raises AttributeError, as TF does for `t | 1.5`.)"""

    def operator(x, y):
        try:
            return fn(x, y)
        except (TypeError, ValueError) as e:
            if not hasattr(type(y), reflected_name):
                raise
            try:
                r_op = getattr(y, reflected_name)
                out = r_op(x)
            except (TypeError, ValueError):
                raise e from None
            if out is NotImplemented:
                raise e from None
            return out

    return operator


def _reflected_operator(fn):
    """`x op y` reached through y's reflected method: x is converted to y's dtype first."""

    def operator(y, x):
        return fn(_core.convert_reflected_operand(x, y), y)

    return operator


def __eq__(self, other):
    if type(self) is SymbolicTensor and self.graph._standalone:
        return self is other  # as TF: a tf.Graph()'s tensors compare by identity (TF 1.x)
    return math_ops.tensor_equals(self, other)


def __ne__(self, other):
    if type(self) is SymbolicTensor and self.graph._standalone:
        return self is not other
    return math_ops.tensor_not_equals(self, other)


def __invert__(self):
    return math_ops.invert_(self)


def __getitem__(self, key):
    return slice_helper(self, key)


def _eager_iter(self):
    if self._rank == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    for i in range(self._shape_tuple()[0]):
        yield array_ops.gather(self, i)


def _install(cls):
    for method in (__eq__, __ne__, __invert__, __getitem__):
        setattr(cls, method.__name__, method)
    for op_name, fn in _PYTHON_OPERATORS.items():
        setattr(cls, "__%s__" % op_name, _forward_operator(fn, "__r%s__" % op_name))
        setattr(cls, "__r%s__" % op_name, _reflected_operator(fn))


_install(EagerTensor)
_install(SymbolicTensor)
EagerTensor.__iter__ = _eager_iter
