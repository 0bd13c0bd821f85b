"""tf.TypeSpec: the type of a composite value (a RaggedTensor, a SparseTensor, a tf.data
dataset, an ExtensionType) — graphfn's one composite-tensor mechanism.

A spec describes its value by components: `_component_specs` (a nest of TensorSpecs and nested
TypeSpecs), `_to_components(value)` and `_from_components(components)`. Everything else is built
from those and from `_serialize()` (the spec's parameters, e.g. (shape, dtype, ragged_rank,
row_splits_dtype)):
- equality, hashing and printing come from `_serialize()`;
- tracing: a spec is its own TraceType, so `function` keys a composite argument by its spec
  (subtyping and reduce_retracing generalize the TensorShapes inside the serialization), and the
  traced function receives `_from_components` of one placeholder per flat component;
- tf.nest with expand_composites=True flattens a composite into its flat component tensors.
The function layer only asks `isinstance(x, CompositeTensor)` / `isinstance(x, TypeSpec)`."""

import abc

from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


@tf_export("TypeSpec")
class TypeSpec(metaclass=abc.ABCMeta):
    """The type of a composite value; subclasses define the five abstract members. It is a
    tf.types.experimental.TraceType (function/trace_type.py registers it as one)."""

    _graphfn_type_spec = True  # accepted in a function's input_signature
    __slots__ = ()

    # What a subclass defines -------------------------------------------------------------------

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python class of the values this spec describes."""

    @property
    @abc.abstractmethod
    def _component_specs(self):
        """A nest of TensorSpecs (and TypeSpecs) describing `_to_components`' result."""

    @abc.abstractmethod
    def _to_components(self, value):
        """The nest of tensors (and composites) `value` is made of."""

    @abc.abstractmethod
    def _from_components(self, components):
        """A value of this spec from the nest `_to_components` gave (eager or graph tensors)."""

    @abc.abstractmethod
    def _serialize(self):
        """The spec's parameters as a tuple: `type(self)(*self._serialize())` rebuilds it."""

    @classmethod
    def _deserialize(cls, serialization):
        return cls(*serialization)

    # Flat tensors ------------------------------------------------------------------------------

    @property
    def _flat_tensor_specs(self):
        return nest.flatten(self._component_specs, expand_composites=True)

    def _to_tensor_list(self, value):
        return nest.flatten(self._to_components(value), expand_composites=True)

    def _from_tensor_list(self, tensors):
        return self._from_components(nest.pack_sequence_as(self._component_specs, list(tensors),
                                                           expand_composites=True))

    # Types -------------------------------------------------------------------------------------

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else getattr(spec_or_value, "_type_spec", None)
        if other is None or type(other) is not type(self):
            return False
        return _leaves_agree(self._serialize(), other._serialize(), _compatible)

    def is_subtype_of(self, other):
        if type(other) is not type(self):
            return False
        return _leaves_agree(self._serialize(), other._serialize(), _subtype)

    def most_specific_common_supertype(self, others):
        result = self
        for other in others:
            if type(other) is not type(self):
                return None
            merged = _supertype(result._serialize(), other._serialize())
            if merged is _NONE:
                return None
            result = self._deserialize(merged)
        return result

    def __tf_tracing_type__(self, context):
        return self  # get_concrete_function(spec) and input_signature trace the spec itself

    # Tracing (the hooks graphfn's function layer calls) ----------------------------------------

    def placeholder_value(self, placeholder_context):
        raise NotImplementedError("a TypeSpec's placeholder is made by graphfn's tracing (_graph_placeholder)")

    def _graph_placeholder(self, graph, name):
        """The value a traced function receives: one placeholder of `graph` per flat component."""
        placeholders = []
        for spec in self._flat_tensor_specs:
            dims = spec.shape.dims
            placeholders.append(graph.add_placeholder(spec.dtype.as_datatype_enum,
                                                      None if dims is None else tuple(dims), name))
        return self._from_tensor_list(placeholders)

    def _cast_argument(self, value):
        """A call's argument for a parameter of this spec (input_signature); TypeError if it
        does not fit (the binding error's text)."""
        if isinstance(value, TypeSpec):
            return value  # get_concrete_function(spec)
        try:  # as TF: the value's components must fit the spec's component specs
            components = self._to_components(value)
        except AttributeError as e:
            raise TypeError(str(e).replace("'graphfn._core.EagerTensor'", "'tensorflow.python.framework.ops.EagerTensor'")) from None
        try:
            nest.assert_same_structure(self._component_specs, components, check_types=False, expand_composites=True)
        except (ValueError, TypeError) as e:
            raise TypeError(str(e)) from None
        flat = nest.flatten(components, expand_composites=True)
        specs = self._flat_tensor_specs
        for tensor, spec in zip(flat, specs):
            mine = TensorSpec(tensor.shape, tensor.dtype)
            if mine.dtype != spec.dtype or not spec.shape.is_compatible_with(mine.shape):
                raise TypeError("Can not cast %r to %r" % (mine, TensorSpec(spec.shape, spec.dtype)))
        return value

    # Values ------------------------------------------------------------------------------------

    def _comparable(self):
        return _comparable(self._serialize())

    def __eq__(self, other):
        return type(other) is type(self) and self._comparable() == other._comparable()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, self._comparable()))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(repr(part) for part in self._serialize()))

    def __reduce__(self):
        return self._deserialize, (self._serialize(),)


