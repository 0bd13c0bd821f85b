"""graphfn.Tensor: the tensor API users see. Eager tensors are the C++ EagerTensor type and
graph tensors (seen while tracing) the C++ SymbolicTensor type; this module adds TensorFlow's
Python surface to both (shape, dtype, printing, Python protocols) and numpy() to eager ones.
The arithmetic dunders (+, -, *, //, %, **, <, <=, >, >=, unary -, abs) are defined in C++; the
operators that call op wrappers (==, !=, ~, /, @, &, |, ^, indexing, iterating an eager tensor)
are installed by graphfn.ops.tensor_operators, since framework/ sits below ops/."""

import sys

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework import tensor_shape
from graphfn.framework import device_placement
from graphfn.framework.tensor_shape import TensorShape
from graphfn.util import lazy_numpy
from graphfn.util.tf_export import tf_export

EagerTensor = _core.EagerTensor
SymbolicTensor = _core.SymbolicTensor


class _TensorType(type):
    """isinstance(x, graphfn.Tensor) for the two C++ tensor types. An ABC's registry check costs
    ~400 ns, and every op wrapper asks this question."""

    _concrete = (EagerTensor, SymbolicTensor)

    def __instancecheck__(cls, obj):
        return type(obj) in _TensorType._concrete

    def __subclasscheck__(cls, sub):
        return sub in _TensorType._concrete or type.__subclasscheck__(cls, sub)


class Tensor(metaclass=_TensorType):
    """The common type of eager and symbolic tensors: `isinstance(x, graphfn.Tensor)`."""


def numpy_text(t, is_repr):
    """The value part of TF's tensor str/repr."""
    if not t.dtype.is_numpy_compatible:
        return "<unprintable>"
    value = t._numpy()
    if not is_repr:
        text = str(value)
    elif lazy_numpy.is_scalar(value) and not isinstance(value, bytes):
        text = repr(value.item())  # NumPy 2 scalars repr as np.int32(29); TF shows 29
    else:
        text = repr(value)
    if "\n" in text:
        text = "\n" + text
    return text


def _install_eager(cls):
    """Adds the eager-only Python API to the C++ EagerTensor class."""

    def numpy(self):
        value = self._numpy()
        return value.copy() if lazy_numpy.is_ndarray(value) else value

    def __array__(self, dtype=None, copy=None):
        np = lazy_numpy.numpy()
        value = np.asarray(self._numpy())
        if dtype is not None and np.dtype(dtype) != value.dtype:
            return value.astype(dtype)
        return value.copy() if copy else value

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (
            numpy_text(self, False), self.shape, self.dtype.name)

    def __repr__(self):
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            self.shape, self.dtype.name, numpy_text(self, True))

    def __format__(self, format_spec):
        # As TF: formatted as the NumPy value ("{}".format(t) shows the number, not the repr).
        return self._numpy().__format__(format_spec)

    def __bool__(self):
        return bool(self._numpy())

    def __len__(self):
        if self._rank == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._shape_tuple()[0]

    def __index__(self):
        if not self.dtype.is_integer or self._rank != 0:
            raise TypeError("Only integer scalar tensors can be used as an index; got %r" % (self,))
        return int(self._numpy())

    def __int__(self):
        return int(self._numpy())

    def __float__(self):
        return float(self._numpy())

    def set_shape(self, shape):
        # An eager tensor's shape is known: set_shape only checks compatibility.
        shape = tensor_shape.checked_shape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError("Tensor's shape %s is not compatible with supplied shape %s." % (self.shape, shape))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _core.to_tensor, (self.numpy(), self._dtype_enum)

    _set_methods(cls, locals())
    cls.shape = property(lambda self: TensorShape(self._shape_tuple()))
    cls.ndim = property(lambda self: self._rank)
    cls.device = property(device_placement.eager_tensor_device)


def _set_methods(cls, namespace):
    for name, fn in namespace.items():
        if callable(fn) and name != "cls":
            setattr(cls, name, fn)


