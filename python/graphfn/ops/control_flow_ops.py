"""graphfn.cond and graphfn.while_loop, as TF 2.x's.

Eagerly they simply run Python. While tracing, each branch (or the loop's cond and body) is
traced into a child graph of the graph being built; tensors of enclosing graphs used there are
captured as extra inputs (the C++ side, cpp/graphfn/tracing/control_flow_builder.h, does the
capturing and adds the If / While node that owns the child graphs)."""

from graphfn import _core
from graphfn import context
from graphfn.framework import dtypes
from graphfn.framework.composite_tensor import CompositeTensor
from graphfn.framework.tensor import SymbolicTensor, Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.framework.type_spec import TypeSpec
from graphfn.ops import array_ops
from graphfn.ops import control_dependency_ops
from graphfn.ops import tensor_array_ops
from graphfn.ops._op_table import ops
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


def _to_graph_tensor(value):
    """A value used as a graph input: variables are read, Python values become constants."""
    if hasattr(value, "__tf_tensor__"):
        value = value.__tf_tensor__()
    if isinstance(value, SymbolicTensor):
        # A tensor of an enclosing graph (a loop inside a branch using the branch's captured
        # value) is captured into the current one.
        return value if value._same_graph(_core.current_graph()) else ops.Identity(value)
    if not isinstance(value, Tensor):
        value = _core.to_tensor(value)
    return array_ops.graph_constant(value)


def _trace(graph, fn, args=()):
    """Calls fn(*args) with `graph` current; returns what it returned."""
    with context.graph_context(graph):
        return fn(*args)


def _outputs(graph, structure, op_return_value=None):
    """The structure with every leaf but None passed through an Identity of `graph` (TF's branch
    outputs); a TensorArray's flow goes through it. A returned Operation (what tf.print gives)
    becomes, as in TF, `op_return_value` (the branch selector) made to wait for it."""
    def output(v):
        if v is None:
            return None
        if isinstance(v, _core.Operation) and op_return_value is not None:
            with control_dependency_ops.control_dependencies([v]):
                return ops.Identity(op_return_value)
        if isinstance(v, tensor_array_ops.TensorArray):
            return v._with_flow(ops.Identity(v.flow))
        return ops.Identity(_to_graph_tensor(v))
    with context.graph_context(graph):
        return nest.map_structure(output, structure, expand_composites=True)  # composites: their components


# cond ------------------------------------------------------------------------------------------

_MISMATCH = ("%s and %s arguments to %s must have the same number, type, and overall structure of return values."
             "\n\n%s output: %s\n%s output: %s\n\nError details:\n%s")


def _branches(outer, name, selector, fns, labels, api, is_case):
    """Traces each of `fns` into a child graph of `outer` scoped `name/`, checks that they return
    alike (TF's checks, in TF's order) and adds the If / Case node; returns its outputs in the
    structure the first branch returned."""
    branches, results = [], []
    for fn in fns:
        graph = _core.subgraph(outer, name + "/")
        results.append(_outputs(graph, _trace(graph, fn), selector))
        branches.append(graph)
    flats = [[t for t in tensor_array_ops.to_flows(nest.flatten(out, expand_composites=True)) if t is not None]
             for out in results]
    for i in range(1, len(results)):
        first, other = results[0], results[i]
        leaves = [len(nest.flatten(first, expand_composites=True)), len(nest.flatten(other, expand_composites=True))]
        if leaves[0] != leaves[1]:
            raise AssertionError(str(leaves))
        if len(flats[0]) != len(flats[i]):
            raise ValueError("Lengths of branch outputs of %s must match.\nlen(graphs[0].outputs): %d\n"
                             "len(graphs[%d].outputs): %d\n" % (api.split(".")[-1], len(flats[0]), i, len(flats[i])))
        try:
            nest.assert_same_structure(first, other, expand_composites=True)
        except (ValueError, TypeError) as e:
            raise TypeError(_MISMATCH % (labels[0], labels[i], api, labels[0], first, labels[i], other, e)) from None
        for t, f in zip(flats[0], flats[i]):
            if t.dtype != f.dtype:
                raise TypeError(_MISMATCH % (labels[0], labels[i], api, labels[0], first, labels[i], other,
                                             "%s and %s have different types" % (t, f)))
    for graph, flat_out in zip(branches, flats):
        graph.finish_trace(flat_out)
    flat = _core.make_branches(outer, name, selector, branches, is_case)
    flat = iter(flat)
    leaves = nest.flatten(results[0], expand_composites=True)
    outputs = [None if t is None else next(flat) for t in leaves]
    return nest.pack_sequence_as(results[0], tensor_array_ops.from_flows(leaves, outputs, leaves), expand_composites=True)


@tf_export("cond")
def cond(pred, true_fn=None, false_fn=None, name=None):
    """Returns true_fn() if pred is true, else false_fn()."""
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if context.executing_eagerly():
        return true_fn() if pred else false_fn()
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool", pred)
    outer = _core.current_graph()
    pred = _to_graph_tensor(pred)
    name = outer.unique_name(outer._name_scope + (name or "cond"))
    return _branches(outer, name, pred, (true_fn, false_fn), ("true_fn", "false_fn"), "tf.cond", False)


