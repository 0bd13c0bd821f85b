"""tf.IndexedSlices: rows of a tensor (`values`) with their row numbers (`indices`) in a tensor of
`dense_shape`; what Variable.scatter_update and friends take. graphfn's gradients are dense, so
no op produces one. tf.convert_to_tensor makes it dense (duplicate rows summed), as TF's
(ops/array_ops.py)."""

from graphfn.framework.tensor_shape import TensorShape
from graphfn.util.tf_export import tf_export


# tf.convert_to_tensor's dense tensor of a slice (ops/array_ops.py sets it: this layer cannot
# import the ops).
dense_conversion = None


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
        return dense_conversion(self, dtype)

    @property
    def shape(self):
        if self._dense_shape is None:
            return TensorShape(None)
        return TensorShape([int(d) for d in self._dense_shape])
