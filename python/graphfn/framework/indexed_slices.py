"""tf.IndexedSlices: rows of a tensor (`values`) with their row numbers (`indices`) in a tensor of
`dense_shape`; what Variable.scatter_update and friends take. graphfn's gradients are dense, so
no op produces one. tf.convert_to_tensor makes it dense (duplicate rows summed), as TF's."""

from graphfn.framework.tensor_shape import TensorShape
from graphfn.util.tf_export import tf_export


@tf_export("IndexedSlices")
class IndexedSlices:
    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    def __tf_tensor__(self, dtype=None, name=None):
        """The dense tensor (tf.convert_to_tensor): rows with the same index are summed, as TF's
        conversion does; a slice without dense_shape cannot be converted (TF's ValueError)."""
        from graphfn.ops import array_ops  # (imports this module's package)
        from graphfn.ops._op_table import ops

        if self._dense_shape is None:
            raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` without dense_shape: "
                             "%r" % (self,))
        values = array_ops.convert_to_tensor(self._values, dtype=dtype)
        dense_shape = array_ops.convert_to_tensor(self._dense_shape)
        rows = ops.UnsortedSegmentSum(values, array_ops.convert_to_tensor(self._indices), dense_shape[0])
        return array_ops.reshape(rows, dense_shape)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in self._dense_shape])
