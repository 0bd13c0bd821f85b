"""The one current context: eager execution, or a graph being traced.

The C++ core keeps the stack of graphs being built (per thread); while one is current, every op
wrapper adds a node to it instead of running a kernel."""

import contextlib

from graphfn import _core
from graphfn.util.tf_export import tf_export

_run_functions_eagerly = False


@contextlib.contextmanager
def graph_context(graph):
    _core.push_graph(graph)
    try:
        yield graph
    finally:
        _core.pop_graph()


@tf_export("executing_eagerly")
def executing_eagerly():
    """False while a function is being traced."""
    return _core.current_graph() is None


@tf_export("config.run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Makes every graphfn.function run its Python code directly (for debugging)."""
    global _run_functions_eagerly
    _run_functions_eagerly = bool(run_eagerly)
    _core.set_functions_run_eagerly(_run_functions_eagerly)


@tf_export("config.functions_run_eagerly")
def functions_run_eagerly():
    return _run_functions_eagerly
