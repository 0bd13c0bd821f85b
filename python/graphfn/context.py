"""The one current context: eager execution, or a graph being traced.

The C++ core keeps this thread's tracing state (cpp/graphfn/tracing/trace_context.h): the stack
of graphs being built, the traces in progress and the run-functions-eagerly flag. While a graph is
current, every op wrapper adds a node to it instead of running a kernel. Python keeps none of it."""

import contextlib

from graphfn import _core
from graphfn.util.tf_export import tf_export


@contextlib.contextmanager
def graph_context(graph):
    _core.push_graph(graph)
    try:
        yield graph
    finally:
        _core.pop_graph()


@tf_export("init_scope")
@contextlib.contextmanager
def init_scope():
    """Leaves every graph being traced: code inside runs eagerly, once, at trace time (TF uses
    it to create or initialise state from inside a function)."""
    _core.push_graph(None)
    try:
        yield
    finally:
        _core.pop_graph()


# Tracing state is per thread and lives in C++ (cpp/graphfn/tracing/trace_context.h): the graph
# stack, the traces in progress with TF's variable-creation mode, and the variables they read.
ALLOWED = _core.VariableCreation.ALLOWED  # traces until one creates variables
SINGLETON_ONLY = _core.VariableCreation.SINGLETON_ONLY  # every trace after that


@contextlib.contextmanager
def trace_scope(mode):
    """One trace in progress on this thread; yields a list that receives, when the trace ends,
    (number of variables created, trainable variables read through captured handles)."""
    outcome = []
    _core.begin_trace(mode)
    try:
        yield outcome
    finally:
        outcome.extend(_core.end_trace())


check_variable_creation = _core.check_variable_creation  # raises TF's ValueError when forbidden
note_variable_created = _core.note_variable_created
note_variable_read = _core.note_variable_read


@tf_export("executing_eagerly")
def executing_eagerly():
    """False while a function is being traced."""
    return _core.executing_eagerly()


@tf_export("config.run_functions_eagerly")
def run_functions_eagerly(run_eagerly):
    """Makes every graphfn.function run its Python code directly (for debugging)."""
    _core.set_functions_run_eagerly(bool(run_eagerly))


@tf_export("config.functions_run_eagerly")
def functions_run_eagerly():
    return _core.functions_run_eagerly()
