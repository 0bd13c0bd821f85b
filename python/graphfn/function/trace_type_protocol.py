"""tf.types.experimental.TraceType: the tracing protocol for user classes.

An object whose class defines `__tf_tracing_type__(context)` is keyed, when passed to a
`function`, by the TraceType that method returns: calls whose argument types are subtypes of a
trace's reuse it (`is_subtype_of`), `reduce_retracing` generalizes with
`most_specific_common_supertype`, and the traced function receives `placeholder_value(...)`.
graphfn's own trace types (trace_type.py) are registered as virtual subclasses, as TF's are
subclasses."""

import abc

from graphfn.util.tf_export import tf_export


class TracingContext:
    """What `__tf_tracing_type__` is given (TF passes its own context; nothing in it is public)."""


class PlaceholderContext:
    """What `placeholder_value` is given (reserved by TF for internal use)."""


class CastContext:
    """What `cast` is given (reserved by TF for internal use)."""


@tf_export("types.experimental.TraceType")
class TraceType(metaclass=abc.ABCMeta):
    """The type of an object for tf.function tracing: decides when a traced concrete function
    can be reused for a call, and what the traced function receives."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """True when a value of this type may use a trace made for `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type that this and every one of `others` are subtypes of, or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value the traced function receives for an argument of this type."""

    def to_tensors(self, value):
        """The tensors a value of this type holds (none by default)."""
        del value
        return []

    def from_tensors(self, tensors):
        """A value of this type from the tensors `to_tensors` gave."""
        del tensors
        return self.placeholder_value(PlaceholderContext())

    def flatten(self):
        """The TraceTypes of the tensors `to_tensors` gives (none by default)."""
        return []

    def cast(self, value, cast_context):
        """`value` as this type; by default it must equal the placeholder value."""
        del cast_context
        assert value == self.placeholder_value(PlaceholderContext()), f"Can not cast {value!r} to type {self!r}"
        return value

    @abc.abstractmethod
    def __hash__(self):
        pass

    @abc.abstractmethod
    def __eq__(self, other):
        pass


def custom_trace_type(value):
    """The TraceType an object gives itself through `__tf_tracing_type__`, else None."""
    method = getattr(type(value), "__tf_tracing_type__", None)
    if method is None:
        return None
    return method(value, TracingContext())
