"""Binding a call to a function's Python signature, and to its input_signature when it has one:
the arguments the specs cover become tensors of the specs' dtypes (nested lists, tuples and dicts
of specs match the same structures), parameters the specs leave out keep their defaults, and a
mismatch raises TF's TypeError, "Binding inputs to tf.function failed due to `...`. Received
args: ... and kwargs: ... for signature: (x: TensorSpec(...), ...)."."""

from graphfn import _core
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util import nest
from graphfn.variables import Variable


def bind_arguments(signature, input_signature, args, kwargs):
    """The call's arguments by parameter name, defaults applied, cast to `input_signature`."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:  # Python's text: "missing a required argument: 'x'", ...
        raise TypeError(_binding_message(e, signature, input_signature, args, kwargs)) from None
    bound.apply_defaults()
    arguments = bound.arguments
    for name, value in arguments.items():
        arguments[name] = nest.map_structure(_value_of_variable_wrapper, value)
    if input_signature is not None:
        try:
            _cast_to_specs(signature, input_signature, arguments)
        except _BindingError as e:
            raise TypeError(_binding_message(e, signature, input_signature, args, kwargs)) from None
    return arguments


def _value_of_variable_wrapper(value):
    """A wrapper of a variable that acts as one (Keras's Variable: `_should_act_as_resource_variable`,
    `__tf_tensor__`) is passed as its current value, a tensor, as TF 2.21 passes it (TensorSpec
    argument, the read watched by an open tape)."""
    if getattr(value, "_should_act_as_resource_variable", False) and not isinstance(value, (Tensor, Variable)) \
            and hasattr(value, "__tf_tensor__"):
        return value.__tf_tensor__()
    return value


def signature_slots(signature, input_signature):
    """(parameter name, spec, position in *args or None) for each spec of input_signature: specs
    cover the positional parameters in order, then the elements of *args."""
    slots, specs = [], list(input_signature)
    for param in signature.parameters.values():
        if not specs:
            break
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            slots.append((param.name, specs.pop(0), None))
        elif param.kind == param.VAR_POSITIONAL:
            slots.extend((param.name, spec, i) for i, spec in enumerate(specs))
            specs = []
    return slots


def signature_text(signature, input_signature=None):
    """The signature as TF prints it in binding errors. Defaults show as <captured_default_value>;
    with an input_signature, covered parameters show their specs, *args its elements (args_0, ...,
    then every parameter is positional-only) and the other parameters their default as a Literal."""
    if input_signature is None:
        params = [p.replace(default=_CapturedDefault()) if p.default is not p.empty else p
                  for p in signature.parameters.values()]
        return str(signature.replace(parameters=params))
    slots = signature_slots(signature, input_signature)
    covered = {name: spec for name, spec, position in slots if position is None}
    var_positional = [(name, spec, position) for name, spec, position in slots if position is not None]
    parts, keyword_only_started = [], False
    for param in signature.parameters.values():
        if param.name in covered:
            default = "" if param.default is param.empty else " = <captured_default_value>"
            parts.append("%s: %s%s" % (param.name, _spec_text(covered[param.name]), default))
        elif param.kind == param.VAR_POSITIONAL:
            parts.extend("%s_%d: %s" % (name, position, _spec_text(spec)) for name, spec, position in var_positional)
        elif param.kind == param.VAR_KEYWORD:
            parts.append("**%s" % param.name)
        else:
            if param.kind == param.KEYWORD_ONLY and not keyword_only_started and not var_positional:
                parts.append("*")
                keyword_only_started = True
            if param.default is param.empty:
                parts.append(param.name)
            else:
                parts.append("%s: Literal[%r] = <captured_default_value>" % (param.name, param.default))
    if var_positional:
        parts.append("/")
    return "(%s)" % ", ".join(parts)


class _CapturedDefault:
    def __repr__(self):
        return "<captured_default_value>"


class _BindingError(TypeError):
    """A value that does not fit the input_signature (the text goes between TF's backticks)."""


def _binding_message(error, signature, input_signature, args, kwargs):
    return ("Binding inputs to tf.function failed due to `%s`. Received args: %r and kwargs: %r for signature: %s."
            % (error, tuple(args), kwargs, signature_text(signature, input_signature)))


def _spec_text(structure):
    """A spec structure as TF names its trace type: TensorSpec(...), List[...], Tuple[...] or
    Dict[['key', ...], ...]."""
    if isinstance(structure, dict):
        return "Dict[%s]" % ", ".join("[%r, %s]" % (k, _spec_text(v)) for k, v in structure.items())
    if isinstance(structure, list):
        return "List[%s]" % ", ".join(_spec_text(v) for v in structure)
    if isinstance(structure, tuple):
        return "Tuple[%s]" % ", ".join(_spec_text(v) for v in structure)
    return repr(structure)


def _cast_to_specs(signature, input_signature, arguments):
    """Casts, in place, the arguments input_signature covers; the other parameters must keep
    their defaults (TF traces them as Literal values)."""
    slots = signature_slots(signature, input_signature)
    covered = set()
    for name, spec, position in slots:
        covered.add(name)
        if position is None:
            arguments[name] = _cast(arguments[name], spec)
        elif position < len(arguments[name]):
            values = list(arguments[name])
            values[position] = _cast(values[position], spec)
            arguments[name] = tuple(values)
    for name, values in arguments.items():
        param = signature.parameters[name]
        if param.kind == param.VAR_POSITIONAL and name in covered:
            if len(values) > sum(1 for n, _, p in slots if n == name):
                raise _BindingError("too many positional arguments")
        elif name not in covered and param.default is not param.empty and not _same_literal(values, param.default):
            raise _BindingError("Can not cast %r to Literal[%r]" % (values, param.default))


def _same_literal(value, default):
    try:
        return bool(value == default)
    except Exception:  # arrays and other values with no plain equality
        return value is default


def _cast(value, spec):
    """`value` matched to the spec structure `spec`, its leaves tensors of the specs' dtypes."""
    if isinstance(spec, TensorSpec):
        return _cast_leaf(value, spec)
    if getattr(spec, "_graphfn_type_spec", False):  # a TypeSpec: RaggedTensorSpec, DatasetSpec, ...
        try:
            return spec._cast_argument(value)
        except (AttributeError, TypeError) as e:
            raise _BindingError(str(e)) from None
    if isinstance(value, TensorSpec):
        return value  # get_concrete_function(spec)
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise _BindingError("Can not cast %r to a Dict type." % (value,))
        if set(value) != set(spec):
            raise _BindingError("%r has different keys with the TraceType %s." % (value, _spec_text(spec)))
        return {key: _cast(value[key], spec[key]) for key in spec}
    kind = list if isinstance(spec, list) else tuple
    if type(value) is not kind:
        raise _BindingError("Can not cast %r to %s type." % (value, kind.__name__))
    if len(value) != len(spec):
        if kind is list:
            raise _BindingError("object of type 'Tuple' has no len()")  # TF's text for a list of another length
        raise _BindingError("Expected %r to have length of %d" % (value, len(spec)))
    return kind(_cast(v, s) for v, s in zip(value, spec))


def _cast_leaf(value, spec):
    if isinstance(value, TensorSpec):
        return value
    if isinstance(value, Variable) and value.dtype != spec.dtype:
        raise _BindingError("Incompatible type conversion requested to type %s for `tf.Variable of type %s. "
                            "(Variable: %r)" % (spec.dtype.name, value.dtype.name, value))
    if isinstance(value, Tensor):
        ok = value.dtype == spec.dtype
    else:
        try:
            value = _core.to_tensor(value, spec.dtype.as_datatype_enum)  # NumPy values cast, Python values must fit
        except (TypeError, ValueError) as e:
            raise _BindingError(str(e)) from None
        ok = True
    if ok:
        ok = spec.shape.is_compatible_with(value.shape)
    if not ok:
        raise _BindingError("Can not cast %r to %r" % (TensorSpec(value.shape, value.dtype, spec.name), spec))
    return value