@tf_export("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """Runs branch_fns[branch_index]() (the last branch, or `default`, when out of range)."""
    if not isinstance(branch_index, Tensor):
        raise TypeError("'branch_index' must be a Tensor, got %s" % type(branch_index))
    if not branch_index.dtype.is_integer:
        raise TypeError("'branch_index' must be an integer Tensor, got %s" % branch_index.dtype)
    fns = _branch_functions(branch_fns, default)
    if context.executing_eagerly():
        index = int(branch_index)
        return fns[index if 0 <= index < len(fns) else -1]()
    outer = _core.current_graph()
    if branch_index.dtype != dtypes.int32:
        branch_index = ops.Cast(branch_index, DstT=dtypes.int32)
    base = outer.unique_name(outer._name_scope + (name or "switch_case"))
    node = outer.unique_name(base + "/indexed_case")
    labels = ["branches[%d]" % i for i in range(len(fns))]
    return _branches(outer, node, branch_index, fns, labels, "tf.switch_case", True)


def _branch_functions(branch_fns, default):
    """The branches in index order: a list of callables, of (index, callable) pairs, or a dict;
    `default` last."""
    if isinstance(branch_fns, dict):
        branch_fns = sorted(branch_fns.items())
    if not isinstance(branch_fns, (list, tuple)) or not branch_fns:
        raise TypeError("branch_fns must be a list, tuple, or dict")
    if all(isinstance(b, tuple) and len(b) == 2 for b in branch_fns):
        keys = [k for k, _ in branch_fns]
        if keys != list(range(len(keys))):
            raise ValueError("branch indices (keys) must form contiguous range of [0 to %d) but found {%s}"
                             % (len(keys), ",".join(str(k) for k in keys)))
        branch_fns = [fn for _, fn in sorted(branch_fns, key=lambda kv: kv[0])]
    fns = list(branch_fns) + ([default] if default is not None else [])
    for fn in fns:
        if not callable(fn):
            raise TypeError("br_fn must be callable: %s" % (fn,))
    return fns


# while_loop ------------------------------------------------------------------------------------

def _shape_less_than_or_equal(shape, bound):
    """True if `shape` is at least as specific as `bound` (TF's loop-shape rule)."""
    if bound.rank is None:
        return True
    if shape.rank != bound.rank:
        return False
    return all(b is None or s == b for s, b in zip(shape.dims, bound.dims))


def _run_eagerly(cond_fn, body, loop_vars, maximum_iterations):
    structure = list(loop_vars)
    loop_vars = nest.map_structure(
        lambda v: v if v is None or isinstance(v, (Tensor, CompositeTensor, tensor_array_ops.TensorArray))
        else _core.to_tensor(v),
        loop_vars)
    iterations = 0
    while (maximum_iterations is None or iterations < int(maximum_iterations)) and cond_fn(*loop_vars):
        loop_vars = body(*loop_vars)
        nest.assert_same_structure(structure, list(loop_vars), check_types=False)
        iterations += 1
    return loop_vars


@tf_export("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Repeats body while cond is true; returns the loop variables' final values, in the
    structure of `loop_vars`."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if not isinstance(loop_vars, Tensor) and not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    if context.executing_eagerly():
        return _run_eagerly(cond, body, loop_vars, maximum_iterations)

    outer = _core.current_graph()
    if any(v is None for v in nest.flatten(loop_vars)):
        raise ValueError("None values not supported.")
    # TensorArrays travel as their flows (TensorLists) and are rebuilt around them; composite
    # tensors (RaggedTensor, SparseTensor, Optional, ...) as their component tensors.
    leaves = nest.flatten(loop_vars, expand_composites=True)
    flat_in = [_to_graph_tensor(v) for v in tensor_array_ops.to_flows(leaves)]
    if shape_invariants is None:
        invariants = [TensorShape(t.shape) for t in flat_in]
    else:
        nest.assert_same_structure(loop_vars, shape_invariants, check_types=False)
        invariants = _component_invariants(loop_vars, shape_invariants)
    name = outer.unique_name(outer._name_scope + (name or "while"))
    scope = name + "/"
    max_iter = _maximum_iterations(outer, maximum_iterations, scope)
    counter = _core.graph_const(outer, _core.to_tensor(0), scope + "loop_counter")
    state = [counter, max_iter] + flat_in

    def placeholders(graph):
        args = [graph.add_placeholder(dtypes.int32.as_datatype_enum, (), scope + "loop_counter"),
                graph.add_placeholder(dtypes.int32.as_datatype_enum, (), scope + "maximum_iterations")]
        for t, shape in zip(flat_in, invariants):
            dims = None if shape.rank is None else tuple(shape.dims)
            args.append(graph.add_placeholder(t._dtype_enum, dims, scope + "Placeholder"))
        return args

    cond_graph = _core.subgraph(outer, scope)
    cond_args = placeholders(cond_graph)
    with context.graph_context(cond_graph):
        keep_going = cond(*_as_loop_vars(loop_vars, tensor_array_ops.from_flows(leaves, cond_args[2:]), loop_vars))
        keep_going = _to_graph_tensor(keep_going)
        if maximum_iterations is not None:
            keep_going = ops.LogicalAnd(ops.Less(cond_args[0], cond_args[1]), keep_going)
        cond_results = [ops.Identity(keep_going)]
    cond_graph.finish_trace(cond_results)

    body_graph = _core.subgraph(outer, scope)
    body_args = placeholders(body_graph)
    with context.graph_context(body_graph):
        body_vars = _as_loop_vars(loop_vars, tensor_array_ops.from_flows(leaves, body_args[2:]), loop_vars)
        out = body(*body_vars)
        if not isinstance(out, (list, tuple, dict)) and not (hasattr(out, "_fields")):
            out = [out]
        nest.assert_same_structure(out, loop_vars, check_types=False)
        out_leaves = nest.flatten(out, expand_composites=True)
        if len(out_leaves) != len(leaves):
            raise ValueError("The body of a while_loop returned composite tensors whose components differ from the "
                             "loop variables': %d tensors for %d" % (len(out_leaves), len(leaves)))
        flat_out = [_to_graph_tensor(v) for v in tensor_array_ops.to_flows(out_leaves)]
        _check_loop_outputs(flat_in, flat_out, invariants)
        next_counter = ops.named("AddV2", "add")(body_args[0], 1)
        body_results = [ops.Identity(next_counter), ops.Identity(body_args[1])] + [ops.Identity(t) for t in flat_out]
    body_graph.finish_trace(body_results)

    outputs = _core.make_while(outer, name, state, cond_graph, body_graph, parallel_iterations)
    results = outputs[2:2 + len(flat_in)]
    return nest.pack_sequence_as(loop_vars, tensor_array_ops.from_flows(leaves, results, out_leaves),
                                 expand_composites=True)


def _as_loop_vars(loop_vars, placeholders, structure):
    """The loop variables as the user's functions see them: `loop_vars`' structure, unpacked, with
    composite tensors rebuilt from their components."""
    packed = nest.pack_sequence_as(structure, placeholders, expand_composites=True)
    return packed if isinstance(loop_vars, (list, tuple)) and not hasattr(loop_vars, "_fields") else [packed]


def _component_invariants(loop_vars, shape_invariants):
    """One TensorShape per component tensor of the loop variables: a tensor's invariant is a shape;
    a composite's, a TypeSpec (its components' shapes) or None (their current shapes)."""
    out = []
    for var, invariant in zip(nest.flatten(loop_vars), _flatten_up_to(loop_vars, shape_invariants)):
        if isinstance(var, CompositeTensor):
            spec = invariant if isinstance(invariant, TypeSpec) else var._type_spec
            out.extend(TensorShape(s.shape) for s in nest.flatten(spec._component_specs))
        else:
            out.append(TensorShape(invariant))
    return out


def _flatten_up_to(structure, values):
    """`values` (shape invariants) flattened as far as `structure` goes: a TensorShape is a leaf."""
    if isinstance(structure, dict):
        return [leaf for k in sorted(structure) for leaf in _flatten_up_to(structure[k], values[k])]
    if isinstance(structure, (list, tuple)):
        return [leaf for s, v in zip(structure, values) for leaf in _flatten_up_to(s, v)]
    return [values]


def _maximum_iterations(outer, maximum_iterations, scope):
    """The int32 scalar the loop counter is compared with (-1 when unlimited)."""
    if isinstance(maximum_iterations, Tensor) and maximum_iterations.dtype != dtypes.int32:
        raise ValueError("maximum_iterations: Tensor conversion requested dtype int32 for Tensor with dtype %s: %r"
                         % (maximum_iterations.dtype.name, maximum_iterations))
    if isinstance(maximum_iterations, SymbolicTensor):
        return maximum_iterations
    if isinstance(maximum_iterations, float):
        raise TypeError("Expected int32, but got %r of type 'float'." % maximum_iterations)
    value = _core.to_tensor(-1 if maximum_iterations is None else maximum_iterations, dtypes.int32.as_datatype_enum)
    return _core.graph_const(outer, value, scope + "maximum_iterations")


def _check_loop_outputs(flat_in, flat_out, invariants):
    for t_in, t_out, shape in zip(flat_in, flat_out, invariants):
        if t_in.dtype != t_out.dtype:
            raise TypeError("Loop var %s enters the loop with type %s but has type %s after 1 iteration. %s type "
                            "should remain constant." % (t_in.name, str(t_in.dtype), str(t_out.dtype), t_in.name))
        out_shape = TensorShape(t_out.shape)
        if not _shape_less_than_or_equal(out_shape, shape):
            raise ValueError(
                "Input tensor `%s` enters the loop with shape %s, but has shape %s after one iteration. To allow "
                "the shape to vary across iterations, use the `shape_invariants` argument of tf.while_loop to "
                "specify a less-specific shape." % (t_in.name, shape, out_shape))
