"""How a call's arguments become a cache key (TF's TraceType rules).

Tensors and NumPy arrays are keyed by dtype and shape (a TensorSpec); Python scalars, strings
and None by value (so 1, 1.0 and True share a key); lists, tuples, namedtuples and dicts by
structure (dict key order does not matter); other hashable objects by identity-or-equality
through a weak reference; unhashable values are rejected."""

import math
import weakref

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import TypeSpec
from graphfn.function.trace_type_protocol import TraceType, custom_trace_type
from graphfn.util.lazy_numpy import is_ndarray
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable


class Literal:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def _is_nan(self):
        return isinstance(self.value, float) and math.isnan(self.value)

    def __eq__(self, other):
        if not isinstance(other, Literal):
            return False
        if self._is_nan() and other._is_nan():
            return True
        return self.value == other.value  # plain ==, as TF: 1, 1.0 and True are one key

    def __hash__(self):
        return hash("nan") if self._is_nan() else hash(self.value)

    def __repr__(self):
        return "Literal[%r]" % (self.value,)


class Sequence:
    """List[...] / Tuple[...] / a namedtuple's type, with element types."""

    __slots__ = ("kind", "elements", "fields")

    def __init__(self, kind, elements, fields=None):
        self.kind = kind          # list, tuple or the namedtuple class
        self.elements = tuple(elements)
        self.fields = fields

    def __eq__(self, other):
        return (isinstance(other, Sequence) and self.kind is other.kind
                and self.elements == other.elements)

    def __hash__(self):
        return hash((id(self.kind), self.elements))

    def __repr__(self):
        if self.fields is not None:
            return "%s[%s]" % (self.kind.__name__, ", ".join(
                "[%r, %r]" % (f, e) for f, e in zip(self.fields, self.elements)))
        name = "List" if self.kind is list else "Tuple"
        return "%s[%s]" % (name, ", ".join(repr(e) for e in self.elements))


class Mapping:
    """A dict's type: printed in the dict's own key order (as TF does), compared regardless of it."""

    __slots__ = ("items", "sorted_items")

    def __init__(self, items):
        self.items = tuple(items)
        self.sorted_items = tuple(sorted(self.items, key=lambda kv: repr(kv[0])))

    def __eq__(self, other):
        return isinstance(other, Mapping) and self.sorted_items == other.sorted_items

    def __hash__(self):
        return hash(self.sorted_items)

    def __repr__(self):
        return "Dict[%s]" % ", ".join("[%r, %r]" % kv for kv in self.items)


class Weakref:
    """An object keyed by identity or equality; a dead reference never matches."""

    __slots__ = ("ref", "hash")

    def __init__(self, obj):
        self.ref = weakref.ref(obj)
        self.hash = hash(obj)

    def __eq__(self, other):
        if not isinstance(other, Weakref):
            return False
        a, b = self.ref(), other.ref()
        return a is not None and b is not None and (a is b or a == b)

    def __hash__(self):
        return self.hash

    def __repr__(self):
        return "Weakref[%r]" % (self.ref(),)


class VariableSpec:
    """A Variable argument: dtype, shape, trainable, and which argument slot it aliases (so
    f(v1, v1) and f(v1, v2) are different keys, but f(v1) and f(v2) share one)."""

    __slots__ = ("shape", "dtype", "trainable", "alias_id")

    def __init__(self, shape, dtype, trainable, alias_id):
        self.shape, self.dtype, self.trainable, self.alias_id = shape, dtype, trainable, alias_id

    def _key(self):
        return (None if self.shape.dims is None else tuple(self.shape.dims), self.dtype, self.trainable, self.alias_id)

    def __eq__(self, other):
        return isinstance(other, VariableSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "VariableSpec(shape=%s, dtype=%r, trainable=%r, alias_id=%r)" % (
            self.shape, self.dtype, self.trainable, self.alias_id)


def trace_type(value, aliases=None):
    """The TraceType of one argument value. `aliases` (shared across one call's arguments)
    numbers the distinct variables in order of appearance."""
    if aliases is None:
        aliases = {}
    if isinstance(value, Variable):
        alias = aliases.setdefault(id(value._handle), len(aliases))
        # trainable as created (TF keys a Keras variable by its underlying variable's flag)
        return VariableSpec(value.shape, value.dtype, value._trainable, alias)
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if is_ndarray(value):
        return TensorSpec(value.shape, dtypes.as_dtype(value.dtype))
    if isinstance(value, TensorSpec):
        return TensorSpec(value.shape, value.dtype, value.name)
    if isinstance(value, weakref.ref):
        raise TypeError("weakref input %r not supported for tf.function." % (value,))
    if isinstance(value, list):
        return Sequence(list, [trace_type(v, aliases) for v in value])
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return Sequence(type(value), [trace_type(v, aliases) for v in value], value._fields)
        return Sequence(tuple, [trace_type(v, aliases) for v in value])
    if isinstance(value, dict):
        return Mapping([(k, trace_type(v, aliases)) for k, v in value.items()])
    if value is None or isinstance(value, (bool, int, float, str, bytes, range)):
        return Literal(value)
    custom = custom_trace_type(value)  # the tracing protocol: tf.types.experimental.TraceType
    if custom is not None:
        return custom
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            "Could not generate a generic TraceType for %r.Please verify that it is immutable/hashable. "
            "Otheriwse, consider implementing the Tracing Protocol for it." % (value,)) from None
    try:
        return Weakref(value)
    except TypeError:
        return Literal(value)


