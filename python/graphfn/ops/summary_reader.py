"""tf.compat.v1.train.summary_iterator: the Event protos of a TensorBoard event file (written by
graphfn or by TensorFlow), read through the TFRecord reader (a damaged file: DataLossError)."""

from graphfn.file_io import tf_record
from graphfn.ops import summary_pb


def summary_iterator(path):
    """Yields the Events of the event file `path`, in order."""
    for record in tf_record.tf_record_iterator(path):
        yield summary_pb.Event.FromString(record)
