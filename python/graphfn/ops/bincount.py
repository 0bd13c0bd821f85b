"""tf.math.bincount and tf.sparse.bincount, as TF's Python builds them: the output size from the
largest value (raised to minlength, cut to maxlength), then one of the raw ops DenseBincount,
RaggedBincount (ragged input, axis=-1) or SparseBincount (SparseTensor input, axis=-1).
tf.sparse.bincount returns the counted bins as a SparseTensor; TF computes it with its
*CountSparseOutput ops, graphfn from the dense counts and the bins any value reached."""

from graphfn.framework import dtypes
from graphfn.framework.name_scope import name_scope
from graphfn.ops import array_ops
from graphfn.ops import check_ops
from graphfn.ops import control_dependency_ops
from graphfn.ops import math_ops
from graphfn.ops import reduction_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


def _composite_types():
    from graphfn.ops.ragged_tensor import RaggedTensor  # noqa: PLC0415 (the ragged layer loads on first use)
    from graphfn.ops.sparse_tensor import SparseTensor  # noqa: PLC0415 (as the ragged one, beside it)
    return RaggedTensor, SparseTensor


def _check_arguments(weights, binary_output, axis):
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError("Unsupported value for argument axis=%s. Only 0 and -1 are currently supported." % (axis,))
    return axis


def _output_size(arr, largest, minlength, maxlength):
    """(largest + 1) when arr holds anything, else 0; raised to minlength, cut to maxlength."""
    nonempty = math_ops.cast(array_ops.size(arr) > 0, largest.dtype)
    output_size = nonempty * (largest + 1)
    if minlength is not None:
        output_size = math_ops.maximum(array_ops.convert_to_tensor(minlength, dtype=largest.dtype), output_size)
    if maxlength is not None:
        output_size = math_ops.minimum(array_ops.convert_to_tensor(maxlength, dtype=largest.dtype), output_size)
    return output_size


def _no_weights(dtype):
    return array_ops.constant([], dtype=dtype)


def _component_weights(weights, kind, same, message, component, fallback_dtype):
    """The flat weights of a ragged/sparse `weights` checked to match arr's structure (TF's
    validate_ragged_weights / validate_sparse_weights)."""
    if weights is None:
        return _no_weights(fallback_dtype)
    RaggedTensor, SparseTensor = _composite_types()
    expected = RaggedTensor if kind == "ragged" else SparseTensor
    if not isinstance(weights, expected):
        if kind == "ragged":
            raise ValueError("`weights` must be a RaggedTensor if `values` is a RaggedTensor. Received argument "
                             f"weights={weights} of type: {type(weights).__name__}.")
        raise ValueError("Argument `weights` must be a SparseTensor if `values` is a SparseTensor. Received "
                         f"weights={weights} of type: {type(weights).__name__}")
    checks = [check_ops.assert_equal(mine, theirs, message=text)
              for mine, theirs, text in zip(component(weights), same, message) if mine is not theirs]
    values = weights.values
    if checks:
        with control_dependency_ops.control_dependencies(checks):
            values = array_ops.identity(values)
    return values


def _ragged_weights(arr, weights, dtype):
    return _component_weights(weights, "ragged", [arr.row_splits],
                              ["'weights' and 'values' must have the same row splits."],
                              lambda w: [w.row_splits], dtype or arr.values.dtype)


def _sparse_weights(arr, weights, dtype):
    return _component_weights(weights, "sparse", [arr.dense_shape, arr.indices],
                              ["'weights' and 'values' must have the same dense shape.",
                               "'weights' and 'values' must have the same indices."],
                              lambda w: [w.dense_shape, w.indices], dtype or arr.values.dtype)


def _dense_weights(arr, weights, dtype):
    return _no_weights(dtype or arr.dtype) if weights is None else weights


