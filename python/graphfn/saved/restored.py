"""The objects graphfn.saved_model.load returns: restored modules (attributes only), restored
tf.functions that dispatch a call to the first saved trace whose signature accepts it (as TF's
restored functions do; nothing is traced again), concrete functions, and signatures."""

import collections.abc
import inspect

from graphfn import _core
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import binding
from graphfn.function.concrete_function import ConcreteFunction, _spec_or_value
from graphfn.module.module import Module
from graphfn.util import nest


class _UserObject(Module):
    """A restored tf.Module (or the root of any saved object): its saved attributes, and
    `signatures`. graphfn also gives it Module's variables / trainable_variables."""

    def __init__(self):  # no name scope: nothing is created under it
        self._name = "user_object"
        self._scope_name = ""


class _CallableUserObject(_UserObject):
    def __call__(self, *args, **kwargs):
        return self.__dict__["__call__"](*args, **kwargs)


def _saved_or_module_property(name):
    """A saved attribute named like one of Module's properties (a Keras export saves
    `variables`) is what the object gives; else Module's property answers."""
    module_property = getattr(Module, name)

    def get(self):
        saved = self.__dict__.get(name, _NOT_SAVED)
        return module_property.fget(self) if saved is _NOT_SAVED else saved

    def set_saved(self, value):
        self.__dict__[name] = value

    return property(get, set_saved, doc=module_property.__doc__)


_NOT_SAVED = object()
for _name, _value in list(vars(Module).items()):
    if isinstance(_value, property) and not _name.startswith("_"):
        setattr(_UserObject, _name, _saved_or_module_property(_name))


_CallableUserObject.__name__ = _CallableUserObject.__qualname__ = "_UserObject"


def user_object(callable_):
    """A restored module; callable when it saved a __call__ (Python looks __call__ up on the
    class, so callable ones get a class that forwards to the restored attribute)."""
    return _CallableUserObject() if callable_ else _UserObject()


class RestoredConcreteFunction(ConcreteFunction):
    """A concrete function loaded from a file: its graph runs (or is inlined into a graph
    being traced) like a traced one."""

    @property
    def structured_outputs(self):
        return nest.map_structure(lambda t: _spec_or_value(t) if isinstance(t, Tensor) else t,
                                  self._structured_outputs)


class RestoredSignature(RestoredConcreteFunction):
    """A signature: keyword-only tensor inputs, a dict of outputs named as TF names them."""

    @property
    def structured_outputs(self):
        return {k: TensorSpec(t.shape, t.dtype, k) for k, t in self._structured_outputs.items()}

    # TF binds signatures strictly: missing inputs are reported before unexpected ones, and the
    # flat fallback is keyword-only too.
    def _bind_structured(self, args, kwargs):
        self._signature.bind(*args, **kwargs)
        return super()._bind_structured(args, kwargs)

    def _bind_flat(self, args, kwargs):
        names = list(self._signature.parameters)
        head = "%s(%s)" % (self._python_name, ", ".join(names))
        if args:
            raise TypeError("%s takes 0 positional arguments, got %d." % (head, len(args)))
        missing = [n for n in names if n not in kwargs]
        if missing:
            raise TypeError("%s missing required arguments: %s." % (head, ", ".join(missing)))
        return super()._bind_flat(args, kwargs)


