"""Reductions built on the basic ones, as TF's Python layer builds them: tf.math.reduce_variance,
reduce_std, reduce_logsumexp, reduce_euclidean_norm, count_nonzero, cumulative_logsumexp and
confusion_matrix (tf.math.bincount is in bincount.py)."""

from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.ops import _fast_path
from graphfn.ops import array_ops
from graphfn.ops import check_ops
from graphfn.ops import gradient_ops
from graphfn.ops import math_ops
from graphfn.ops import reduction_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export


@tf_export("math.reduce_variance")
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name or "reduce_variance"):
        input_tensor = array_ops.convert_to_tensor(input_tensor)
        means = reduction_ops.reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError("Input must be either real or complex. Received integer type %s." % means.dtype)
        squared_deviations = math_ops.square(input_tensor - means)
        return reduction_ops.reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


@tf_export("math.reduce_std")
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    with name_scope(name or "reduce_std"):
        input_tensor = array_ops.convert_to_tensor(input_tensor)
        return math_ops.sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


@tf_export("math.reduce_logsumexp", "reduce_logsumexp")
def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) computed as max + log(sum(exp(x - max))), the max held constant for the
    gradient and replaced by 0 where it is not finite (as TF)."""
    with name_scope(name or "ReduceLogSumExp") as scope:
        raw_max = reduction_ops.reduce_max(input_tensor, axis=axis, keepdims=True)
        finite_max = ops.SelectV2(ops.IsFinite(raw_max), raw_max, array_ops.zeros_like(raw_max))
        my_max = gradient_ops.stop_gradient(finite_max)
        result = math_ops.log(reduction_ops.reduce_sum(
            math_ops.exp(math_ops.subtract(input_tensor, my_max)), axis=axis, keepdims=keepdims))
        if not keepdims:
            my_max = array_ops.reshape(my_max, array_ops.shape(result))
        return node("AddV2", scope)(result, my_max)


@tf_export("math.reduce_euclidean_norm")
def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    return reduction_ops._reduce(ops.EuclideanNorm, input_tensor, axis, keepdims)


@tf_export("math.count_nonzero")
def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002 (TF's name)
    keepdims = False if keepdims is None else keepdims
    with name_scope(name or "count_nonzero"):
        input = array_ops.convert_to_tensor(input)  # noqa: A001
        if input.dtype == dtypes.bool:
            predicate = input
        else:
            predicate = ops.NotEqual(input, array_ops.zeros([], dtype=input.dtype))
        counts = reduction_ops.reduce_sum(math_ops.cast(predicate, dtypes.int64), axis=axis, keepdims=keepdims)
        return math_ops.cast(counts, dtype)


@tf_export("math.cumulative_logsumexp")
def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    fast = _fast_path.is_plain(x) and _fast_path.is_plain(axis)
    return _fast_path.call(fast, node("CumulativeLogsumexp", name), x, axis, exclusive=exclusive, reverse=reverse)


@tf_export("math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """[num_classes, num_classes] counts (or weight sums) of (label, prediction) pairs."""
    with name_scope(name or "confusion_matrix"):
        labels = math_ops.cast(array_ops.convert_to_tensor(labels), dtypes.int64)
        predictions = math_ops.cast(array_ops.convert_to_tensor(predictions), dtypes.int64)
        check_ops.assert_non_negative(labels, message="`labels` contains negative values")
        check_ops.assert_non_negative(predictions, message="`predictions` contains negative values")
        if num_classes is None:
            num_classes = math_ops.maximum(reduction_ops.reduce_max(predictions), reduction_ops.reduce_max(labels)) + 1
        else:
            num_classes = math_ops.cast(num_classes, dtypes.int64)
            check_ops.assert_less(labels, num_classes, message="`labels` out of bound")
            check_ops.assert_less(predictions, num_classes, message="`predictions` out of bound")
        if weights is not None:
            weights = array_ops.convert_to_tensor(weights)
            if not predictions.shape.is_compatible_with(weights.shape):
                raise ValueError("Shapes %s and %s are incompatible" % (predictions.shape, weights.shape))
            values = math_ops.cast(weights, dtype)
        else:
            values = array_ops.ones_like(predictions, dtype=dtype)
        # TF scatters the values into the matrix; summing them by flat position is the same.
        cells = labels * num_classes + predictions
        summed = ops.UnsortedSegmentSum(array_ops.reshape(values, [-1]), array_ops.reshape(cells, [-1]),
                                        num_classes * num_classes)
        return array_ops.reshape(summed, array_ops.stack([num_classes, num_classes]))