def trace_type_for_call_cache(value):
    """The trace type of a leaf the C++ call cache cannot key itself (an object with its own
    equality, an int beyond 64 bits, an enum member), or None to leave the call to Python: values
    that become tensors, containers C++ does not walk, and values without a trace type."""
    if isinstance(value, (Tensor, TensorSpec, Variable, list, tuple, dict, weakref.ref)) or is_ndarray(value):
        return None
    if isinstance(value, CompositeTensor):
        return None  # a composite feeds its component tensors, which the C++ cache does not gather
    try:
        return trace_type(value)
    except TypeError:
        return None


def is_custom(t):
    """A TraceType a user class gave itself (not one of graphfn's own)."""
    return isinstance(t, TraceType) and not isinstance(t, _OWN_TYPES)


def is_subtype(a, b):
    """True when a call of type `a` may use a trace made for type `b`."""
    if a == b:
        return True
    if isinstance(a, TensorSpec):
        return a.is_subtype_of(b)
    if is_custom(a):
        return a.is_subtype_of(b)
    if isinstance(a, Sequence) and isinstance(b, Sequence):
        return (a.kind is b.kind and len(a.elements) == len(b.elements)
                and all(is_subtype(x, y) for x, y in zip(a.elements, b.elements)))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return (len(a.items) == len(b.items) and all(
            ka == kb and is_subtype(va, vb) for (ka, va), (kb, vb) in zip(a.sorted_items, b.sorted_items)))
    return False


def common_supertype(a, b):
    """The most specific type both `a` and `b` are subtypes of, or None (reduce_retracing)."""
    if a == b:
        return a
    if isinstance(a, TensorSpec):
        return a.most_specific_common_supertype(b)
    if is_custom(a):
        return a.most_specific_common_supertype([b])
    if isinstance(a, Sequence) and isinstance(b, Sequence):
        if a.kind is not b.kind or len(a.elements) != len(b.elements):
            return None
        parts = [common_supertype(x, y) for x, y in zip(a.elements, b.elements)]
        return None if any(p is None for p in parts) else Sequence(a.kind, parts, a.fields)
    return None


@tf_export("type_spec_from_value")
def type_spec_from_value(value):
    """The spec of a value: a composite's TypeSpec, a VariableSpec for a Variable (no alias), else
    the TensorSpec of the tensor it is or converts to; TF's TypeError for anything else. (TF gives
    NoneTensorSpec for None; graphfn does not.)"""
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, Variable):
        return VariableSpec(value.shape, value.dtype, value._trainable, None)
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    try:
        tensor = _core.to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError("Could not build a TypeSpec for %s of unsupported type %s." % (value, type(value))) from None
    return TensorSpec(tensor.shape, tensor.dtype)


# graphfn's own trace types are TraceTypes, as TF's are.
_OWN_TYPES = (Literal, Sequence, Mapping, Weakref, VariableSpec, TensorSpec)
for _own in _OWN_TYPES:
    TraceType.register(_own)
TraceType.register(TypeSpec)  # composite types: their specs trace them (a TypeSpec's own methods)
