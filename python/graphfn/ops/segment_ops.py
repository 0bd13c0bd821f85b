"""Segment reductions (tf.math.segment_* over sorted ids, unsorted_segment_* over any ids and a
segment count); unsorted_segment_mean and _sqrt_n divide sums by counts, as TF's Python does.
(tf.math.unsorted_segment_sum is in gradient_ops.py.)"""

from graphfn.framework.name_scope import name_scope
from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops import math_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export

SORTED_SEGMENT_OPS = (
    ("SegmentSum", "math.segment_sum"),
    ("SegmentMean", "math.segment_mean"),
    ("SegmentMax", "math.segment_max"),
    ("SegmentMin", "math.segment_min"),
    ("SegmentProd", "math.segment_prod"),
)
UNSORTED_SEGMENT_OPS = (
    ("UnsortedSegmentMax", "math.unsorted_segment_max"),
    ("UnsortedSegmentMin", "math.unsorted_segment_min"),
    ("UnsortedSegmentProd", "math.unsorted_segment_prod"),
)


def _sorted(op_type):
    def wrapper(data, segment_ids, name=None):
        fast = _fast_path.is_plain(data) and _fast_path.is_plain(segment_ids)
        return _fast_path.call(fast, node(op_type, name), data, segment_ids)
    return wrapper


def _unsorted(op_type):
    def wrapper(data, segment_ids, num_segments, name=None):
        fast = all(_fast_path.is_plain(v) for v in (data, segment_ids, num_segments))
        return _fast_path.call(fast, node(op_type, name), data, segment_ids, num_segments)
    return wrapper


def _define(make, op_type, public_name):
    wrapper = make(op_type)
    wrapper.__name__ = wrapper.__qualname__ = public_name.rsplit(".", 1)[-1]
    wrapper.__module__ = __name__
    wrapper.__doc__ = "tf.%s: runs TF's %s op." % (public_name, op_type)
    globals()[wrapper.__name__] = tf_export(public_name)(wrapper)


for _op_type, _name in SORTED_SEGMENT_OPS:
    _define(_sorted, _op_type, _name)
for _op_type, _name in UNSORTED_SEGMENT_OPS:
    _define(_unsorted, _op_type, _name)


def _segment_counts(data, segment_ids, num_segments):
    """Rows per segment (at least 1), shaped to broadcast against the segment sums."""
    num_segments = array_ops.convert_to_tensor(num_segments)
    ones = array_ops.ones(array_ops.shape(segment_ids), dtype=data.dtype)
    n = ops.UnsortedSegmentSum(ones, segment_ids, num_segments)
    extra = array_ops.ones(array_ops.expand_dims(array_ops.rank(data) - array_ops.rank(segment_ids), 0),
                           dtype=num_segments.dtype)
    n = array_ops.reshape(n, array_ops.concat([array_ops.expand_dims(num_segments, 0), extra], axis=0))
    return math_ops.maximum(n, 1)


@tf_export("math.unsorted_segment_mean")
def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    with name_scope(name or "UnsortedSegmentMean"):
        data = array_ops.convert_to_tensor(data)
        segment_ids = array_ops.convert_to_tensor(segment_ids)
        n = _segment_counts(data, segment_ids, num_segments)
        return math_ops.truediv(ops.UnsortedSegmentSum(data, segment_ids, num_segments), n)


@tf_export("math.unsorted_segment_sqrt_n")
def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    with name_scope(name or "UnsortedSegmentSqrtN"):
        data = array_ops.convert_to_tensor(data)
        segment_ids = array_ops.convert_to_tensor(segment_ids)
        n = _segment_counts(data, segment_ids, num_segments)
        return math_ops.truediv(ops.UnsortedSegmentSum(data, segment_ids, num_segments), math_ops.sqrt(n))
