"""tf.Graph: a graph that ops are added to instead of running, as in TensorFlow 1.x programs.

Every graph graphfn builds is a C++ `_core.Graph`: the graph of a traced function, a branch or
loop body, and the graphs users make with `tf.Graph()`. This module gives all of them TF's Python
surface (as_default, get_operations, as_graph_def, get_tensor_by_name, finalize, ...), so the
graph a tensor belongs to (`t.graph`) answers like TF's. `tf.Graph()` makes a standalone graph:
`with g.as_default():` pushes it on this thread's graph stack (cpp/graphfn/tracing/
trace_context.h), the same stack tracing uses, so ops build symbolic tensors into it.
tf.compat.v1.Session (graphfn/client/session.py) runs it."""

import contextlib
import re
import threading

from graphfn import _core
from graphfn.framework import device_placement
from graphfn.framework import dtypes
from graphfn.framework import name_scope as name_scope_lib
from graphfn.framework.tensor import SymbolicTensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.util.tf_export import tf_export

Operation = _core.Operation
Operation.device = property(device_placement.operation_device, doc="The device scope the op was made in.")


class NodeDef:
    """One node as `as_graph_def()` lists it: name, op and inputs (control inputs last, as
    "^name", sorted by name like TF's GraphDef)."""

    __slots__ = ("name", "op", "input")

    def __init__(self, name, op, inputs):
        self.name = name
        self.op = op
        self.input = inputs

    def __repr__(self):
        return "NodeDef(name=%r, op=%r, input=%r)" % (self.name, self.op, self.input)


class GraphDef:
    """The nodes of a graph; prints as TF's GraphDef text format."""

    __slots__ = ("node", "_text", "_graph")

    def __init__(self, nodes, text, graph=None):
        self.node = nodes
        self._text = text
        self._graph = graph  # the graph it describes, which tf.graph_util.import_graph_def copies

    def __str__(self):
        return self._text

    __repr__ = __str__


class _GraphType(type(_core.Graph)):
    """isinstance(x, tf.Graph) holds for every graph graphfn builds (a traced function's graph is
    a tf.Graph in TF too: its FuncGraph subclasses Graph) and for views of one that say so
    (a concrete function's FuncGraph)."""

    def __instancecheck__(cls, obj):
        if cls is Graph:
            return isinstance(obj, _core.Graph) or getattr(type(obj), "_is_graph_view", False)
        return type.__instancecheck__(cls, obj)


@tf_export("Graph", "compat.v1.Graph")
class Graph(_core.Graph, metaclass=_GraphType):
    """A standalone graph: `with g.as_default():` adds the ops created inside to it."""

    def __init__(self):
        _core.push_graph(None)  # not enclosed in a graph being traced: tf.Graph() stands alone
        try:
            super().__init__()
        finally:
            _core.pop_graph()
        self._standalone = True  # kept by the C++ graph: t.graph says so after this object is gone


# The methods every graph has (installed on _core.Graph, so traced graphs have them too) --------

def as_default(self):
    """`with g.as_default():` makes `g` this thread's default graph: ops created inside add
    nodes to it. Other threads keep their own default graph."""
    return _default_graph_scope(self)


@contextlib.contextmanager
def _default_graph_scope(graph):
    _core.push_graph(graph)
    try:
        yield graph
    finally:
        _core.pop_graph()


def get_operations(self):
    """The graph's operations, in the order they were added."""
    return [self.node_operation(i) for i in range(self.num_nodes)]


def as_graph_def(self, from_version=None, add_shapes=False, use_pybind11_proto=False):
    """The graph as a GraphDef: `.node` lists its nodes; printing gives TF's text format."""
    names = self.node_names()
    nodes = [NodeDef(name, self.node_op(i),
                     self.node_inputs(i) + ["^" + c for c in sorted(self.node_control_inputs(i))])
             for i, name in enumerate(names)]
    return GraphDef(nodes, self.graph_def_text(), self)


def _node_id(graph, name):
    try:
        return graph.node_names().index(name)
    except ValueError:
        return -1


def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
    """The Tensor or Operation of this graph that `obj` (one of them, or its name) stands for,
    with TF's errors."""
    if allow_tensor and allow_operation:
        types_str = "Tensor or Operation"
    elif allow_tensor:
        types_str = "Tensor"
    else:
        types_str = "Operation"
    if isinstance(obj, str):
        name = obj
        if ":" in name and allow_tensor:
            op_name, _, index = name.partition(":")
            try:
                index = int(index)
            except ValueError:
                raise ValueError("The name %r looks a like a Tensor name, but is not a valid one. Tensor names "
                                 'must be of the form "<op_name>:<output_index>".' % name) from None
            node = _node_id(self, op_name)
            if node < 0:
                raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, does not "
                               "exist in the graph." % (name, op_name))
            outputs = self.node_operation(node).outputs
            try:
                return outputs[index]
            except IndexError:
                raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, exists "
                               "but only has %s outputs." % (name, op_name, len(outputs))) from None
        if ":" in name and not allow_tensor:
            raise ValueError("Name %r appears to refer to a Tensor, not a %s." % (name, types_str))
        if not allow_operation:
            if _node_id(self, name) >= 0:
                raise ValueError("The name %r refers to an Operation, not a %s. Tensor names must be of the form "
                                 '"<op_name>:<output_index>".' % (name, types_str))
            raise ValueError("The name %r looks like an (invalid) Operation name, not a %s. Tensor names must be "
                             'of the form "<op_name>:<output_index>".' % (name, types_str))
        node = _node_id(self, name)
        if node < 0:
            raise KeyError("The name %r refers to an Operation not in the graph." % name)
        return self.node_operation(node)
    if isinstance(obj, SymbolicTensor) and allow_tensor:
        if not obj._same_graph(self):
            raise ValueError("Tensor %s is not an element of this graph." % obj)
        return obj
    if isinstance(obj, Operation) and allow_operation:
        if not obj._same_graph(self):
            raise ValueError("Operation %s is not an element of this graph." % obj)
        return obj
    raise TypeError("Can not convert a %s into a %s." % (type(obj).__name__, types_str))


