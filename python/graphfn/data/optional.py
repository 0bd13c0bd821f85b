"""tf.experimental.Optional: a value that may be absent (what TF's iterator.get_next_as_optional
gives). graphfn's is an eager Python object: it exists so that code which checks for Optionals
(Keras's training loop) runs; it is not yet a composite tensor that crosses tf.function
boundaries."""

from graphfn.framework import errors
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


@tf_export("experimental.Optional")
class Optional:
    """An optional value: has_value() is a boolean tensor, get_value() the value."""

    def __init__(self, value, has_value, element_spec):
        self._value = value
        self._has_value = has_value
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
        return array_ops.constant(self._has_value)

    def get_value(self, name=None):
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The optional does not have a value")
        return self._value

    @property
    def element_spec(self):
        return self._element_spec

