"""Handles on the C++ op registry: `ops.AddV2(x, y)` runs the registered op.

Wrappers call these handles; the op definitions themselves live in cpp/graphfn/ops/."""

from graphfn import _core


class _OpTable:
    def __getattr__(self, name):
        handle = _core.op(name)
        setattr(self, name, handle)  # cache: later lookups are plain attribute reads
        return handle


ops = _OpTable()