def _counts(arr, weights, minlength, maxlength, dtype, axis, binary_output):
    """The dense counts tf.math.bincount returns, for a Tensor, RaggedTensor or SparseTensor."""
    RaggedTensor, SparseTensor = _composite_types()
    if isinstance(arr, SparseTensor):
        if not arr.dtype.is_integer:
            arr = arr.with_values(math_ops.cast(arr.values, dtypes.int32))
        largest = math_ops.maximum(reduction_ops.reduce_max(arr.values), -1)
        output_size = _output_size(arr.values, largest, minlength, maxlength)
        if axis == 0:
            weights = _sparse_weights(arr, weights, dtype) if weights is not None else None
            return ops.DenseBincount(arr.values, output_size, _dense_weights(arr.values, weights, dtype),
                                     binary_output=binary_output)
        return ops.SparseBincount(arr.indices, arr.values, arr.dense_shape, output_size,
                                  _sparse_weights(arr, weights, dtype), binary_output=binary_output)
    if isinstance(arr, RaggedTensor):
        if weights is not None and not isinstance(weights, SparseTensor):
            weights = weights if isinstance(weights, RaggedTensor) else array_ops.convert_to_tensor(weights)
        if not arr.dtype.is_integer:
            arr = arr.with_flat_values(math_ops.cast(arr.flat_values, dtypes.int32))
        output_size = _output_size(arr.flat_values, reduction_ops.reduce_max(arr.flat_values), minlength, maxlength)
        if axis == 0:
            while isinstance(arr, RaggedTensor):
                if weights is not None:
                    weights = _ragged_weights(arr, weights, dtype)
                arr = arr.values
        if isinstance(arr, RaggedTensor):
            return ops.RaggedBincount(arr.row_splits, arr.values, output_size, _ragged_weights(arr, weights, dtype),
                                      binary_output=binary_output)
        return ops.DenseBincount(arr, output_size, _dense_weights(arr, weights, dtype), binary_output=binary_output)
    arr = array_ops.convert_to_tensor(arr)
    if weights is not None:
        weights = array_ops.convert_to_tensor(weights)
    if not arr.dtype.is_integer:
        arr = math_ops.cast(arr, dtypes.int32)
    output_size = _output_size(arr, reduction_ops.reduce_max(arr), minlength, maxlength)
    if axis == 0:
        if weights is not None:
            weights = array_ops.reshape(weights, [-1])
        arr = array_ops.reshape(arr, [-1])
    return ops.DenseBincount(arr, output_size, _dense_weights(arr, weights, dtype), binary_output=binary_output)


@tf_export("math.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """Counts of each value of `arr` (or weight sums), over the whole input (axis 0) or per row
    (axis -1); `arr` may be a Tensor, RaggedTensor or SparseTensor (whose missing zeros are not
    counted)."""
    with name_scope(name or "bincount"):
        axis = _check_arguments(weights, binary_output, axis)
        return _counts(arr, weights, minlength, maxlength, dtype, axis, binary_output)


@tf_export("sparse.bincount")
def sparse_bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False, name=None):
    """tf.math.bincount's counts as a SparseTensor holding the bins some value reached (even when
    their weights sum to 0); int64 indices and dense_shape, values of weights' dtype (else of
    `values`' dtype)."""
    RaggedTensor, SparseTensor = _composite_types()
    with name_scope(name or "count"):
        if not isinstance(values, (RaggedTensor, SparseTensor)):
            values = array_ops.convert_to_tensor(values)
        if weights is not None and not isinstance(weights, (RaggedTensor, SparseTensor)):
            weights = array_ops.convert_to_tensor(weights)
        axis = _check_arguments(weights, binary_output, axis)
        dtype = weights.dtype if weights is not None else values.dtype
        counts = _counts(values, weights, minlength, maxlength, dtype, axis, binary_output)
        reached = _counts(values, None, minlength, maxlength, dtypes.int32, axis, True)
        indices = array_ops.where(math_ops.greater(reached, 0))
        return SparseTensor(indices, ops.GatherNd(counts, indices),
                            math_ops.cast(array_ops.shape(counts), dtypes.int64))
