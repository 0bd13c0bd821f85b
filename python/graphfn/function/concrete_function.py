"""ConcreteFunction: one traced graph with its signature; calling it runs the compiled plan."""

import itertools

from graphfn import _core
from graphfn import context
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function.function_type import FunctionType, output_type_of
from graphfn.function.func_graph import FuncGraph
from graphfn.function import optimizer_options
from graphfn.util import nest

_uids = itertools.count(1)


class ConcreteFunction:
    """A graph traced for one input signature. Call it with tensors (and the Python values it was
    traced with, which act as defaults)."""

    def __init__(self, name, graph, signature, function_type, arguments, inputs, outputs, structured_outputs,
                 variables=()):
        self._name = "__inference_%s_%d" % (name, next(_uids))
        self._python_name = name
        self._graph = FuncGraph(graph, self._python_name, inputs, outputs, structured_outputs)
        self._function = optimizer_options.build_function(graph, self._name)
        self._plan = self._function.plan
        self._signature = signature          # inspect.Signature of the Python function
        self._function_type = function_type  # parameters with their trace types
        self._arguments = arguments          # traced argument values (placeholders and literals)
        self._structured_outputs = structured_outputs
        self._output_is_tensor = [isinstance(o, Tensor) for o in nest.flatten(structured_outputs, expand_composites=True)]
        # The captured variables the function reads: a tape active at a call watches them (as TF
        # does), so their gradients flow through the call.
        self._variables = tuple(variables)
        self._output_structure_cache = None

    # Calling -----------------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        # As TF: bind to the Python signature first; if that fails, to the flat signature of the
        # graph's tensor inputs (so `cf(x)` works for a function traced as f(model, x)).
        try:
            flat = self._bind_structured(args, kwargs)
        except TypeError as structured_error:
            try:
                flat = self._bind_flat(args, kwargs)
            except TypeError as flat_error:
                raise TypeError("Binding inputs to tf.function failed due to `%s`. Received args: %s and "
                                "kwargs: %s for signature: %r.\nFallback to flat signature also failed due to: %s"
                                % (structured_error, args, kwargs, self._function_type, flat_error)) from None
        return self._call_flat(flat)

    def _bind_structured(self, args, kwargs):
        """The graph's input tensors for a call bound to the Python signature; traced Python
        values act as defaults and must match."""
        bound = self._signature.bind_partial(*args, **kwargs)
        flat = []
        for param in self._function_type.parameters:
            traced = self._arguments[param.name]
            if param.name not in bound.arguments:
                if any(isinstance(v, (Tensor, CompositeTensor)) for v in nest.flatten(traced)):
                    raise TypeError("missing a required argument: '%s'" % param.name)
                continue
            _check_and_flatten(param, traced, bound.arguments[param.name], flat)
        return flat

    def _bind_flat(self, args, kwargs):
        """The graph's input tensors for a call bound to the flat signature (tensors only)."""
        names = [t.name.split(":")[0] for t in self._graph.inputs]
        head = "%s(%s)" % (self._python_name, ", ".join(names))
        unexpected = [k for k in kwargs if k not in names]
        if unexpected:
            raise TypeError("%s got unexpected keyword arguments: %s." % (head, ", ".join(unexpected)))
        if len(args) > len(names):
            raise TypeError("%s takes %d positional arguments, got %d." % (head, len(names), len(args)))
        values = list(args) + [kwargs.get(name) for name in names[len(args):]]
        missing = [name for name, v in zip(names, values) if v is None]
        if missing:
            raise TypeError("%s missing required arguments: %s." % (head, ", ".join(missing)))
        for i, value in enumerate(values):
            if not isinstance(value, Tensor):
                raise TypeError("%s: expected argument #%d(zero-based) to be a Tensor; got %s (%s)."
                                % (head, i, type(value).__name__, value))
        return values

    @property
    def inference_fn(self):
        """The graph as a function of its flat input tensors."""
        return _InferenceFunction(self)

    def _call_flat(self, tensors):
        if not context.executing_eagerly():  # called while another function is traced
            return self._pack(_core.inline_function(self._graph._graph, list(tensors), self._python_name))
        if _core.any_tape_recording():
            for variable in self._variables:
                _core.variable_accessed(variable)
        return self._pack(self._function(tensors))

    def _pack(self, results):
        """The Python structure the function returned, with the run's tensors in it."""
        results = iter(results)
        flat_outputs = [next(results) if is_tensor else value for is_tensor, value in
                        zip(self._output_is_tensor, nest.flatten(self._structured_outputs, expand_composites=True))]
        return nest.pack_sequence_as(self._structured_outputs, flat_outputs, expand_composites=True)

    @property
    def _output_structure(self):
        """How the C++ call cache packs results (a _core.OutputStructure, built once), or None
        when the results hold composites, which only Python packs."""
        if self._output_structure_cache is None:
            self._output_structure_cache = describe_outputs(self._structured_outputs)
        return self._output_structure_cache

    # Introspection -------------------------------------------------------------------------------

    @property
    def graph(self):
        return self._graph

    @property
    def name(self):
        return self._name

    @property
    def inputs(self):
        return self._graph.inputs

    @property
    def outputs(self):
        return self._graph.outputs

    @property
    def structured_outputs(self):
        return self._structured_outputs

    @property
    def function_type(self):
        return self._function_type

    @property
    def structured_input_signature(self):
        args, kwargs = [], {}
        for param in self._function_type.parameters:
            spec = nest.map_structure(_spec_or_value, self._arguments[param.name])
            if param.kind_name in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"):
                args.append(spec)
            elif param.kind_name == "VAR_POSITIONAL":
                args.extend(spec)
            elif param.kind_name == "VAR_KEYWORD":
                kwargs.update(spec)
            else:
                kwargs[param.name] = spec
        return tuple(args), kwargs

    @property
    def output_dtypes(self):
        return nest.map_structure(lambda t: t.dtype, self._structured_outputs)

    @property
    def output_shapes(self):
        return nest.map_structure(lambda t: t.shape, self._structured_outputs)

    @property
    def variables(self):
        """The variables whose resources the graph captured, in the graph's order (as TF's
        ConcreteFunction.variables); variables already deleted are left out."""
        from graphfn.variables import variable_of_resource  # variables imports the function package
        found = (variable_of_resource(r) for _, r in self._graph._graph.captured_resources())
        return tuple(v for v in found if v is not None)

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def pretty_printed_signature(self, verbose=True):
        if not verbose:
            return repr(self._function_type)
        lines = ["Input Parameters:"]
        for p in self._function_type.parameters:
            lines.append("  %s (%s): %r" % (p.name, p.kind_name, p.type))
        lines.append("Output Type:")
        lines.append("  %r" % (self._function_type.output_type,))
        lines.append("Captures:")
        captures = self._graph._graph.captured_resources()
        if not captures:
            lines.append("  None")
        for _, resource_id in captures:
            lines.append("  %d: TensorSpec(shape=(), dtype=tf.resource, name=None)" % resource_id)
        return "\n".join(lines)

    def __str__(self):
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self):
        return "<ConcreteFunction %r at 0x%X>" % (self._function_type, id(self))


