"""Handles on the C++ op registry: `ops.AddV2(x, y)` runs the registered op (or, while tracing,
adds a node named "AddV2"); `ops.named("AddV2", "Add")` gives a handle whose nodes are named
"Add", as TF names the nodes tf.add creates.

Wrappers call these handles; the op definitions themselves live in cpp/graphfn/ops/."""

import functools

from graphfn import _core


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
