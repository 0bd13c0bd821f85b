"""TF 2.21 functions that TensorFlow writes in Python on top of other ops and that Keras's
TensorFlow backend calls: tf.math.log_sigmoid, tf.math.logical_xor, tf.nn.conv_transpose,
tf.nn.experimental.stateless_dropout, tf.signal.inverse_stft_window_fn, tf.nn.embedding_lookup_sparse (Keras's
sparse x dense matmul). Each builds the same ops as TF's (so graphs look alike), embedding_lookup_sparse the
same values."""

from collections import abc

from graphfn.framework.name_scope import name_scope
from graphfn.framework.tensor import Tensor
from graphfn.framework import dtypes
from graphfn.ops import (array_ops, math_cwise, math_ops, nn_conv, nn_misc, reduction_ops, segment_ops, shape_index, signal,
                         sparse_segment, stateless_random_ops)
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export


@tf_export("math.log_sigmoid")
def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))) computed as -softplus(-x), which stays finite for large |x|."""
    with name_scope(name or "LogSigmoid") as scope:
        x = array_ops.convert_to_tensor(x, name="x")
        return node("Neg", scope)(ops.Softplus(ops.Neg(x)))


@tf_export("math.logical_xor")
def logical_xor(x, y, name="LogicalXor"):
    """(x or y) and not (x and y), element-wise with broadcasting, on booleans."""
    return node("LogicalAnd", name)(ops.LogicalOr(x, y), ops.LogicalNot(ops.LogicalAnd(x, y)))


_TRANSPOSE_BY_RANK = {1: nn_conv.conv1d_transpose, 2: nn_conv.conv2d_transpose, 3: nn_conv.conv3d_transpose}


@tf_export("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """conv1d/2d/3d_transpose, picked by the length of output_shape (3, 4 or 5)."""
    with name_scope(name or "conv_transpose") as scope:
        if isinstance(output_shape, Tensor):
            spatial_rank = output_shape.shape[0] - 2 if output_shape.shape.rank == 1 and \
                output_shape.shape[0] is not None else None
        elif isinstance(output_shape, abc.Sized):
            spatial_rank = len(output_shape) - 2
        else:
            raise ValueError("`output_shape` must be a tensor or sized collection. Received: output_shape=%s"
                             % (output_shape,))
        if spatial_rank not in _TRANSPOSE_BY_RANK:
            raise ValueError("`output_shape` must be of length 3, 4 or 5. Received: output_shape=%s of length %s."
                             % (output_shape, None if spatial_rank is None else spatial_rank + 2))
        transpose = _TRANSPOSE_BY_RANK[spatial_rank]
        if data_format is None:  # each function's own default (NWC, NHWC, NDHWC)
            return transpose(input, filters, output_shape, strides, padding=padding, dilations=dilations,
                             name=scope)
        return transpose(input, filters, output_shape, strides, padding=padding, data_format=data_format,
                         dilations=dilations, name=scope)


@tf_export("nn.experimental.stateless_dropout")
def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """tf.nn.dropout with its noise from tf.random.stateless_uniform(seed): the same seed gives the
    same mask."""
    def sample(shape, dtype):
        return stateless_random_ops.stateless_random_uniform(shape, seed=seed, dtype=dtype,
                                                             alg=rng_alg or "auto_select")

    return nn_misc.dropout_with_sampler(x, rate, noise_shape, sample, lambda: None, name or "stateless_dropout")


@tf_export("signal.inverse_stft_window_fn")
def inverse_stft_window_fn(frame_step, forward_window_fn=signal.hann_window, name=None):
    """A window function for tf.signal.inverse_stft that undoes forward_window_fn's stft: the
    forward window divided by the sum of the squared windows overlapping each sample (Griffin and
    Lim's least-squares inverse)."""
    def window(frame_length, dtype):
        with name_scope(name or "inverse_stft_window_fn"):
            step = array_ops.convert_to_tensor(frame_step, name="frame_step")
            step.shape.assert_has_rank(0)
            length = array_ops.convert_to_tensor(frame_length, name="frame_length")
            length.shape.assert_has_rank(0)
            forward = forward_window_fn(length, dtype=dtype)
            overlaps = -(-length // step)  # frames that cover one sample: ceil(length / step)
            squares = shape_index.pad(math_ops.square(forward), [[0, overlaps * step - length]])
            # Row i holds the squared window's samples i*step ... i*step+step-1; summing the rows
            # gives, per position within a step, the total weight of all overlapping frames.
            per_offset = reduction_ops.reduce_sum(array_ops.reshape(squares, [overlaps, step]), 0, keepdims=True)
            denominator = array_ops.reshape(shape_index.tile(per_offset, [overlaps, 1]), [overlaps * step])[:length]
            # Samples no frame weighs (a window that is 0 there) come out 0, not 0/0.
            return array_ops.where(math_ops.equal(denominator, 0.0), array_ops.zeros_like(forward),
                                   forward / denominator)

    return window


_COMBINERS = ("mean", "sqrtn", "sum")


@tf_export("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None, name=None,
                            allow_fast_lookup=False):
    """Row r of the result combines the rows of `params` that row r of `sp_ids` names, weighted by
    `sp_weights` (the same indices) or by 1: their weighted sum ("sum"), that sum over the sum of the
    weights ("mean", the default) or over the root of the sum of their squares ("sqrtn"); 0 for a row
    whose weights sum to 0. The result has one row per row index up to the largest one present (TF's
    segment sums), so empty rows at the end are left out."""
    from graphfn.ops.sparse_tensor import SparseTensor  # (imports this package's ops)

    if combiner is None:
        combiner = "mean"
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
    with name_scope(name or "embedding_lookup_sparse"):
        segment_ids = math_ops.cast(sp_ids.indices[:, 0], dtypes.int32)
        rows = nn_misc.embedding_lookup(params, sp_ids.values, max_norm=max_norm)
        if sp_weights is None:
            positions = array_ops.range_(array_ops.shape(rows)[0])
            combine = {"sum": sparse_segment.sparse_segment_sum, "mean": sparse_segment.sparse_segment_mean,
                       "sqrtn": sparse_segment.sparse_segment_sqrt_n}[combiner]
            return combine(rows, positions, segment_ids)
        result_dtype = rows.dtype
        if rows.dtype in (dtypes.float16, dtypes.bfloat16):  # summed in float32, as TF
            rows = math_ops.cast(rows, dtypes.float32)
        weights = math_ops.cast(sp_weights.values, rows.dtype)
        # The weights as a column: [nnz, 1, ...] against rows of [nnz, d, ...].
        weights = array_ops.reshape(weights, array_ops.concat(
            [array_ops.shape(weights), array_ops.ones([array_ops.rank(rows) - 1], dtypes.int32)], 0))
        total = segment_ops.segment_sum(rows * weights, segment_ids)
        if combiner == "mean":
            total = math_cwise.divide_no_nan(total, segment_ops.segment_sum(weights, segment_ids))
        elif combiner == "sqrtn":
            total = math_cwise.divide_no_nan(total, math_ops.sqrt(segment_ops.segment_sum(weights * weights,
                                                                                          segment_ids)))
        return math_ops.cast(total, result_dtype) if total.dtype != result_dtype else total
