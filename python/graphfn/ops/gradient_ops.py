"""Ops that exist for gradients: stop_gradient, broadcast_to, math.unsorted_segment_sum, add_n."""

from graphfn.framework.tensor import Tensor
from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


@tf_export("stop_gradient")
def stop_gradient(input, name=None):  # noqa: A002 (TF's argument name)
    return ops.StopGradient(input)


@tf_export("broadcast_to")
def broadcast_to(input, shape, name=None):  # noqa: A002
    return ops.BroadcastTo(input, shape)


@tf_export("math.unsorted_segment_sum")
def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    fast = all(_fast_path.is_plain(v) for v in (data, segment_ids, num_segments))
    return _fast_path.call(fast, ops.UnsortedSegmentSum, data, segment_ids, num_segments)


@tf_export("add_n", "math.add_n")
def add_n(inputs, name=None):
    """Sums same-shape tensors (no broadcasting); one input is returned through Identity."""
    if isinstance(inputs, Tensor):
        inputs = list(inputs)
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape.")
    inputs = [array_ops.convert_to_tensor(v) for v in inputs]
    if len(inputs) == 1:
        return ops.Identity(inputs[0])
    return ops.AddN(inputs)


@tf_export("math.invert_permutation")
def invert_permutation(x, name=None):
    return _fast_path.call(_fast_path.is_plain(x), ops.InvertPermutation, x)


@tf_export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """d(sum of ys)/dx for each x in xs, in the function being traced (symbolic
    differentiation of its graph); None (or zeros) where no gradient flows. Gradients reach the
    tensors of `stop_gradients` but do not pass through them."""
    from graphfn import _core
    from graphfn import context
    from graphfn.eager import backprop
    from graphfn.util import nest
    if context.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    unconnected = backprop.UnconnectedGradients(unconnected_gradients)
    flat_ys = [backprop._handle_or_self(y) for y in nest.flatten(ys)]
    flat_xs = nest.flatten(xs)
    sources = [backprop._handle_or_self(x) for x in flat_xs]
    grad_ys = None if grad_ys is None else nest.flatten(grad_ys)
    graph = _core.current_graph()
    stops = [backprop._handle_or_self(t) for t in nest.flatten(stop_gradients)] if stop_gradients is not None else None
    grads = backprop._symbolic_gradient(lambda t, s, g: _core.graph_gradients(graph, t, s, g, stops), flat_ys, sources,
                                        grad_ys)
    if unconnected is backprop.UnconnectedGradients.ZERO:
        grads = [backprop._zeros_like(x) if g is None else g for g, x in zip(grads, flat_xs)]
    return grads
