"""CompositeTensor (TF's tf.__internal__.CompositeTensor): a value made of several tensors,
described by a TypeSpec (type_spec.py). This module defines only the base class, so that every
layer (tf.nest, the function layer, tf.data) can recognise composites without importing their
implementations."""

import abc


class CompositeTensor(metaclass=abc.ABCMeta):
    """A value whose `_type_spec` (a TypeSpec) says how it splits into component tensors."""

    __slots__ = ()
    _graphfn_composite = True  # how util/nest.py (a lower layer) recognises composites

    @property
    @abc.abstractmethod
    def _type_spec(self):
        """The TypeSpec describing this value."""

    def _shape_invariant_to_type_spec(self, shape):
        """The spec of this value with a relaxed shape (tf.while_loop's shape_invariants)."""
        raise NotImplementedError("%s does not support shape invariants" % type(self).__name__)

    def __tf_tracing_type__(self, context):
        return self._type_spec  # function traces and keys a composite argument by its spec
