"""Several Python threads running threaded kernels at once (matmul, conv2d and its gradients,
reduce_sum, softmax, tanh over tensors above the pool's thresholds) while other threads call
tf.config.threading's getters: every result equals the one computed alone, bit for bit, and
nothing hangs or crashes. Runs in a fresh interpreter with a 3-thread intra-op pool (set through tf.config.threading) (more
shards than this machine's cores). The same script is the Python part of the sanitizer check
(docs/fuzzing.md)."""

import subprocess
import sys
import textwrap

_SCRIPT = textwrap.dedent('''
    import threading
    import numpy as np
    import graphfn as tf

    tf.config.threading.set_intra_op_parallelism_threads(3)
    rng = np.random.RandomState(3)
    def data(*shape):
        return tf.constant(rng.standard_normal(shape).astype(np.float32))

    a, b = data(301, 257), data(257, 203)
    batch_a, batch_b = data(9, 61, 67), data(9, 67, 59)
    images, kernel = data(5, 29, 31, 7), data(3, 3, 7, 11)
    big = data(1000003)
    rows = data(301, 4001)

    def conv_grads():
        with tf.GradientTape() as tape:
            tape.watch([images, kernel])
            loss = tf.reduce_sum(tf.nn.conv2d(images, kernel, strides=1, padding="SAME") ** 2)
        return tape.gradient(loss, [images, kernel])

    cases = {
        "matmul": lambda: tf.matmul(a, b),
        "batched matmul": lambda: tf.matmul(batch_a, batch_b),
        "conv2d": lambda: tf.nn.conv2d(images, kernel, strides=[1, 2, 1, 1], padding="VALID"),
        "conv2d grads": conv_grads,
        "max_pool": lambda: tf.nn.max_pool2d(images, 3, 2, "SAME"),
        "reduce_sum": lambda: tf.reduce_sum(rows, axis=1),
        "reduce_sum all": lambda: tf.reduce_sum(big),
        "softmax": lambda: tf.nn.softmax(rows),
        "tanh": lambda: tf.tanh(big),
        "cast": lambda: tf.cast(big * 100, tf.int32),
    }
    def run(f):
        out = f()
        return [t.numpy() for t in out] if isinstance(out, list) else [out.numpy()]
    expected = {name: run(f) for name, f in cases.items()}

    errors, stop = [], threading.Event()
    def kernels(seed):
        order = list(cases)
        np.random.RandomState(seed).shuffle(order)
        try:
            for _ in range(3):
                for name in order:
                    got = run(cases[name])
                    if any(g.tobytes() != e.tobytes() for g, e in zip(got, expected[name])):
                        errors.append("%s differs" % name)
        except Exception as e:  # a kernel error is a finding too
            errors.append(repr(e))

    def getters():
        while not stop.is_set():
            if tf.config.threading.get_intra_op_parallelism_threads() != 3:
                errors.append("intra-op threads changed")
            tf.config.threading.get_inter_op_parallelism_threads()

    watchers = [threading.Thread(target=getters) for _ in range(2)]
    workers = [threading.Thread(target=kernels, args=(s,)) for s in range(4)]
    for t in watchers + workers:
        t.start()
    for t in workers:
        t.join()
    stop.set()
    for t in watchers:
        t.join()
    print(sorted(set(errors)) or "ok")
''')


def test_threads_share_the_pool_and_get_the_serial_results():
    run = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip().splitlines()[-1] == "ok"