def get_tensor_by_name(self, name):
    """The tensor named "<op_name>:<output_index>"."""
    if not isinstance(name, str):
        raise TypeError("Tensor names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=True, allow_operation=False)


def get_operation_by_name(self, name):
    """The operation named `name`."""
    if not isinstance(name, str):
        raise TypeError("Operation names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=False, allow_operation=True)


def finalize(self):
    """Makes the graph read-only: adding an op raises RuntimeError afterwards."""
    self._finalize()


# TF's rules for scope names: at the top level a scope starts as an op name does.
_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


@contextlib.contextmanager
def name_scope(self, name):
    """Names the ops created inside "name/..." in this graph (made unique: "name_1/" the second
    time); yields the scope. A name ending in "/" re-enters that scope; "" or None the top."""
    previous = self._name_scope
    if name:
        if isinstance(name, bytes):
            name = name.decode("utf-8")
        if not isinstance(name, str):
            raise TypeError("expected string or bytes-like object, got '%s'" % type(name).__name__)
        if previous and not _VALID_SCOPE_NAME.match(name):
            raise ValueError("'%s' is not a valid scope name. A scope name has to match the following pattern: %s"
                             % (name, _VALID_SCOPE_NAME.pattern))
        if not previous and not _VALID_OP_NAME.match(name):
            raise ValueError("'%s' is not a valid root scope name. A root scope name has to match the following "
                             "pattern: %s" % (name, _VALID_OP_NAME.pattern))
    if not name:
        scope = ""
    elif name.endswith("/"):
        scope = name
    else:
        scope = self.unique_name(previous + name) + "/"
    self._name_scope = scope
    try:
        yield scope
    finally:
        self._name_scope = previous


def get_name_scope(self):
    """The current name scope, without the trailing "/"."""
    return self._name_scope[:-1]


def control_dependencies(self, control_inputs):
    """`with g.control_dependencies([a, b]):` makes the ops created inside run after `a` and
    `b` (tensors or operations of this graph); None clears the blocks around."""
    if control_inputs is None:
        return ControlDependencies(self, None)
    ops = []
    for value in control_inputs:
        value = getattr(value, "_control_op", value)  # a write: the operation that writes
        value = self.as_graph_element(value)
        if isinstance(value, SymbolicTensor):
            value = value.op
        if value not in ops:
            ops.append(value)
    return ControlDependencies(self, ops)


class ControlDependencies:
    """A block of control dependencies in a graph (ops None clears the blocks around it): what
    Graph.control_dependencies and tf.control_dependencies return."""

    __slots__ = ("_graph", "_ops")

    def __init__(self, graph, ops):
        self._graph, self._ops = graph, ops

    def __enter__(self):
        self._graph.push_control_dependencies(self._ops)
        return None

    def __exit__(self, *exc_info):
        self._graph.pop_control_dependencies()
        return False


def device(self, device_name_or_function):
    """A device scope: ops made inside record its name (op.device); graphfn runs them on the CPU."""
    return device_placement.graph_device_scope(self, device_name_or_function)


_METHODS = dict(as_default=as_default, get_operations=get_operations, as_graph_def=as_graph_def,
                as_graph_element=as_graph_element, get_tensor_by_name=get_tensor_by_name,
                get_operation_by_name=get_operation_by_name, finalize=finalize, name_scope=name_scope,
                get_name_scope=get_name_scope, control_dependencies=control_dependencies, device=device)
for _name, _method in _METHODS.items():
    setattr(_core.Graph, _name, _method)
_core.Graph.finalized = property(lambda self: self._finalized, doc="True once finalize() was called.")
# A tf.Graph() is not a function's graph; every graph tracing makes is.
_core.Graph.building_function = property(lambda self: not self._standalone)
_core.Graph.version = property(lambda self: self.num_nodes, doc="Grows as operations are added.")
_core.Graph.seed = None  # the graph-level random seed; graphfn has none per graph


# The default graph ---------------------------------------------------------------------------

_default = threading.local()


@tf_export("compat.v1.get_default_graph")
def get_default_graph():
    """The graph ops are added to now: the innermost `as_default()` graph or graph being traced;
    otherwise this thread's global default graph (which eager ops do not use)."""
    graph = _core.current_graph()
    if graph is not None:
        return graph
    graph = getattr(_default, "graph", None)
    if graph is None:
        graph = _default.graph = Graph()
    return graph


@tf_export("compat.v1.reset_default_graph")
def reset_default_graph():
    """Replaces this thread's global default graph by a new, empty one."""
    if _core.current_graph() is not None:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    _default.graph = Graph()


@tf_export("compat.v1.placeholder")
def placeholder(dtype, shape=None, name=None):
    """A tensor of the default graph whose value is fed when the graph runs
    (`Session.run(..., feed_dict={p: value})`)."""
    graph = _core.current_graph()
    if graph is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    if not graph._standalone:
        # A function's inputs are its arguments; an extra one would change its signature.
        raise RuntimeError("tf.compat.v1.placeholder() is not supported inside a graphfn.function; pass the "
                           "value as an argument instead.")
    dims = TensorShape(shape).dims
    return graph.add_placeholder(dtypes.as_dtype(dtype).as_datatype_enum, None if dims is None else tuple(dims),
                                 name_scope_lib.current_scope() + (name or "Placeholder"))
