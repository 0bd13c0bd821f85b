"""tf.experimental.ExtensionType: user-defined composite tensors declared by annotated fields.

    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

A subclass gets a constructor (fields by position or keyword, defaults from class attributes),
field conversion and checking (tensors converted; int, float, str, bool, TensorShape, DType,
Tuple[...], Mapping[...], Optional/Union checked), immutability, __validate__, TF's repr and
equality, and a nested `Spec` class (a TypeSpec, framework/type_spec.py): its tensor fields are
the components, the other fields are static parts of the type. So values pass into and out of
tf.function (traced by their Spec), through tf.nest(expand_composites=True), and take part in
TF's dispatch decorators (framework/dispatch.py) like RaggedTensor does."""

import collections.abc

from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.framework.type_spec import BatchableTypeSpec, TypeSpec
from graphfn.ops import array_ops, math_ops, reduction_ops
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

_IN_CONSTRUCTOR = "_tf_extension_type_constructing"


class ImmutableDict(dict):
    """A Mapping field's value: a dict that cannot change (tf.nest walks it as a dict)."""

    def _immutable(self, *args, **kwargs):
        raise TypeError("'ImmutableDict' object does not support item assignment")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _immutable

    def __repr__(self):
        return "ImmutableDict(%s)" % dict.__repr__(self)

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))


class _Field:
    __slots__ = ("name", "annotation", "default")

    def __init__(self, name, annotation, default):
        self.name, self.annotation, self.default = name, annotation, default


_NO_DEFAULT = object()  # a field without a default (inspect.Parameter.empty in signatures)


def _type_name(annotation):
    return getattr(annotation, "__name__", repr(annotation))


def _convert(name, annotation, value):
    """`value` checked and converted for a field annotated `annotation` (TF's TypeErrors)."""
    import typing  # noqa: PLC0415 (only subclass creation and construction need it)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union:
        errors = []
        for option in args:
            try:
                return _convert(name, option, value)
            except (TypeError, ValueError) as e:
                errors.append(e)
        raise TypeError("%s: expected %s, got %r" % (name, annotation, type(value).__name__))
    if origin in (tuple, collections.abc.Sequence):
        if not isinstance(value, (list, tuple)):
            raise TypeError("%s: expected %s, got %r" % (name, annotation, type(value).__name__))
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert("%s[%d]" % (name, i), args[0], v) for i, v in enumerate(value))
        if args and len(args) != len(value):
            raise TypeError("%s: expected %s, got %r" % (name, annotation, value))
        return tuple(_convert("%s[%d]" % (name, i), a, v) for i, (a, v) in enumerate(zip(args, value))) if args \
            else tuple(value)
    if origin in (collections.abc.Mapping, dict):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError("%s: expected %s, got %r" % (name, annotation, type(value).__name__))
        key_type, value_type = args if args else (object, object)
        return ImmutableDict((_convert(name, key_type, k), _convert("%s[%r]" % (name, k), value_type, v))
                             for k, v in value.items())
    if annotation is None or annotation is type(None):
        if value is not None:
            raise TypeError("%s: expected None, got %r" % (name, type(value).__name__))
        return None
    if annotation is Tensor:
        if isinstance(value, Tensor):
            return value
        if isinstance(value, CompositeTensor):
            raise TypeError("%s: expected a Tensor, got %r" % (name, type(value).__name__))
        try:
            return array_ops.convert_to_tensor(value)
        except (TypeError, ValueError):
            raise TypeError("%s: expected a Tensor, got %r" % (name, type(value).__name__)) from None
    if annotation is TensorShape:
        return value if isinstance(value, TensorShape) else TensorShape(value)
    if annotation is dtypes.DType:
        return dtypes.as_dtype(value)
    if annotation in (int, float, str, bool, bytes):
        if type(value) is not annotation and not (annotation is int and isinstance(value, int)
                                                   and not isinstance(value, bool)):
            raise TypeError("%s: expected %r, got %r" % (name, annotation.__name__, type(value).__name__))
        return value
    if isinstance(annotation, type):
        if not isinstance(value, annotation):
            raise TypeError("%s: expected %r, got %r" % (name, _type_name(annotation), type(value).__name__))
        return value
    return value  # typing constructs graphfn does not check (Any, ...)


