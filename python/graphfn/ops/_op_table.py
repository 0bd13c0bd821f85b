"""Handles on the C++ op registry: `ops.AddV2(x, y)` runs the registered op (or, while tracing,
adds a node named "AddV2"); `ops.named("AddV2", "Add")` gives a handle whose nodes are named
"Add", as TF names the nodes tf.add creates.

Wrappers call these handles; the op definitions themselves live in cpp/graphfn/ops/."""

import functools

from graphfn import _core
from graphfn.framework.tensor import EagerTensor


class _OpTable:
    def __getattr__(self, name):
        handle = _core.op(name)
        setattr(self, name, handle)  # cache: later lookups are plain attribute reads
        return handle

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def named(op, node_name):
        return _core.op(op, node_name)


ops = _OpTable()


_named_handles = {}


def node(op_type, name=None):
    """The handle that adds `op_type` nodes named `name` (else after the op) while tracing."""
    if name is not None and not isinstance(name, str):
        name = _node_name(name)
    if name is None or name == op_type:
        return getattr(ops, op_type)
    handle = _named_handles.get((op_type, name))
    if handle is None:
        handle = _named_handles[op_type, name] = ops.named(op_type, name)
    return handle


def _node_name(name):
    """A `name=` that is not a str: as TF, eager ops ignore it, bytes are decoded, and graph
    building wants a string (TF's TypeError from matching it against the op-name pattern)."""
    if isinstance(name, bytes):
        return name.decode("utf-8", "replace")
    if _core.current_graph() is None:
        return None
    raise TypeError("expected string or bytes-like object, got '%s'" % type(name).__name__)


def graph_constant(t, name=None, default_name="Const"):
    """While tracing, an eager tensor made from Python values becomes a Const node, as TF's
    constants are graph tensors there; in eager mode it is returned as it is."""
    if _core.current_graph() is None or not isinstance(t, EagerTensor):
        return t
    return node("Const", name or default_name)(value=t, dtype=t.dtype)
