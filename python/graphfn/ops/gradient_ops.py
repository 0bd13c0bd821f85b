"""Ops that exist for gradients: stop_gradient, broadcast_to, math.unsorted_segment_sum, add_n.
(tf.gradients itself is graphfn.eager.gradients: it needs the tape machinery above ops/.)"""

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
