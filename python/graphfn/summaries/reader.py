"""tf.compat.v1.train.summary_iterator: the Event protos of a TensorBoard event file (written by
graphfn or by TensorFlow), read through the TFRecord reader (a damaged file: DataLossError)."""

from graphfn.file_io import tf_record
from graphfn.summaries import event_pb


def summary_iterator(path):
    """Yields the Events of the event file `path`, in order."""
    for record in tf_record.tf_record_iterator(path):
        yield event_pb.Event.FromString(record)
