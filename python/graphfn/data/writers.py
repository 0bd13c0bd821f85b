"""tf.data.experimental.TFRecordWriter: writes a dataset of scalar strings to a TFRecord file
(TF's own deprecated API; tf.io.TFRecordWriter writes record by record)."""

from graphfn.data.dataset_ops import DatasetV2
from graphfn.file_io import tf_record
from graphfn.framework import dtypes
from graphfn.framework.tensor_spec import TensorSpec
from graphfn.util.tf_export import tf_export


@tf_export("data.experimental.TFRecordWriter")
class TFRecordWriter:
    """`TFRecordWriter(filename, compression_type=None).write(dataset)` writes each element of a
    dataset of scalar `tf.string`s as one record (compression '', 'ZLIB' or 'GZIP')."""

    def __init__(self, filename, compression_type=None):
        self._filename = filename
        self._compression_type = compression_type

    def write(self, dataset):
        if not isinstance(dataset, DatasetV2):
            raise TypeError("Invalid `dataset.` Expected a `tf.data.Dataset` object but got %s." % type(dataset))
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.string and spec.shape.rank == 0):
            shapes = getattr(spec, "shape", None)
            types = getattr(spec, "dtype", None)
            raise TypeError("Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, but "
                            "got a dataset which produces elements with shapes %s and types %s." % (shapes, types))
        with tf_record.TFRecordWriter(self._filename, self._compression_type) as writer:
            for record in dataset:
                writer.write(record.numpy())
