"""tf.gradients: symbolic differentiation of the graph being traced, with GradientTape's helpers
(backprop.py) for variables, output gradients and unconnected gradients."""

from graphfn import _core
from graphfn import context
from graphfn.eager import backprop
from graphfn.util import nest
from graphfn.util.tf_export import tf_export


@tf_export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """d(sum of ys)/dx for each x in xs, in the function being traced (symbolic
    differentiation of its graph); None (or zeros) where no gradient flows. Gradients reach the
    tensors of `stop_gradients` but do not pass through them."""
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
