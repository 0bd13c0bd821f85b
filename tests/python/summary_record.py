"""Records the summary fixtures from TF 2.21 (TensorBoard must be importable, e.g. installed
with `pip install --target DIR tensorboard==2.21.0` and DIR on PYTHONPATH):
    PYTHONPATH=DIR ~/tf/bin/python tests/python/summary_record.py
writes summary_fixtures/tf_eager.tfevents and tf_function.tfevents (TF's event files for
summary_cases.py, renamed). With `--check DIR`, reads the event files graphfn wrote in DIR with
TF's summary_iterator and TensorBoard's EventAccumulator and prints what they hold."""

import glob
import os
import shutil
import sys
import tempfile

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import summary_cases  # noqa: E402


def record(name, write):
    logdir = tempfile.mkdtemp()
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default():
        write()
    writer.close()
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    shutil.copy(path, os.path.join(HERE, "summary_fixtures", name))


def check(logdir):
    from tensorboard.backend.event_processing import event_accumulator
    for path in sorted(glob.glob(os.path.join(logdir, "**", "events.out.tfevents.*"), recursive=True)):
        count = sum(1 for _ in tf.compat.v1.train.summary_iterator(path))
        print(path, count, "events")
    accumulator = event_accumulator.EventAccumulator(logdir, size_guidance={"tensors": 0})
    accumulator.Reload()
    for tag in accumulator.Tags()["tensors"]:
        events = accumulator.Tensors(tag)
        print(tag, [(e.step, tf.make_ndarray(e.tensor_proto).shape) for e in events])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        check(sys.argv[2])
    else:
        record("tf_eager.tfevents",
               lambda: summary_cases.write_eager_summaries(tf, tf.compat.v1.SummaryMetadata))
        record("tf_function.tfevents", lambda: summary_cases.write_function_summaries(tf))
