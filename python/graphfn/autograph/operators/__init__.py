"""Run-time dispatch used by generated code: Python semantics for Python values, graph ops for
graph tensors."""
