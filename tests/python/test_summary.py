"""tf.summary: event files written by graphfn compared with the ones TF 2.21 wrote for the same
calls (summary_fixtures/*.tfevents, recorded by summary_record.py from summary_cases.py: each
Summary must be byte-identical, PNG and WAV payloads included), TF's fixture files read by
graphfn's summary_iterator, and TF's behaviour and error texts (recorded from TF 2.21 with
TensorBoard installed)."""

import glob
import os
import re
import subprocess
import sys
import threading

import numpy as np
import pytest

import graphfn as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import summary_cases  # noqa: E402

FIXTURES = os.path.join(HERE, "summary_fixtures")


def event_file(logdir):
    (path,) = glob.glob(os.path.join(str(logdir), "events.out.tfevents.*"))
    return path


def events(path):
    return list(tf.compat.v1.train.summary_iterator(path))


def write_with_graphfn(logdir, write):
    writer = tf.summary.create_file_writer(str(logdir))
    with writer.as_default():
        write()
    writer.close()
    return events(event_file(logdir))


@pytest.mark.parametrize("fixture, write", [
    ("tf_eager.tfevents", lambda: summary_cases.write_eager_summaries(tf, tf.compat.v1.SummaryMetadata)),
    ("tf_function.tfevents", lambda: summary_cases.write_function_summaries(tf)),
])
def test_events_are_the_ones_tf_writes(tmp_path, fixture, write):
    got = write_with_graphfn(tmp_path, write)
    expected = events(os.path.join(FIXTURES, fixture))
    assert len(got) == len(expected)
    assert got[0].file_version == expected[0].file_version == "brain.Event:2"
    assert got[0].source_metadata.writer == expected[0].source_metadata.writer
    for mine, tfs in zip(got[1:], expected[1:]):
        assert (mine.step, [v.tag for v in mine.summary.value]) == (tfs.step, [v.tag for v in tfs.summary.value])
        assert mine.summary.SerializeToString() == tfs.summary.SerializeToString(), tfs.summary.value[0].tag


def test_reads_tf_event_file():
    by_tag = {e.summary.value[0].tag: e for e in events(os.path.join(FIXTURES, "tf_eager.tfevents"))[1:]}
    loss = by_tag["loss"].summary.value[0]
    assert (by_tag["loss"].step, loss.metadata.plugin_data.plugin_name) == (3, "scalars")
    assert np.frombuffer(loss.tensor.tensor_content, "<f4").tolist() == [0.5]
    assert by_tag["int_scalar"].summary.value[0].metadata.summary_description == "an int"
    histogram = by_tag["h"].summary.value[0]
    assert histogram.metadata.plugin_data.plugin_name == "histograms"
    buckets = np.frombuffer(histogram.tensor.tensor_content, "<f8").reshape(30, 3)
    # [1, 2, 2, 5] in 30 buckets of width 4/30: 1 in the first, 2 in the eighth, 5 in the last
    assert buckets[:, 2].nonzero()[0].tolist() == [0, 7, 29]
    assert buckets[:, 2][[0, 7, 29]].tolist() == [1.0, 2.0, 1.0]
    assert buckets[0, 0] == 1.0 and buckets[-1, 1] == 5.0
    text = by_tag["t2"].summary.value[0]
    assert (text.metadata.plugin_data.plugin_name, list(text.tensor.string_val)) == ("text", [b"a", b"b", b"c", b"d"])
    image = by_tag["img_gray"].summary.value[0]
    assert image.metadata.plugin_data.plugin_name == "images"
    assert list(image.tensor.string_val[:2]) == [b"2", b"2"] and len(image.tensor.string_val) == 5
    decoded = tf.io.decode_png(image.tensor.string_val[2]).numpy()
    assert decoded[:, :, 0].tolist() == [[0, 20], [40, 60]]
    audio = by_tag["a"].summary.value[0]
    assert (audio.metadata.plugin_data.plugin_name, audio.metadata.plugin_data.content) == ("audio", b"\x10\x0b")
    assert by_tag["w_meta"].summary.value[0].metadata.plugin_data.content == b"x"
    assert "not_recorded" not in by_tag
    assert by_tag["sc/inscope"].step == 7 and by_tag["default_step"].step == 9


