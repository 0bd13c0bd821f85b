"""float16/bfloat16 convolutions, pooling, batch norm and softmax give the same bits with one
intra-op thread and with three (they widen to float and run the threaded float kernels; softmax
splits rows). Odd sizes, so shards end mid-row."""

import numpy as np

from thread_count_runs import run_with_threads

_SCRIPT = r'''
import sys
import numpy as np
import graphfn as tf

rng = np.random.default_rng(7)
out = {}
for name in ("float16", "bfloat16"):
    dt = getattr(tf, name)
    x = tf.constant(rng.standard_normal((2, 23, 19, 5)).astype(np.float32), dt)
    w = tf.constant(rng.standard_normal((3, 3, 5, 7)).astype(np.float32), dt)
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, 1, "SAME")
        loss = tf.reduce_sum(tf.nn.avg_pool2d(tf.nn.relu6(y), 3, 2, "SAME"))
    dx, dw = tape.gradient(loss, [x, w])
    bn = tf.raw_ops.FusedBatchNormV3(x=x, scale=tf.ones([5]), offset=tf.zeros([5]), mean=[], variance=[], is_training=True)
    logits = tf.constant(rng.standard_normal((301, 37)).astype(np.float32), dt)
    for key, t in [("conv", y), ("dx", dx), ("dw", dw), ("max_pool", tf.nn.max_pool2d(x, 3, 2, "VALID")),
                   ("bn", bn[0]), ("bn_var", bn[2]), ("softmax", tf.nn.softmax(logits)),
                   ("log_softmax", tf.nn.log_softmax(logits))]:
        out["%s_%s" % (key, name)] = np.asarray(tf.cast(t, tf.float32).numpy())
np.savez(sys.argv[1], **out)
'''


def test_one_thread_and_three_threads_give_the_same_bits(tmp_path):
    one = run_with_threads(_SCRIPT, tmp_path, 1)
    three = run_with_threads(_SCRIPT, tmp_path, 3)
    assert sorted(one.files) == sorted(three.files)
    for name in one.files:
        np.testing.assert_array_equal(one[name], three[name], err_msg=name)
