"""The while_loop fallback for one node without a batching rule, as TF's pfor: the node's op runs
once per example inside a `map_fn` over its stacked inputs (its other inputs are the same for
every example), and the rest of `fn` stays vectorized. Nodes it cannot re-create from their
traced form (list inputs or outputs, function or tensor attrs, stateful ops) make the caller
run the whole of `fn` in the loop instead."""

from graphfn import _core
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.ops._op_table import ops
from graphfn.ops.functional_ops import map_fn
from graphfn.parallel_for.converter import NoRule, Wrapped
from graphfn.parallel_for.node_attrs import UNREADABLE, node_attrs


def can_loop(op):
    """Whether `op`'s node can be re-created per example from its type, inputs and attrs."""
    op_def = _core.op_def(op.type)
    if op_def["stateful"] or any(arg[3] for arg in op_def["inputs"] + op_def["outputs"]):
        return False
    return all(v is not UNREADABLE for v in node_attrs(op.node_def).values())


def loop_node(cv, node):
    """The node's outputs, computed per example in a while_loop and stacked."""
    if not can_loop(node.op):
        raise NoRule()
    positions = [i for i, w in enumerate(node.inputs) if w.stacked]
    outputs = node.op.outputs
    specs = [TensorSpec(t.shape, t.dtype) for t in outputs]

    def one_example(stacked_slices):
        args = [w.t for w in node.inputs]
        for i, x in zip(positions, stacked_slices):
            args[i] = x
        result = getattr(ops, node.type)(*args, **node.attrs)
        return list(result) if len(outputs) > 1 else [result]

    batched = map_fn(one_example, [node.inputs[i].t for i in positions], fn_output_signature=specs)
    return [Wrapped(t, True) for t in batched]