class BatchableTypeSpec(TypeSpec):
    """A TypeSpec whose values can be batched and unbatched (tf.data's batch/unbatch, map_fn):
    subclasses define `_batch(batch_size)` and `_unbatch()`; values are encoded as a list of
    tensors with one more leading dimension by `_to_batched_tensor_list`."""

    __slots__ = ()

    @abc.abstractmethod
    def _batch(self, batch_size):
        """The spec of a batch of `batch_size` values of this spec."""

    @abc.abstractmethod
    def _unbatch(self):
        """The spec of one element of a batch of this spec."""


# Serializations: nested tuples/lists/dicts whose leaves are TensorShapes, DTypes, TypeSpecs,
# TensorSpecs and Python values. Shapes are where specs differ by degree (subtyping).

_NONE = object()  # "no common supertype"


def _comparable(part):
    if isinstance(part, TensorShape):
        return ("TensorShape", None if part.dims is None else tuple(part.dims))
    if isinstance(part, (list, tuple)):
        return (type(part).__name__,) + tuple(_comparable(p) for p in part)
    if isinstance(part, dict):
        return ("dict",) + tuple((k, _comparable(part[k])) for k in sorted(part, key=repr))
    return part


def _leaves_agree(a, b, leaf_check):
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_leaves_agree(x, y, leaf_check) for x, y in zip(a, b)))
    if isinstance(a, dict):
        return (isinstance(b, dict) and set(a) == set(b)
                and all(_leaves_agree(a[k], b[k], leaf_check) for k in a))
    return leaf_check(a, b)


def _compatible(a, b):
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and a.is_compatible_with(b)
    if isinstance(a, (TypeSpec, TensorSpec)):
        return type(b) is type(a) and a.is_compatible_with(b)
    return type(a) is type(b) and a == b if not isinstance(a, dtypes.DType) else a == b


def _subtype(a, b):
    if isinstance(a, TensorShape):
        if not isinstance(b, TensorShape):
            return False
        if b.dims is None:
            return True
        return (a.dims is not None and len(a.dims) == len(b.dims)
                and all(t is None or m == t for m, t in zip(a.dims, b.dims)))
    if isinstance(a, (TypeSpec, TensorSpec)):
        return type(b) is type(a) and a.is_subtype_of(b)
    return a == b


def _supertype(a, b):
    if isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            return _NONE
        parts = [_supertype(x, y) for x, y in zip(a, b)]
        return _NONE if any(p is _NONE for p in parts) else type(a)(parts)
    if isinstance(a, dict):
        if not isinstance(b, dict) or set(a) != set(b):
            return _NONE
        parts = {k: _supertype(a[k], b[k]) for k in a}
        return _NONE if any(p is _NONE for p in parts.values()) else parts
    if isinstance(a, TensorShape):
        if not isinstance(b, TensorShape):
            return _NONE
        if a.dims is None or b.dims is None or len(a.dims) != len(b.dims):
            return TensorShape(None)
        return TensorShape([m if m == t else None for m, t in zip(a.dims, b.dims)])
    if isinstance(a, TensorSpec):
        merged = a.most_specific_common_supertype(b) if isinstance(b, TensorSpec) else None
        return _NONE if merged is None else merged
    if isinstance(a, TypeSpec):
        merged = a.most_specific_common_supertype([b])
        return _NONE if merged is None else merged
    return a if a == b else _NONE


def type_spec_of(value):
    """The TypeSpec of a composite value, else None."""
    return value._type_spec if isinstance(value, CompositeTensor) else None