def test_histogram_buckets_match_tf_fixture():
    from graphfn.summaries import plugins as summary_plugins
    by_tag = {e.summary.value[0].tag: e.summary.value[0] for e in events(os.path.join(FIXTURES, "tf_eager.tfevents"))[1:]}
    data = np.linspace(-1.0, 3.0, 50) ** 2
    expected = np.frombuffer(by_tag["h_buckets"].tensor.tensor_content, "<f8").reshape(7, 3)
    np.testing.assert_array_equal(summary_plugins.histogram_buckets(data, 7), expected)
    assert expected[:, 2].sum() == 50


def test_file_name_and_directory(tmp_path):
    logdir = tmp_path / "a" / "b"
    writer = tf.summary.create_file_writer(str(logdir), filename_suffix=".abc")
    name = os.path.basename(event_file(logdir))  # made at creation, directories included
    import socket
    assert re.fullmatch(r"events\.out\.tfevents\.\d{10}\.%s\.%d\.\d+\.abc" % (re.escape(socket.gethostname()), os.getpid()),
                        name), name
    writer.close()
    default = tf.summary.create_file_writer(str(tmp_path / "c"))
    assert event_file(tmp_path / "c").endswith(".v2")
    default.close()
    with pytest.raises(ValueError, match="Argument `logdir` cannot be None"):
        tf.summary.create_file_writer(None)


def test_no_default_writer_returns_false():
    assert tf.summary.scalar("x", 1.0, step=1).numpy() is np.False_
    assert not tf.summary.histogram("h", [1.0], step=1).numpy()
    assert not tf.summary.text("t", "a", step=1).numpy()
    assert not tf.summary.image("i", np.zeros((2, 2)), step=1).numpy()  # no writer: not checked
    assert not tf.summary.audio("a", np.zeros((1, 2, 1)), 8000, step=1).numpy()
    assert not tf.summary.write("w", 1, step=1).numpy()
    assert not tf.summary.scalar("no_step", 1.0).numpy()  # no writer: no step needed
    assert not tf.summary.should_record_summaries().numpy()
    with tf.summary.create_noop_writer().as_default():
        assert not tf.summary.scalar("x", 1.0, step=1).numpy()
        assert not tf.summary.should_record_summaries().numpy()


def test_step_and_recording_state(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert isinstance(writer, tf.summary.SummaryWriter)
    with writer.as_default():
        assert tf.summary.should_record_summaries().numpy()
        with pytest.raises(ValueError, match=re.escape(
                "No step set. Please specify one either through the `step` argument or through "
                "tf.summary.experimental.set_step()")):
            tf.summary.scalar("x", 1.0)
        with tf.summary.record_if(False):
            assert not tf.summary.should_record_summaries().numpy()
            assert not tf.summary.scalar("x", 1.0).numpy()  # not recorded: no step needed
        assert tf.summary.scalar("x", 1.0, step=0).numpy()
    with writer.as_default(step=4):
        assert tf.summary.experimental.get_step() == 4
        assert tf.summary.scalar("y", 1.0).numpy()
    assert tf.summary.experimental.get_step() is None
    writer.close()
    assert [(e.step, e.summary.value[0].tag) for e in events(event_file(tmp_path))[1:]] == [(0, "x"), (4, "y")]
    with pytest.raises(RuntimeError, match="is already closed"):
        writer.as_default()


def test_errors_are_tfs(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    for use_writer in (False, True):
        context = writer.as_default() if use_writer else tf.summary.create_noop_writer().as_default()
        with context:
            with pytest.raises(ValueError, match=re.escape("Expected scalar shape, saw shape: (2,).")):
                tf.summary.scalar("x", [1.0, 2.0], step=1)
            with pytest.raises(TypeError, match="tensor must be of type tf.string; got tf.float32"):
                tf.summary.text("t", 1.0, step=1)
            with pytest.raises(ValueError, match="Unknown encoding: 'mp3'"):
                tf.summary.audio("a", np.zeros((1, 2, 1)), 8000, step=1, encoding="mp3")
    with writer.as_default():
        with pytest.raises(ValueError, match=re.escape("Tensor  must have rank 4.  Received rank 2, shape (2, 2)")):
            tf.summary.image("i", np.zeros((2, 2)), step=1)
        with pytest.raises(TypeError, match="tensor must be of type tf.int32; got tf.float32"):
            tf.summary.histogram("h", [1.0, 2.0], step=1, buckets=2.5)
    writer.close()


def test_queue_is_written_on_flush(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=100, flush_millis=10 ** 7)
    path = event_file(tmp_path)
    with writer.as_default():
        tf.summary.scalar("x", 1.0, step=1)
        assert len(events(path)) == 1  # only file_version: the summary is queued
        tf.summary.flush()
        assert len(events(path)) == 2
        tf.summary.scalar("x", 2.0, step=2)
    assert len(events(path)) == 3  # leaving as_default flushes
    small = tf.summary.create_file_writer(str(tmp_path / "small"), max_queue=1, flush_millis=10 ** 7)
    with small.as_default():
        tf.summary.scalar("x", 1.0, step=1)
        tf.summary.scalar("x", 2.0, step=2)
        assert len(events(event_file(tmp_path / "small"))) == 3  # more than max_queue queued: written
    writer.close()
    small.close()


def test_summaries_in_function_write_on_each_call_and_flush(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), flush_millis=10 ** 7)

    @tf.function
    def log(x, step):
        with writer.as_default():
            tf.summary.scalar("v", x, step=step)
        return x

    for i in range(3):
        log(tf.constant(float(i)), tf.constant(i, tf.int64))
        assert len(events(event_file(tmp_path))) == 2 + i  # as_default's exit flushes on each call
    writer.close()


def test_writer_is_shared_by_threads(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path), max_queue=3)

    def worker(index):
        with writer.as_default():
            for step in range(20):
                tf.summary.scalar("thread_%d" % index, float(step), step=step)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    writer.close()
    written = [(e.summary.value[0].tag, e.step) for e in events(event_file(tmp_path))[1:]]
    assert sorted(written) == sorted(("thread_%d" % i, s) for i in range(4) for s in range(20))


