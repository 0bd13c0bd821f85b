"""Softmax and the softmax cross-entropy losses (tf.nn.*). The C++ ops work on the last
dimension of 2-D (losses) or any-rank (softmax) inputs; these wrappers move `axis` last and
flatten outer dimensions, as TF's do."""

from graphfn.framework import errors
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export


def _swap_with_last(x, axis, rank):
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return ops.Transpose(x, perm)


def _softmax(op_type, logits, axis, name):
    logits = array_ops.convert_to_tensor(logits)
    if axis is None:
        axis = -1
    rank = logits.shape.rank
    if axis == -1 or rank is None or axis == rank - 1:
        return node(op_type, name)(logits)
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            None, None, "`dim` must be in the range [%d, %d) where %d is the number of dimensions in the input. "
            "Received: dim=%d" % (-rank, rank, rank, axis))
    axis %= rank
    return _swap_with_last(node(op_type, name)(_swap_with_last(logits, axis, rank)), axis, rank)


@tf_export("nn.softmax", "math.softmax")
def softmax(logits, axis=None, name=None):
    return _softmax("Softmax", logits, axis, name)


@tf_export("nn.log_softmax", "math.log_softmax")
def log_softmax(logits, axis=None, name=None):
    return _softmax("LogSoftmax", logits, axis, name)


@tf_export("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    labels = array_ops.convert_to_tensor(labels)
    logits = array_ops.convert_to_tensor(logits)
    labels_shape, logits_shape = TensorShape(labels.shape), TensorShape(logits.shape)
    if labels_shape.rank is not None and logits_shape.rank is not None:
        if labels_shape.rank != logits_shape.rank - 1:
            raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=%s of "
                             "rank %d and logits.shape=%s of rank %d" % (labels_shape, labels_shape.rank,
                                                                         logits_shape, logits_shape.rank))
        if not labels_shape.is_compatible_with(logits_shape[:-1]):
            raise ValueError("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                             "labels.shape=%s and logits.shape=%s" % (labels_shape, logits_shape))
    if logits_shape.rank == 2:
        return ops.SparseSoftmaxCrossEntropyWithLogits(logits, labels)[0]
    flat_logits = ops.Reshape(logits, ops.Pack([-1, ops.Shape(logits)[-1]]))
    loss = ops.SparseSoftmaxCrossEntropyWithLogits(flat_logits, ops.Reshape(labels, [-1]))[0]
    return ops.Reshape(loss, ops.Shape(labels))


@tf_export("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    logits = array_ops.convert_to_tensor(logits)
    labels = ops.Cast(array_ops.convert_to_tensor(labels), DstT=logits.dtype)
    rank = logits.shape.rank
    if rank is not None and axis != -1 and axis % rank != rank - 1:
        logits = _swap_with_last(logits, axis % rank, rank)
        labels = _swap_with_last(labels, axis % rank, rank)
    if rank == 2:
        return ops.SoftmaxCrossEntropyWithLogits(logits, labels)[0]
    shape = ops.Shape(logits)
    last = shape[-1]
    loss = ops.SoftmaxCrossEntropyWithLogits(ops.Reshape(logits, ops.Pack([-1, last])),
                                             ops.Reshape(labels, ops.Pack([-1, ops.Shape(labels)[-1]])))[0]
    return ops.Reshape(loss, shape[:-1])
