"""Ops that exist for gradients: stop_gradient and broadcast_to."""

from graphfn.ops import _fast_path
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