def test_trace_export_writes_the_called_functions_graphs(tmp_path):
    from graphfn.summaries import event_pb as summary_pb

    @tf.function
    def double(x):
        return x * 2.0

    double(tf.constant(0.0))  # cached before tracing starts: the call must still be seen
    writer = tf.summary.create_file_writer(str(tmp_path))
    tf.summary.trace_on(graph=True, profiler=False)
    double(tf.constant(1.0))
    double(tf.constant(2.0))
    with writer.as_default():
        assert tf.summary.trace_export("my_trace", step=0) is None
        with pytest.raises(ValueError, match=re.escape("Must enable trace before export through tf.summary.trace_on.")):
            tf.summary.trace_export("again", step=1)
        assert tf.summary.graph(double.get_concrete_function(tf.constant(1.0)).graph).numpy()
        with pytest.raises(ValueError, match="is not tf.Graph or tf.compat.v1.GraphDef"):
            tf.summary.graph("not a graph")
    writer.close()
    trace, graph = events(event_file(tmp_path))[1:]
    value = trace.summary.value[0]
    assert (trace.step, value.tag, value.metadata.plugin_data.plugin_name, value.metadata.plugin_data.content) == \
        (0, "my_trace", "graph_run_metadata_graph", b"1")
    assert value.tensor.dtype == 7 and not value.tensor.tensor_shape.dim
    run_metadata = summary_pb.RunMetadata.FromString(value.tensor.string_val[0])
    assert len(run_metadata.function_graphs) == 1
    graph_def = summary_pb.GraphDef.FromString(run_metadata.function_graphs[0].pre_optimization_graph)
    assert [n.op for n in graph_def.node] == ["Placeholder", "Const", "Mul", "Identity"]
    assert [n.name for n in summary_pb.GraphDef.FromString(graph.graph_def).node] == ["x", "mul/y", "mul", "Identity"]
    assert graph.step == 0


def test_import_graphfn_loads_no_summary_module():
    code = ("import sys, graphfn; print(any(m.startswith('graphfn.summaries.') and m != 'graphfn.summaries.names' "
            "for m in sys.modules), 'google.protobuf' in sys.modules); graphfn.summary.scalar; "
            "print('graphfn.summaries.plugins' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(tf.__file__)))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "True"]


def test_set_as_default_init_and_raw_summaries(tmp_path):
    from graphfn.summaries import state as summary_state
    writer = tf.summary.create_file_writer(str(tmp_path))
    writer.init()  # already made: nothing more
    writer.set_as_default(step=3)
    try:
        raw = tf.compat.v1.Summary()
        raw.value.add(tag="raw", simple_value=1.5)
        assert tf.summary.experimental.write_raw_pb(raw.SerializeToString()).numpy()
        with tf.summary.experimental.summary_scope("my name!", "default") as (tag, scope):
            assert (tag, scope) == ("my name!", "myname/")
    finally:
        summary_state.set_step(None)
        summary_state._state.writer = None
    writer.close()
    (event,) = events(event_file(tmp_path))[1:]
    assert (event.step, event.summary.value[0].tag, event.summary.value[0].simple_value) == (3, "raw", 1.5)
