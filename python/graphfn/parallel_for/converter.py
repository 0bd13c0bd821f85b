"""The batching transform behind tf.vectorized_map (TF's pfor).

`fn` is traced once, in the graph being built, on one example (`elems[0]`); the nodes that trace
added are then rewritten, in order, into nodes that compute every example at once. Each traced
value is either *stacked* (it depends on the example: its batched form has a leading batch
dimension) or *unstacked* (the same for every example: the traced tensor itself is used). An
op with no stacked input stays as traced; one with a stacked input goes through its batching
rule (`rules.py`). The per-example nodes are left unused, and pruned when the graph is compiled.
"""

from graphfn import _core
from graphfn.ops._op_table import ops
from graphfn.parallel_for.node_attrs import node_attrs

# Stateful ops whose result does not depend on the iteration when their inputs do not.
_STATEFUL_INVARIANT = frozenset({"ReadVariableOp", "VarHandleOp", "NoOp"})


class NoRule(Exception):
    """A node the transform cannot batch: its op has no rule, or the rule does not apply
    (unknown rank, an axis that depends on the example, ...)."""


class Wrapped:
    """A traced value in the batched graph: `t` is its batched form when `stacked`, else the
    value itself."""

    __slots__ = ("t", "stacked")

    def __init__(self, t, stacked):
        self.t = t
        self.stacked = stacked

    def __repr__(self):
        return "WrappedTensor(t=%r, is_stacked=%s, is_sparse_stacked=False)" % (self.t, self.stacked)


class Node:
    """One traced node, as the rules see it."""

    __slots__ = ("op", "type", "attrs", "inputs")

    def __init__(self, op, inputs):
        self.op = op
        self.type = op.type
        self.attrs = {k: v for k, v in node_attrs(op.node_def).items() if not k.startswith("_")}
        self.inputs = inputs


def _key(t):
    return (t.op._node_id, t.value_index)


class Converter:
    """Rewrites the nodes `first..` of `graph` that the results need; `batch_size` is a Python
    int or a scalar int32 tensor."""

    def __init__(self, graph, first, batch_size, stacked_inputs, rules, per_example=frozenset()):
        self.graph = graph
        self.first = first
        self.batch_size = batch_size
        self._rules = rules
        self._per_example = per_example  # ops batched even with no stacked input (random draws)
        self._values = {_key(t): Wrapped(s, True) for t, s in stacked_inputs}

    # -- what the rules use -------------------------------------------------------------------

    def lookup(self, t):
        found = self._values.get(_key(t))
        return found if found is not None else Wrapped(t, False)

    @staticmethod
    def rank(w):
        """The rank of one example of `w` (None when unknown)."""
        rank = w.t.shape.rank
        if rank is None:
            return None
        return rank - 1 if w.stacked else rank

    def constant_value(self, w):
        """The NumPy value of an unstacked Const input, else None."""
        if w.stacked or not hasattr(w.t, "op") or w.t.op.type != "Const":
            return None
        return self.graph.evaluate(w.t).numpy()

    def batch_vector(self, dtype):
        """[batch_size] as a 1-D tensor of `dtype` (a Python list when the size is static)."""
        if isinstance(self.batch_size, int):
            return [self.batch_size]
        return ops.Cast(ops.Reshape(self.batch_size, [1]), DstT=dtype)

    def stack(self, w):
        """The batched form of `w`: an unstacked value repeated batch_size times."""
        if w.stacked:
            return w.t
        shape = ops.Shape(w.t)
        tiled = ops.BroadcastTo(ops.ExpandDims(w.t, 0), ops.ConcatV2([self.batch_vector(shape.dtype), shape], 0))
        self._refine_batched(tiled, w.t)
        return tiled

    # -- the walk --------------------------------------------------------------------------------

    def needed_nodes(self, results):
        """Ids of the nodes from `first` on that `results` depend on, in graph order."""
        needed, pending = set(), [t.op for t in results if _core_symbolic(t)]
        while pending:
            op = pending.pop()
            node_id = op._node_id
            if node_id < self.first or node_id in needed:
                continue
            needed.add(node_id)
            pending.extend(t.op for t in op.inputs)
        return sorted(needed)

    def unsupported(self, node_ids):
        """The nodes among `node_ids` that have a stacked input but no rule, and the stateful ones
        without a rule (a random op must differ per example):
        decided before converting anything, so that a fallback adds no batched nodes."""
        found, stacked = [], set(self._values)
        for node_id in node_ids:
            op = self.graph.node_operation(node_id)
            depends = any(_key(t) in stacked for t in op.inputs) or op.type in self._per_example
            stateful = (_core.op(op.type).is_stateful and op.type not in _STATEFUL_INVARIANT
                        and op.type not in self._rules)
            if stateful or (depends and op.type not in self._rules):
                found.append(op)
            if depends:
                stacked.update((node_id, i) for i in range(len(op.outputs)))
        return found

    def convert(self, node_ids, fallback=None):
        """Batches the nodes. A node without a rule that applies goes to `fallback(converter,
        node)` (TF's per-node while_loop); without one, or when it raises NoRule, NoRule(op,
        inputs) is raised."""
        for node_id in node_ids:
            op = self.graph.node_operation(node_id)
            inputs = [self.lookup(t) for t in op.inputs]
            if not any(w.stacked for w in inputs) and op.type not in self._per_example:
                continue  # loop-invariant: the traced node serves every example
            node = Node(op, inputs)
            try:
                rule = self._rules.get(op.type)
                if rule is None:
                    raise NoRule()
                outputs = rule(self, node)
            except NoRule:
                try:
                    if fallback is None:
                        raise NoRule() from None
                    outputs = fallback(self, node)
                except NoRule:
                    raise NoRule(op, inputs) from None
            for i, w in enumerate(outputs):
                if w.stacked:
                    # Kernels' shape functions may not see through unknown batch sizes; one
                    # example's traced shape says what every batched output is.
                    self._refine_batched(w.t, op.outputs[i])
                self._values[(node_id, i)] = w

    def _refine_batched(self, batched, example):
        if example.shape.rank is not None:
            n = self.batch_size if isinstance(self.batch_size, int) else None
            _refine(batched, [n] + list(example.shape.dims))

    def result(self, t):
        """The batched form of one traced result."""
        batched = self.stack(self.lookup(t))
        self._refine_batched(batched, t)
        return batched


def _core_symbolic(t):
    return isinstance(t, _core.SymbolicTensor)


def _refine(t, dims):
    """Narrows the static shape of `t` to `dims` where they are known and its own are not."""
    if not isinstance(t, _core.SymbolicTensor):
        return
    if t.shape.rank is None:
        t._refine_shape(tuple(dims))
        return
    if t.shape.rank != len(dims):
        return
    merged = [d if d is not None else o for d, o in zip(dims, t.shape.dims)]
    if merged != list(t.shape.dims):
        t._refine_shape(tuple(merged))