class _InferenceFunction:
    """ConcreteFunction.inference_fn: calls the graph with its flat input tensors."""

    __slots__ = ("_function",)

    def __init__(self, function):
        self._function = function

    @property
    def name(self):
        return self._function.name

    def __call__(self, *tensors):
        return self._function._call_flat(list(tensors))


def _spec_or_value(value):
    if isinstance(value, CompositeTensor):
        return value._type_spec  # a composite parameter (RaggedTensor, dataset, ...): its TypeSpec
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype, value._op_name if hasattr(value, "_op_name") else None)
    return value


def _check_and_flatten(param, traced, value, flat):
    """Checks a call argument against what the function was traced with; collects its tensors."""
    traced_leaves = nest.flatten(traced)
    try:
        leaves = nest.flatten(value)
        structure_ok = len(leaves) == len(traced_leaves)
    except TypeError:
        structure_ok = False
    if not structure_ok:
        raise TypeError("Can not cast %r to %r" % (value, param.type))
    for t, v in zip(traced_leaves, leaves):
        if isinstance(t, Tensor):
            if not isinstance(v, Tensor):
                v = _core.to_tensor(v, t._dtype_enum)
            flat.append(v)
        elif isinstance(t, CompositeTensor):  # a composite parameter: its flat component tensors
            try:
                flat.extend(nest.flatten(t._type_spec._cast_argument(v), expand_composites=True))
            except AttributeError as e:
                raise TypeError(str(e)) from None
        elif not (t == v or (t != t and v != v)):
            raise TypeError("Can not cast %r to %r" % (v, param.type))


class _TensorSlot:
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def describe_outputs(structured_outputs):
    """The C++ description of a function's return structure: tensor leaves are numbered in nest's
    flattening order (the order of the graph's results); other leaves are constants (None)."""
    if any(isinstance(leaf, CompositeTensor) for leaf in nest.flatten(structured_outputs)):
        return None
    numbers = itertools.count()
    slots = nest.map_structure(lambda leaf: _TensorSlot(next(numbers)) if isinstance(leaf, Tensor) else leaf,
                               structured_outputs)
    return _describe(slots)


def _describe(value):
    structure, kind = _core.OutputStructure, _core.OutputStructure.Kind
    if isinstance(value, _TensorSlot):
        return structure.tensor(value.index)
    if isinstance(value, dict):
        keys = tuple(value)
        return structure.container(kind.dict, None if type(value) is dict else type(value), keys,
                                   [_describe(value[k]) for k in keys])
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return structure.container(kind.namedtuple, type(value), None, [_describe(v) for v in value])
    if isinstance(value, (list, tuple)):
        plain = type(value) in (list, tuple)
        return structure.container(kind.list if isinstance(value, list) else kind.tuple,
                                   None if plain else type(value), None, [_describe(v) for v in value])
    return structure.constant(value)


def make_function_type(parameters, structured_outputs):
    def output_type(t):
        if isinstance(t, CompositeTensor):
            return t._type_spec
        return TensorSpec(t.shape, t.dtype) if isinstance(t, Tensor) else t

    return FunctionType(parameters, output_type_of(structured_outputs, output_type))
