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


# Variable creation while tracing (TF's rule): allowed during a function's first trace only.
# The Function sets the mode around each trace; eager code may always create variables.
_ALLOWED, _SINGLETON_ONLY, _NON_FIRST_CALL = "allowed", "singleton", "non-first"
_variable_creation = [None]  # stack of (mode, list of created variables)


@contextlib.contextmanager
def variable_creation_scope(mode):
    created = []
    _variable_creation.append((mode, created))
    try:
        yield created
    finally:
        _variable_creation.pop()


def check_variable_creation():
    scope = _variable_creation[-1]
    if scope is None or executing_eagerly():
        return
    mode = scope[0]
    if mode == _SINGLETON_ONLY:
        raise ValueError(
            "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
            "tf.Variable is only created once or created outside tf.function. See "
            "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
    if mode == _NON_FIRST_CALL:
        raise ValueError("Creating variables on a non-first call to a function decorated with tf.function.")


# The trainable variables each function being traced reads through captured handles (innermost
# last): an eager call of the function makes active tapes watch them, as TF does.
_variables_read = [None]


@contextlib.contextmanager
def variables_read_scope():
    read = []
    _variables_read.append(read)
    try:
        yield read
    finally:
        _variables_read.pop()


def note_variable_read(variable):
    read = _variables_read[-1]
    if read is None or _core.current_graph() is None:
        return
    if all(v._handle is not variable._handle for v in read):
        read.append(variable)


def note_variable_created(variable):
    scope = _variable_creation[-1]
    if scope is not None and not executing_eagerly():
        scope[1].append(variable)


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
