"""The TypeSpecs of tf.data's composites that are described by an element spec alone
(tf.data.IteratorSpec, tf.OptionalSpec): the spec, its serialization and TF's repr."""

from graphfn.framework.type_spec import TypeSpec


class ElementSpecTypeSpec(TypeSpec):
    """A TypeSpec whose only parameter is `element_spec` (a nest of TensorSpecs and TypeSpecs)."""

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @classmethod
    def from_value(cls, value):
        return cls(value.element_spec)

    def _serialize(self):
        return (self._element_spec,)

    def __repr__(self):  # TF's: the class name and the serialization tuple
        return "%s%r" % (type(self).__name__, self._serialize())