def _spec_of(value):
    """A field value's part of the Spec: TensorSpecs for tensors, TypeSpecs for composites."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, ImmutableDict):
        return {k: _spec_of(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_spec_of(v) for v in value)
    return value


def _has_tensors(spec):
    if isinstance(spec, (TensorSpec, TypeSpec)):
        return True
    if isinstance(spec, dict):
        return any(_has_tensors(v) for v in spec.values())
    if isinstance(spec, tuple):
        return any(_has_tensors(v) for v in spec)
    return False


class _ExtensionTypeBase(CompositeTensor):
    """What ExtensionType and BatchableExtensionType share."""

    _tf_extension_type_fields = ()
    _spec_base = TypeSpec

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__ == __name__:
            return  # ExtensionType and BatchableExtensionType themselves
        import inspect  # lazily: `import graphfn` does not load inspect

        cls._tf_extension_type_fields = tuple(_collect_fields(cls))
        cls.__signature__ = inspect.Signature([
            inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              default=inspect.Parameter.empty if f.default is _NO_DEFAULT else f.default)
            for f in cls._tf_extension_type_fields])
        own_init = cls.__dict__.get("__init__")
        if own_init is not None:
            cls.__init__ = _wrap_custom_init(own_init)
        cls.Spec = _make_spec_class(cls)

    def __init__(self, *args, **kwargs):
        bound = type(self).__signature__.bind(*args, **kwargs)
        bound.apply_defaults()
        for f in self._tf_extension_type_fields:
            object.__setattr__(self, f.name, _convert(f.name, f.annotation, bound.arguments[f.name]))
        self._tf_extension_type_validate()

    def _tf_extension_type_validate(self):
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()

    def __setattr__(self, name, value):
        if not self.__dict__.get(_IN_CONSTRUCTOR, False):
            raise AttributeError("Cannot mutate attribute `%s` outside the custom constructor of ExtensionType." % name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError("Cannot mutate attribute `%s` outside the custom constructor of ExtensionType." % name)

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (f.name, getattr(self, f.name)) for f in self._tf_extension_type_fields))

    def __eq__(self, other):
        """As TF: False for another type or incompatible tensor shapes, else a bool scalar tensor."""
        if type(other) is not type(self):
            return False
        mine = nest.flatten(self._type_spec._to_components(self), expand_composites=True)
        theirs = nest.flatten(other._type_spec._to_components(other), expand_composites=True)
        static_equal = self._static_fields() == other._static_fields()
        if not static_equal or len(mine) != len(theirs):
            return False
        if any(not a.shape.is_compatible_with(b.shape) for a, b in zip(mine, theirs)):
            return False
        result = True
        for a, b in zip(mine, theirs):
            same = reduction_ops.reduce_all(math_ops.equal(a, b))
            result = same if result is True else math_ops.logical_and(result, same)
        return result if result is not True else math_ops.equal(True, True)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return not equal if isinstance(equal, bool) else math_ops.logical_not(equal)

    __hash__ = None

    def _static_fields(self):
        spec = self._type_spec
        return [getattr(self, name) for name in spec._field_names if name not in spec._tensor_names]

    @property
    def _type_spec(self):
        return self.Spec._from_value(self)


def _collect_fields(cls):
    """The annotated fields of cls and its bases, base classes' first, in declaration order."""
    import typing  # noqa: PLC0415 (lazily: `import graphfn` does not load typing)
    fields = {}
    for klass in reversed(cls.__mro__):
        if not issubclass(klass, _ExtensionTypeBase) or klass is _ExtensionTypeBase:
            continue
        own = klass.__dict__.get("__annotations__", {})
        if not own:
            continue
        try:
            hints = typing.get_type_hints(klass)
        except Exception:  # noqa: BLE001 (unresolvable string annotations stay as written)
            hints = own
        for name in own:
            if name.startswith("_"):
                continue
            default = klass.__dict__.get(name, _NO_DEFAULT)
            fields[name] = _Field(name, hints.get(name, own[name]), default)
    return list(fields.values())


def _wrap_custom_init(init):
    """A user's __init__ may set fields; afterwards they are checked and __validate__ runs."""

    def __init__(self, *args, **kwargs):
        object.__setattr__(self, _IN_CONSTRUCTOR, True)
        try:
            init(self, *args, **kwargs)
        finally:
            object.__delattr__(self, _IN_CONSTRUCTOR)
        for f in self._tf_extension_type_fields:
            if f.name not in self.__dict__:
                if f.default is _NO_DEFAULT:
                    raise ValueError("Custom constructor of %s failed to set field %r"
                                     % (type(self).__name__, f.name))
                object.__setattr__(self, f.name, f.default)
            object.__setattr__(self, f.name, _convert(f.name, f.annotation, self.__dict__[f.name]))
        self._tf_extension_type_validate()

    __init__.__wrapped__ = init
    return __init__


