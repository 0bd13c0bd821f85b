"""tf.sparse.segment_sum / segment_mean / segment_sqrt_n: rows of `data` picked by `indices`,
reduced by sorted `segment_ids` (raw ops SparseSegment*; with `num_segments`, the
*WithNumSegments forms), and tf.math.betainc. `sparse_gradient=True` asks TF for IndexedSlices
gradients; graphfn's gradients are dense, with the same values."""

from graphfn.ops import _fast_path
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


def _sparse_segment(op_type, data, indices, segment_ids, num_segments, name, sparse_gradient):
    inputs = [data, indices, segment_ids]
    if num_segments is not None:
        op_type += "WithNumSegments"
        inputs.append(num_segments)
    fast = all(_fast_path.is_plain(v) for v in inputs)
    return _fast_path.call(fast, node(op_type, name), *inputs, sparse_gradient=bool(sparse_gradient))


@tf_export("sparse.segment_sum")
def sparse_segment_sum(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    return _sparse_segment("SparseSegmentSum", data, indices, segment_ids, num_segments, name, sparse_gradient)


@tf_export("sparse.segment_mean")
def sparse_segment_mean(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    return _sparse_segment("SparseSegmentMean", data, indices, segment_ids, num_segments, name, sparse_gradient)


@tf_export("sparse.segment_sqrt_n")
def sparse_segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None, sparse_gradient=False):
    return _sparse_segment("SparseSegmentSqrtN", data, indices, segment_ids, num_segments, name, sparse_gradient)


@tf_export("math.betainc")
def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b); non-scalar inputs share one shape."""
    fast = all(_fast_path.is_plain(v) for v in (a, b, x))
    return _fast_path.call(fast, node("Betainc", name), a, b, x)
