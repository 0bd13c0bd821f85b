"""tf.__internal__: the pieces of TensorFlow's internal API that libraries built on TF use
(Keras 3's TensorFlow backend): tensor base types, FuncGraph for shape inference, smart_cond,
decorator unwrapping and an eager-mode scope. Tracking lives in graphfn/trackable, the
distribute pieces in graphfn/distribute."""

import abc

from graphfn import context
from graphfn.framework import composite_tensor
from graphfn.framework import tensor as tensor_lib
from graphfn.util.tf_export import tf_export


@tf_export("__internal__.types.Tensor")
class Tensor(metaclass=abc.ABCMeta):
    """The abstract tensor type (tensorflow.python.types.core.Tensor): graphfn's tensors are
    instances; classes such as Keras's Variable subclass it to be treated as tensors."""


Tensor.register(tensor_lib.EagerTensor)
Tensor.register(tensor_lib.SymbolicTensor)

tf_export("__internal__.CompositeTensor")(composite_tensor.CompositeTensor)
tf_export("__internal__.EagerTensor")(tensor_lib.EagerTensor)


@tf_export("__internal__.FuncGraph")
def FuncGraph(name):
    """A new graph for building ops into (`with FuncGraph("g").as_default():`), for example to
    learn the shapes and dtypes a function gives from placeholders."""
    from graphfn.framework import graph  # lazily, as TF1-style graphs are seldom used
    new_graph = graph.Graph()
    new_graph._func_graph_name = name
    return new_graph


@tf_export("get_static_value")
def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array when it is known without running a graph: eager
    tensors, variables read eagerly, Python and NumPy values; None for a graph tensor (graphfn
    does not evaluate graph constants here yet, where TF would)."""
    import numpy as np  # lazily: numpy is loaded by then anyway
    if isinstance(tensor, tensor_lib.EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, tensor_lib.SymbolicTensor):
        return None
    if hasattr(tensor, "__tf_tensor__"):  # a variable: its value, when read eagerly
        if not context.executing_eagerly():
            return None
        return get_static_value(tensor.__tf_tensor__())
    if isinstance(tensor, (bool, int, float, complex, np.ndarray, np.generic, list, tuple)):
        return np.asarray(tensor)
    raise TypeError("%r is not a Tensor." % (tensor,))


def _static_value(pred):
    if isinstance(pred, bool):
        return pred
    try:
        value = get_static_value(pred)
    except TypeError:
        return None
    return None if value is None else bool(value)


@tf_export("__internal__.smart_cond.smart_cond")
def smart_cond(pred, true_fn=None, false_fn=None, name=None):
    """Calls the branch `pred` selects when its value is known now, else builds tf.cond."""
    if not callable(true_fn):
        raise TypeError("`true_fn` must be callable.")
    if not callable(false_fn):
        raise TypeError("`false_fn` must be callable.")
    value = _static_value(pred)
    if value is not None:
        return true_fn() if value else false_fn()
    from graphfn.ops import control_flow_ops  # lazily, as above
    return control_flow_ops.cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)


@tf_export("__internal__.decorator.unwrap")
def unwrap(maybe_decorated):
    """(decorators, target): graphfn's decorators are plain functools.wraps wrappers, so the list
    is empty and the target is the object itself."""
    return [], maybe_decorated


@tf_export("__internal__.eager_context.eager_mode")
def eager_mode():
    """Runs the code inside eagerly, even while a function is being traced."""
    return context.init_scope()
