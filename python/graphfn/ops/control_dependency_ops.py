"""tf.control_dependencies, tf.group, tf.no_op and tf.Operation.

While tracing, `with control_dependencies([a, b]):` makes every node created inside run after
`a` and `b` (the C++ graph keeps TF's stack of blocks and adds the control inputs, including to
the Const nodes of Python operands). Eagerly ops run in program order anyway: the block does
nothing, tf.group and tf.no_op return None."""

from graphfn import _core
from graphfn.framework.graph import ControlDependencies
from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import SymbolicTensor
from graphfn.ops._op_table import node
from graphfn.util import nest
from graphfn.util.tf_export import tf_export

Operation = tf_export("Operation")(_core.Operation)


class NullContextmanager:
    """What control_dependencies gives eagerly: a block that does nothing."""

    def __enter__(self):
        return None

    def __exit__(self, *exc_info):
        return False


def _control_op(graph, value):
    """The Operation of this graph that `value` stands for, or None for values TF leaves out of
    a function's control dependencies (eager tensors, Python values, other graphs' tensors; one
    of an enclosing graph becomes a control input of the If / While node, as in TF)."""
    value = getattr(value, "_control_op", value)  # what assign() returned: the assign op
    if isinstance(value, SymbolicTensor):
        value = value.op
    if isinstance(value, Operation):
        if value._same_graph(graph):
            return value
        _core.capture_control(graph, value)  # the If / While node made from `graph` waits for it
        return None
    if value is None:
        raise TypeError("Can not convert a NoneType into a Tensor or Operation.")
    return None


@tf_export("control_dependencies")
def control_dependencies(control_inputs):
    """`with control_dependencies(ops_or_tensors):` orders the ops created inside after them."""
    graph = _core.current_graph()
    if graph is None:
        if control_inputs:
            for control in control_inputs:
                if callable(control):
                    control()
        return NullContextmanager()
    if control_inputs is None:
        return ControlDependencies(graph, None)
    found = []
    for value in control_inputs:
        op = _control_op(graph, value)
        if op is not None and op not in found:
            found.append(op)
    return ControlDependencies(graph, found)


@tf_export("no_op")
def no_op(name=None):
    """Does nothing; in a graph, a NoOp node (a join point for control dependencies)."""
    if _core.current_graph() is None:
        return None
    return node("NoOp", name)()


@tf_export("group")
def group(*inputs, **kwargs):
    """An op that runs after all `inputs` (a NoOp with them as control inputs); None eagerly."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    if _core.current_graph() is None:
        return None
    with name_scope(name or "group_deps") as scope:
        deps = []
        for value in nest.flatten(inputs):
            if not isinstance(value, (SymbolicTensor, Operation)) and not hasattr(value, "_control_op"):
                raise TypeError("'inputs' should be zero or more (nested) Tensors. Received '%s' with type '%s'."
                                % (value, type(value)))
            deps.append(value)
        with control_dependencies(deps):
            return node("NoOp", scope)()
