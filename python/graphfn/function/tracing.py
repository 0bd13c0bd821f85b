"""Tracing: run the Python function once with placeholders in place of its tensor arguments,
inside a fresh graph, and turn what it returns into the graph's outputs."""


from graphfn import _core
from graphfn import context
from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function import trace_type as trace_types
from graphfn.function import trace_type_protocol
from graphfn.function.concrete_function import ConcreteFunction, make_function_type
from graphfn.function.function_type import Parameter
from graphfn.ops._op_table import ops
from graphfn.util import nest
from graphfn.util.lazy_numpy import is_ndarray
from graphfn.variables import Variable, _TracedVariable

_RESOURCE = dtypes.resource.as_datatype_enum


def _placeholder(graph, leaf, param_name, traced_variables):
    if isinstance(leaf, Variable):
        # One resource placeholder per distinct variable (aliases share it).
        traced = traced_variables.get(id(leaf._handle))
        if traced is None:
            handle = graph.add_placeholder(_RESOURCE, (), param_name, leaf.shape.dims)
            traced = traced_variables[id(leaf._handle)] = _TracedVariable(leaf, handle)
        return traced
    if isinstance(leaf, TensorSpec):
        dims = leaf.shape.dims
        return graph.add_placeholder(leaf.dtype.as_datatype_enum, None if dims is None else tuple(dims),
                                     leaf.name or param_name)
    if is_ndarray(leaf):
        return graph.add_placeholder(dtypes.as_dtype(leaf.dtype).as_datatype_enum, leaf.shape, param_name)
    if isinstance(leaf, Tensor):
        return graph.add_placeholder(leaf._dtype_enum, leaf.shape.dims, param_name)
    custom = leaf if trace_types.is_custom(leaf) else trace_type_protocol.custom_trace_type(leaf)
    if hasattr(custom, "_graph_placeholder"):  # a TypeSpec: each flat component is a graph input
        return custom._graph_placeholder(graph, param_name)
    if custom is not None:  # TF's tracing protocol: the function sees the type's placeholder value
        return custom.placeholder_value(trace_type_protocol.PlaceholderContext())
    return leaf


def _output(value, graph, python_function):
    """A graph output for one returned leaf: tensors and convertible Python values go through
    an Identity node; None stays None."""
    if value is None:
        return None
    if isinstance(value, CompositeTensor):  # a RaggedTensor, ...: each flat component is an output
        return nest.map_structure(lambda v: _output(v, graph, python_function), value, expand_composites=True)
    if hasattr(value, "__tf_tensor__"):
        value = value.__tf_tensor__()
    if isinstance(value, SymbolicTensor) and not value._same_graph(graph):
        if value.graph.is_subgraph or _core.graph_encloses(graph, value):
            _core.raise_out_of_scope(value, graph)  # TF's text, with where `value` was defined
        raise ValueError("Tensor %s is from another graph and cannot be returned by %r" % (value.name, python_function))
    if not isinstance(value, Tensor):
        try:
            value = _core.to_tensor(value)
        except (TypeError, ValueError):
            raise TypeError(
                "To be compatible with tf.function, Python functions must return zero or more Tensors or "
                "ExtensionTypes or None values; in compilation of %s, found return value of type %s, which "
                "is not a Tensor or ExtensionType." % (python_function, type(value).__name__)) from None
    return ops.Identity(value)


def _control_output(graph, result):
    """TF's control outputs: a NoOp after the stateful ops that must run, which every returned
    tensor waits for (made before the output Identity nodes, which refer to it)."""
    leaves = [v for v in nest.flatten(result, expand_composites=True) if v is not None]
    if not leaves:
        return None
    return graph.add_control_output_node([v for v in leaves if isinstance(v, SymbolicTensor)])


def trace(python_function, name, signature, arguments, variable_creation):
    """Traces `python_function` for the bound `arguments` (name -> value; tensor leaves may be
    TensorSpecs) under TF's `variable_creation` rule (a context.VariableCreation mode) and returns
    (ConcreteFunction, number of variables the trace created)."""
    graph = _core.Graph()
    graph.function_name = name  # TF's FuncGraph name
    parameters, traced_arguments, traced_variables, aliases = [], {}, {}, {}
    with context.trace_scope(variable_creation) as outcome, context.graph_context(graph):
        for param_name, value in arguments.items():
            kind = signature.parameters[param_name].kind
            parameters.append(Parameter(param_name, kind, trace_types.trace_type(value, aliases)))
            traced_arguments[param_name] = nest.map_structure(
                lambda leaf, p=param_name: _placeholder(graph, leaf, p, traced_variables), value)
        call = signature.bind_partial()  # an inspect.BoundArguments, without importing inspect
        call.arguments = dict(traced_arguments)
        result = python_function(*call.args, **call.kwargs)
        control_output = _control_output(graph, result)
        structured_outputs = nest.map_structure(lambda v: _output(v, graph, python_function), result)
    flat_outputs = [t for t in nest.flatten(structured_outputs, expand_composites=True) if t is not None]
    graph.finish_trace(flat_outputs, control_output)  # results wait for it; automatic control deps
    inputs = _graph_inputs(traced_arguments)
    function_type = make_function_type(parameters, structured_outputs)
    variables_created, variables_read = outcome
    return ConcreteFunction(name, graph, signature, function_type, traced_arguments, inputs, flat_outputs,
                            structured_outputs, variables_read), variables_created


def _feeding_leaves(arguments):
    """The argument leaves that feed placeholders, in placeholder order: tensors and arrays,
    each distinct variable's handle once (aliased variables share one placeholder), and the flat
    component tensors of composites (ragged tensors, datasets, ...)."""
    seen = set()
    for value in arguments.values():
        for leaf in nest.flatten(value):
            if isinstance(leaf, Variable):
                if id(leaf._handle) not in seen:
                    seen.add(id(leaf._handle))
                    yield leaf.handle
            elif isinstance(leaf, Tensor) or is_ndarray(leaf):
                yield leaf
            elif isinstance(leaf, CompositeTensor):
                yield from nest.flatten(leaf, expand_composites=True)  # placeholders when traced


def _graph_inputs(traced_arguments):
    """The placeholders, in feeding order."""
    return list(_feeding_leaves(traced_arguments))


def flat_call_tensors(arguments):
    """The tensors a call passes to the traced graph, in placeholder order."""
    return [_core.to_tensor(leaf) if is_ndarray(leaf) else leaf for leaf in _feeding_leaves(arguments)]