class RestoredFunction:
    """A restored tf.function: calls go to the first saved concrete function that accepts the
    arguments (tensors of a compatible dtype and shape, equal Python values)."""

    def __init__(self, name, signature, input_signature, concrete_functions):
        self._name = name
        self._signature = signature
        self._input_signature = input_signature
        self.concrete_functions = list(concrete_functions)
        self._specs = [{p.name: nest.map_structure(_spec_or_value, cf._arguments[p.name])
                        for p in cf.function_type.parameters} for cf in self.concrete_functions]

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_spec(self):
        return self._signature

    def __call__(self, *args, **kwargs):
        if not self.concrete_functions:
            raise ValueError("Found zero restored functions for caller function.")
        if self._input_signature is not None:
            arguments = binding.bind_arguments(self._signature, self._input_signature, args, kwargs)
            bound = inspect.BoundArguments(self._signature, arguments)
            args, kwargs = bound.args, bound.kwargs
        for concrete, specs in zip(self.concrete_functions, self._specs):
            flat = _match(concrete, specs, args, kwargs)
            if flat is not None:
                return concrete._call_flat(flat)
        raise ValueError(self._no_match_message(args, kwargs))

    def get_concrete_function(self, *args, **kwargs):
        """The saved concrete function whose signature matches these TensorSpecs / values."""
        for concrete, specs in zip(self.concrete_functions, self._specs):
            if _match(concrete, specs, args, kwargs, specs_only=True) is not None:
                return concrete
        raise ValueError(self._no_match_message(args, kwargs))

    def pretty_printed_concrete_signatures(self, verbose=True):
        sep = "\n\n" if verbose else "\n"
        return sep.join(cf.pretty_printed_signature(verbose) for cf in self.concrete_functions)

    def _no_match_message(self, args, kwargs):
        names = list(self._signature.parameters)

        def got(value, name):
            if isinstance(value, Tensor):
                return "<tf.Tensor '%s:0' shape=%s dtype=%s>" % (name, value.shape, value.dtype.name)
            return repr(value)

        lines = ["Could not find matching concrete function to call loaded from the SavedModel. Got:",
                 "  Positional arguments (%d total):" % len(args)]
        lines += ["    * " + got(a, names[i] if i < len(names) else "args_%d" % i) for i, a in enumerate(args)]
        lines.append("  Keyword arguments: %s" % ({k: got(v, k) for k, v in kwargs.items()} if kwargs else {}))
        lines.append("")
        lines.append(" Expected these arguments to match one of the following %d option(s):"
                     % len(self.concrete_functions))
        for i, concrete in enumerate(self.concrete_functions):
            spec_args, spec_kwargs = concrete.structured_input_signature
            lines += ["", "Option %d:" % (i + 1), "  Positional arguments (%d total):" % len(spec_args)]
            lines += ["    * %r" % (a,) for a in spec_args]
            lines.append("  Keyword arguments: %r" % (spec_kwargs,))
        return "\n".join(lines)

    def __repr__(self):
        return "<graphfn.saved.restored.RestoredFunction object at 0x%x>" % id(self)


def _match(concrete, specs, args, kwargs, specs_only=False):
    """The flat input tensors for calling `concrete`, or None if the call does not fit it."""
    try:
        bound = concrete._signature.bind(*args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    if set(bound.arguments) != set(specs):
        return None
    flat = []
    for name, spec in specs.items():
        if not _match_value(spec, bound.arguments[name], flat, specs_only):
            return None
    return flat


def _match_value(spec, value, flat, specs_only):
    if isinstance(spec, TensorSpec):
        if specs_only:
            ok = isinstance(value, TensorSpec) and value.dtype == spec.dtype and spec.shape.is_compatible_with(value.shape)
            return ok and (flat.append(None) or True)
        if not isinstance(value, Tensor):
            try:
                value = _core.to_tensor(value, spec.dtype.as_datatype_enum)
            except (TypeError, ValueError):
                return False
        if value.dtype != spec.dtype or not spec.shape.is_compatible_with(value.shape):
            return False
        flat.append(value)
        return True
    if isinstance(spec, dict):
        return (isinstance(value, collections.abc.Mapping) and set(value) == set(spec)
                and all(_match_value(spec[k], value[k], flat, specs_only) for k in sorted(spec)))
    if isinstance(spec, (list, tuple)):
        return (isinstance(value, (list, tuple)) and len(value) == len(spec)
                and all(_match_value(s, v, flat, specs_only) for s, v in zip(spec, value)))
    if value is not None and not isinstance(value, (bool, int, float, str)):
        return False
    return spec == value or (spec != spec and value != value)  # NaN literals match


class SignatureMap(collections.abc.Mapping):
    """`loaded.signatures`: signature key -> concrete function taking keyword tensors and
    returning a dict of named tensors."""

    def __init__(self, signatures=None):
        self._signatures = dict(signatures or {})

    def __getitem__(self, key):
        return self._signatures[key]

    def __iter__(self):
        return iter(self._signatures)

    def __len__(self):
        return len(self._signatures)

    def __repr__(self):
        return "_SignatureMap(%r)" % (self._signatures,)