class ExtensionTypeSpec(TypeSpec):
    """The TypeSpec of an ExtensionType: one attribute per field (tensor fields as TensorSpecs,
    composite fields as their TypeSpecs, other fields as their values)."""

    _value_class = None     # set on each generated Spec class
    _field_names = ()

    def __init__(self, *args, **kwargs):
        import inspect  # lazily: `import graphfn` does not load inspect

        names = self._field_names
        signature = inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])
        bound = signature.bind(*args, **kwargs)
        for name in names:
            value = bound.arguments[name]
            if isinstance(value, dict) and not isinstance(value, ImmutableDict):
                value = ImmutableDict(value)
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("Cannot mutate attribute `%s` of a TypeSpec." % name)

    @classmethod
    def _from_value(cls, value):
        return cls(*[_spec_of(getattr(value, name)) for name in cls._field_names])

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    @property
    def value_type(self):
        return self._value_class

    @property
    def _tensor_names(self):
        """The fields holding tensors (the components); the others are static parts of the type."""
        return tuple(n for n in self._field_names if _has_tensors(getattr(self, n)))

    def _serialize(self):
        return tuple(dict(v) if isinstance(v, ImmutableDict) else v
                     for v in (getattr(self, n) for n in self._field_names))

    @property
    def _component_specs(self):
        return tuple(getattr(self, name) for name in self._tensor_names)

    def _to_components(self, value):
        return tuple(getattr(value, name) for name in self._tensor_names)

    def _from_components(self, components):
        # As TF: no conversion and no __validate__ (placeholders may have unknown shapes).
        value = object.__new__(self._value_class)
        for name, component in zip(self._tensor_names, components):
            object.__setattr__(value, name, ImmutableDict(component) if isinstance(component, dict) else component)
        for name in self._field_names:
            if name not in self._tensor_names:
                object.__setattr__(value, name, getattr(self, name))
        return value

    def _cast_argument(self, value):
        if not isinstance(value, (self._value_class, TypeSpec)) and self._tensor_names:
            raise TypeError("'%s'" % self._tensor_names[0])  # TF's text: the missing field's KeyError
        return super()._cast_argument(value)

    def __repr__(self):
        return "%s.Spec(%s)" % (self._value_class.__name__, ", ".join(
            "%s=%r" % (n, dict(getattr(self, n)) if isinstance(getattr(self, n), ImmutableDict) else getattr(self, n))
            for n in self._field_names))


class BatchableExtensionTypeSpec(ExtensionTypeSpec, BatchableTypeSpec):
    """The Spec of a BatchableExtensionType: batching adds a leading dimension to every tensor."""

    def _batch(self, batch_size):
        return self._map_tensor_specs(lambda s: s._batch(batch_size) if isinstance(s, BatchableTypeSpec)
                                      else TensorSpec(TensorShape([batch_size]).dims + (s.shape.dims or [])
                                                      if s.shape.rank is not None else None, s.dtype))

    def _unbatch(self):
        return self._map_tensor_specs(lambda s: s._unbatch() if isinstance(s, BatchableTypeSpec)
                                      else TensorSpec(None if s.shape.rank is None else s.shape.dims[1:], s.dtype))

    def _map_tensor_specs(self, fn):
        parts = []
        for name in self._field_names:
            value = getattr(self, name)
            if name in self._tensor_names:
                value = nest.map_structure(fn, dict(value) if isinstance(value, ImmutableDict) else value)
            parts.append(value)
        return type(self)(*parts)


def _make_spec_class(cls):
    """cls.Spec: the user's own `class Spec` (for extra methods) mixed with the generated one."""
    user_spec = cls.__dict__.get("Spec")
    base = BatchableExtensionTypeSpec if issubclass(cls, BatchableExtensionType) else ExtensionTypeSpec
    bases = (user_spec, base) if user_spec is not None and not issubclass(user_spec, TypeSpec) else (base,)
    namespace = {
        "_value_class": cls, "_field_names": tuple(f.name for f in cls._tf_extension_type_fields),
        "__qualname__": cls.__qualname__ + ".Spec", "__module__": cls.__module__,
    }
    return type("Spec", bases, namespace)


@tf_export("experimental.ExtensionType")
class ExtensionType(_ExtensionTypeBase):
    """Base class of user-defined composite types; declare fields as class annotations."""


@tf_export("experimental.BatchableExtensionType")
class BatchableExtensionType(_ExtensionTypeBase):
    """An ExtensionType whose values can be batched (its Spec is a BatchableTypeSpec)."""


tf_export("experimental.ExtensionTypeSpec")(ExtensionTypeSpec)
