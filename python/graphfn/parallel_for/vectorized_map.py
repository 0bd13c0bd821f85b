"""tf.vectorized_map: `fn` on every slice of `elems`, run as one batched computation.

TF runs the batching transform (converter.py, rules.py) on a graph: eagerly it traces the
transform in a tf.function and calls it, as here. When a node of `fn` has no batching rule, that
node runs in a while_loop (loop_fallback.py), with TF's warning, and the rest stays vectorized; a
node the loop cannot re-create alone (stateful, list-valued) puts the whole of `fn` in the loop
(`map_fn`). With `fallback_to_while_loop=False`, TF's ValueError instead.
"""

from graphfn import _core
from graphfn import context
from graphfn.framework import errors
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.function.polymorphic_function import function
from graphfn.ops import array_ops
from graphfn.ops import functional_ops
from graphfn.ops._op_table import ops
from graphfn.parallel_for.converter import Converter, NoRule
from graphfn.parallel_for.loop_fallback import can_loop, loop_node
from graphfn.parallel_for.rules import PER_EXAMPLE, RULES
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


def _warn(op_type):
    import logging  # on first use: it costs ~8 ms of `import graphfn`
    logging.getLogger("tensorflow").warning(
        "Using a while_loop for converting %s cause there is no registered converter for this op.", op_type)


def _no_rule_error(op, inputs):
    return ValueError("No pfor vectorization defined for %s\n%s\n inputs: %s.Consider enabling the "
                      "fallback_to_while_loop option to pfor, which may run slower."
                      % (op.type, op.node_def, inputs))


def _batch_size(flat):
    """TF's batch size: the largest first dimension (a tensor when any is unknown)."""
    firsts = [t.shape.dims[0] if t.shape.rank is not None else None for t in flat]
    if any(d is None for d in firsts):
        return ops.Max(array_ops.stack([array_ops.shape(t)[0] for t in flat]), 0)
    return max(firsts)


def _check_first_dims(flat):
    """TF's errors for elems it cannot slice: a scalar (its static shape has no first dim), and
    first dims neither the batch size nor 1 (its gather of example i runs out of range)."""
    firsts = []
    for t in flat:
        if t.shape.rank == 0:
            raise IndexError("list index out of range")
        if t.shape.rank is not None and t.shape.dims[0] is not None:
            firsts.append(t.shape.dims[0])
    if firsts:
        batch = max(firsts)
        for d in firsts:
            if d not in (1, batch):
                raise errors.InvalidArgumentError(
                    None, None, "indices[%d] = %d is not in [0, %d)" % (d, d, d))


def _example(t, batch_size):
    """The traced example of `t` and whether it varies: a first dimension of 1 broadcasts (every
    example is t[0]), as TF's gather clamps it."""
    example = t[0]
    varies = not (isinstance(batch_size, int) and t.shape.dims[0] == 1 and batch_size != 1)
    return example, varies


def _while_loop_fallback(fn, elems, flat, batch_size, results):
    """`fn` over every example in a while_loop (map_fn), its results' static shapes kept."""
    widened = [t if isinstance(batch_size, int) and t.shape.dims[0] == batch_size else
               ops.BroadcastTo(t, ops.ConcatV2([ops.Reshape(batch_size, [1]), array_ops.shape(t)[1:]], 0))
               for t in flat]
    signature = nest.map_structure(
        lambda r: TensorSpec(r.shape, r.dtype) if r is not None else None, results)
    return functional_ops.map_fn(fn, nest.pack_sequence_as(elems, widened), fn_output_signature=signature)


def _pfor(fn, elems, fallback_to_while_loop, warn):
    flat = nest.flatten(elems)
    batch_size = _batch_size(flat)
    graph = _core.current_graph()
    with name_scope("loop_body"):
        examples, stacked_inputs = [], []
        for t in flat:
            example, varies = _example(t, batch_size)
            examples.append(example)
            if varies:
                stacked_inputs.append((example, t))
        first = graph.num_nodes
        results = fn(nest.pack_sequence_as(elems, examples))
    results = nest.map_structure(lambda r: None if r is None else array_ops.convert_to_tensor(r), results)
    flat_results = [r for r in nest.flatten(results) if r is not None]

    converter = Converter(graph, first, batch_size, stacked_inputs, RULES, PER_EXAMPLE)
    needed = converter.needed_nodes(flat_results)
    unsupported = converter.unsupported(needed)
    if unsupported and not fallback_to_while_loop:
        raise _no_rule_error(unsupported[0], [converter.lookup(t) for t in unsupported[0].inputs])

    def loop_one_node(cv, node):
        outputs = loop_node(cv, node)
        if warn:
            _warn(node.type)
        return outputs

    if all(can_loop(op) for op in unsupported):
        try:
            with name_scope("pfor"):
                converter.convert(needed, loop_one_node if fallback_to_while_loop else None)
                batched = [converter.result(r) for r in flat_results]
            out = iter(batched)
            return nest.map_structure(lambda r: None if r is None else next(out), results)
        except NoRule as e:
            op, inputs = e.args
            if not fallback_to_while_loop:
                raise _no_rule_error(op, inputs) from None
            unsupported = [op]
    # A node the loop cannot re-create alone (a stateful or list op): all of fn runs in the loop.
    if warn:
        for op in unsupported:
            _warn(op.type)
    return _while_loop_fallback(fn, elems, flat, batch_size, results)


@tf_export("vectorized_map")
def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to each slice of `elems` (unpacked along the first dimension), vectorized:
    `fn` is traced once on one example and its ops rewritten into batched ops (TF's pfor)."""
    elems = nest.map_structure(array_ops.convert_to_tensor, elems)
    _check_first_dims(nest.flatten(elems))
    if context.executing_eagerly():
        # As TF: the transform runs on a graph, so eagerly it is traced and called.
        return function(lambda e: _pfor(fn, e, fallback_to_while_loop, warn), autograph=False)(elems)
    return _pfor(fn, elems, fallback_to_while_loop, warn)