class Reference:
    """A hashable reference to a tensor (tensor.ref()): equal to references to the same object."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    def __eq__(self, other):
        return isinstance(other, Reference) and self._wrapped is other._wrapped

    def __hash__(self):
        return id(self._wrapped)

    def __repr__(self):
        return "<Reference wrapping %r>" % (self._wrapped,)


def _install_common(cls):
    """The Python API shared by eager and symbolic tensors."""

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self):
        return Reference(self)

    _set_methods(cls, locals())
    cls.dtype = property(lambda self: dtypes.from_enum(self._dtype_enum))
    cls.get_shape = lambda self: self.shape
    cls.__array_priority__ = 100
    cls.__module__ = "graphfn"


def _install_symbolic(cls):
    """The graph-tensor API: printing as TF prints a SymbolicTensor; no value to read."""

    def __str__(self):
        dims = self._shape_dims
        if dims is None:
            return 'Tensor("%s", dtype=%s)' % (self.name, self.dtype.name)
        return 'Tensor("%s", shape=%s, dtype=%s)' % (self.name, self.shape, self.dtype.name)

    def __repr__(self):
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)

    def __bool__(self):
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
            "following resolutions to the problem: If you are running in Graph mode, use Eager "
            "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
            "you can try decorating this function with @tf.function. If that does not work, then you "
            "may be using an unsupported feature or your source code may not be visible to AutoGraph. "
            "See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
            "reference/limitations.md#access-to-source-code for more information.")

    def __hash__(self):
        # As TF: a tensor of a tf.Graph() (not of a function's graph) hashes by identity, so it
        # can key a feed_dict.
        if not self.graph._standalone:
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def set_shape(self, shape):
        """Refines the static shape (TF's merge: unknown dims and ranks are filled in)."""
        merged = tensor_shape.merged_for_set_shape(self.shape, tensor_shape.checked_shape(shape))
        self._refine_shape(merged.dims)

    def __len__(self):
        dims = self._shape_dims
        if dims is None or not dims or dims[0] is None:
            raise TypeError("len is not well defined for a symbolic Tensor (%s). Please call `x.shape` rather "
                            "than `len(x)` for shape information." % self.name)
        return dims[0]

    def __iter__(self):
        raise errors.OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed. You can attempt the following "
            "resolutions to the problem: If you are running in Graph mode, use Eager execution mode "
            "or decorate this function with @tf.function. If you are using AutoGraph, you can try "
            "decorating this function with @tf.function. If that does not work, then you may be using "
            "an unsupported feature or your source code may not be visible to AutoGraph. See "
            "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
            "reference/limitations.md#access-to-source-code for more information.")

    def __getattr__(self, name):
        # Only reached for missing attributes: name the type as TF does (not graphfn._core...).
        raise AttributeError("'SymbolicTensor' object has no attribute '%s'" % name)

    _set_methods(cls, locals())
    cls.shape = property(lambda self: TensorShape(self._shape_dims))
    cls.ndim = property(lambda self: None if self._shape_dims is None else len(self._shape_dims))
    cls.device = property(lambda self: device_placement.operation_device(self.op))


for _cls in (EagerTensor, SymbolicTensor):
    _install_common(_cls)
_install_eager(EagerTensor)
_install_symbolic(SymbolicTensor)


@tf_export("is_tensor")
def is_tensor(x):
    """True for TF's tensor types, as tf.is_tensor: tensors (eager or symbolic), variables,
    SparseTensor, RaggedTensor, IndexedSlices and objects that say `is_tensor_like`; False for NumPy arrays,
    Python values, structures of tensors, and other composites (datasets, specs)."""
    if isinstance(x, (Tensor, _core.VariableBase)):
        return True
    # By sys.modules: a SparseTensor or RaggedTensor exists only once its module is loaded, and
    # is_tensor must not load tf.ragged.
    for module_name, class_name in _NATIVE_COMPOSITES:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(x, getattr(module, class_name)):
            return True
    return bool(getattr(x, "is_tensor_like", False))


# The composite tensors TF's is_tensor accepts (TF's internal.NativeObject subclasses).
_NATIVE_COMPOSITES = (("graphfn.ops.sparse_tensor", "SparseTensor"), ("graphfn.ops.ragged_tensor", "RaggedTensor"),
                      ("graphfn.framework.indexed_slices", "IndexedSlices"))
