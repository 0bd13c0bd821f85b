"""tf.experimental.Optional: a value that may be absent (what TF's iterator.get_next_as_optional
gives). It is a composite tensor (OptionalSpec): a boolean `has_value` tensor and the value's
tensors, so a function can return one (Keras's training step returns its logs in an Optional).
An empty Optional holds zeros of its element spec in place of the value."""

from graphfn.data.element_spec_type import ElementSpecTypeSpec
from graphfn.framework import dtypes
from graphfn.framework import errors
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


@tf_export("experimental.Optional")
class Optional(CompositeTensor):
    """An optional value: has_value() is a boolean tensor, get_value() the value."""

    def __init__(self, value, has_value, element_spec):
        self._value = value
        self._has_value = has_value  # a Python bool, or a boolean tensor (one a function returned)
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        from graphfn.data import structure  # lazily: tf.data's structure helpers
        return Optional(value, True, nest.map_structure(structure.spec_of, value))

    @staticmethod
    def empty(element_spec):
        return Optional(None, False, element_spec)

    def has_value(self, name=None):
        from graphfn.ops import array_ops  # lazily: ops import most of graphfn
        return array_ops.convert_to_tensor(self._has_value, dtype=dtypes.bool)

    def get_value(self, name=None):
        if isinstance(self._has_value, bool):
            present = self._has_value
        else:
            from graphfn import context  # a tensor: known eagerly; in a graph the value is returned as is
            present = bool(self._has_value) if context.executing_eagerly() else True
        if not present:
            raise errors.InvalidArgumentError(None, None, "The optional does not have a value")
        return self._value

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self):
        return OptionalSpec(self._element_spec)


@tf_export("OptionalSpec")
class OptionalSpec(ElementSpecTypeSpec):
    """The type of an Optional: its element spec."""

    @property
    def value_type(self):
        return Optional

    @property
    def _component_specs(self):
        return (TensorSpec((), dtypes.bool), self._element_spec)

    def _to_components(self, value):
        if value._value is None and not (isinstance(value._has_value, bool) and value._has_value):
            from graphfn.ops import array_ops  # an empty Optional: zeros stand for the value
            filler = nest.map_structure(
                lambda spec: array_ops.zeros([d or 0 for d in spec.shape.as_list()], spec.dtype),
                self._element_spec)
            return (value.has_value(), filler)
        return (value.has_value(), value._value)

    def _from_components(self, components):
        has_value, value = components
        return Optional(value, has_value, self._element_spec)
