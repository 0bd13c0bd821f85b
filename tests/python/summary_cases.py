"""The summaries test_summary.py writes with graphfn and summary_record.py writes with TF 2.21
(TensorBoard importable): one program, run on either, so the event files can be compared event
by event. `tf` is graphfn or tensorflow."""

import numpy as np


def image_inputs():
    ramp = np.linspace(0.0, 1.0, 2 * 3 * 4 * 3, dtype=np.float32).reshape(2, 3, 4, 3)
    gray = (np.arange(3 * 2 * 2, dtype=np.uint8) * 20).reshape(3, 2, 2, 1)
    rgba = np.stack([np.full((2, 2), v, np.float32) for v in (0.0, 0.25, 0.5, 1.25)], -1)[None]
    return ramp, gray, rgba


def audio_inputs():
    t = np.arange(16, dtype=np.float32) / 16
    mono = np.stack([np.sin(2 * np.pi * t), 1.5 * np.cos(2 * np.pi * t)])[:, :, None]
    stereo = np.stack([t - 0.5, -t], -1)[None]
    return mono.astype(np.float32), stereo.astype(np.float32)


def write_eager_summaries(tf, metadata_class):
    """Summaries written eagerly; the default writer must be set."""
    tf.summary.scalar("loss", 0.5, step=3)
    tf.summary.scalar("int_scalar", 7, step=4, description="an int")
    tf.summary.histogram("h", [1.0, 2.0, 2.0, 5.0], step=1)
    tf.summary.histogram("h_buckets", np.linspace(-1.0, 3.0, 50) ** 2, step=2, buckets=7)
    tf.summary.histogram("h_same", [3.0, 3.0, 3.0], step=3)
    tf.summary.histogram("h_empty", np.zeros([0], np.float32), step=4)
    tf.summary.histogram("h_no_buckets", [1.0, 2.0], step=5, buckets=0)
    tf.summary.histogram("h_int", np.array([[1, 5], [9, 100]], np.int32), step=6)
    tf.summary.text("t", "hello", step=2)
    tf.summary.text("t2", [["a", "b"], ["c", "d"]], step=3)
    ramp, gray, rgba = image_inputs()
    tf.summary.image("img", ramp, step=0, max_outputs=1)
    tf.summary.image("img_gray", gray, step=1)
    tf.summary.image("img_rgba", rgba, step=2, max_outputs=5)
    mono, stereo = audio_inputs()
    tf.summary.audio("a", mono, 8000, step=1, max_outputs=1)
    tf.summary.audio("a_stereo", stereo, 16000, step=2)
    tf.summary.write("w", [1, 2], step=5)
    metadata = metadata_class()
    metadata.plugin_data.plugin_name = "custom"
    metadata.plugin_data.content = b"x"
    tf.summary.write("w_meta", "str", step=6, metadata=metadata)
    with tf.name_scope("sc"):
        tf.summary.scalar("inscope", 2.0, step=7)
    with tf.summary.record_if(False):
        tf.summary.scalar("not_recorded", 1.0, step=8)
    with tf.summary.record_if(lambda: True):
        tf.summary.scalar("recorded", 1.0, step=8)
    tf.summary.experimental.set_step(9)
    tf.summary.scalar("default_step", 1.0)
    tf.summary.experimental.set_step(None)


def write_function_summaries(tf):
    """Summaries written by a tf.function, called three times with a tf.Variable step."""
    step = tf.Variable(10, dtype=tf.int64)

    @tf.function
    def train_step(x):
        tf.summary.scalar("fn_scalar", x, step=step)
        tf.summary.histogram("fn_hist", tf.stack([x, 2.0 * x, 4.0]), step=step, buckets=3)
        with tf.summary.record_if(step % 2 == 0):
            tf.summary.scalar("fn_even_steps", x * 10.0, step=step)
        step.assign_add(1)
        return x

    for value in (1.0, 2.0, 3.0):
        train_step(tf.constant(value))
