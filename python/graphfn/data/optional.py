"""tf.experimental.Optional: a value that may be absent (what TF's iterator.get_next_as_optional
gives). As in TF it is one tensor (OptionalSpec's only component) made by the Optional ops
(OptionalFromValue, OptionalNone; read by OptionalHasValue and OptionalGetValue): TF's is a
`variant` scalar, graphfn's a `resource` scalar (core/optional_value.h). Being one tensor whatever
its element, an Optional can be a loop variable whose element spec is only known once the loop's
body has been traced, which Keras's training loop relies on (steps_per_execution > 1)."""

from graphfn.data.element_spec_type import ElementSpecTypeSpec
from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util.tf_export import tf_export


def _ops():
    from graphfn.ops._op_table import ops  # lazily: the op table imports most of graphfn
    return ops


@tf_export("experimental.Optional")
class Optional(CompositeTensor):
    """An optional value: has_value() is a boolean tensor, get_value() the value (an error when
    there is none)."""

    def __init__(self, variant_tensor, element_spec):
        self._variant_tensor = variant_tensor
        self._element_spec = element_spec

    @staticmethod
    def from_value(value):
        from graphfn.data import structure  # lazily: tf.data's structure helpers
        value = structure.to_tensors(value)
        spec = structure.map_structure(
            lambda v: v._type_spec if isinstance(v, CompositeTensor) else structure.spec_of(v), value)
        flat = structure.flatten(value)
        if not flat:
            raise ValueError("graphfn does not support tf.experimental.Optional.from_value() of a value without "
                             "tensors yet")
        return Optional(_ops().OptionalFromValue(flat), spec)

    @staticmethod
    def empty(element_spec):
        return Optional(_ops().OptionalNone(), element_spec)

    def has_value(self, name=None):
        return _ops().OptionalHasValue(self._variant_tensor)

    def get_value(self, name=None):
        from graphfn.data import structure  # lazily, as in from_value
        specs = structure.flatten(self._element_spec)
        components = _ops().OptionalGetValue(self._variant_tensor, output_types=[s.dtype for s in specs])
        components = list(components) if isinstance(components, (list, tuple)) else [components]
        for component, spec in zip(components, specs):
            component.set_shape(spec.shape)
        return structure.pack(self._element_spec, components)

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def _type_spec(self):
        return OptionalSpec(self._element_spec)


@tf_export("OptionalSpec")
class OptionalSpec(ElementSpecTypeSpec):
    """The type of an Optional: its element spec; one scalar tensor whatever the element."""

    @property
    def value_type(self):
        return Optional

    @property
    def _component_specs(self):
        return TensorSpec((), dtypes.resource)

    def _to_components(self, value):
        return value._variant_tensor

    def _from_components(self, components):
        return Optional(components, self._element_spec)

