"""Inter-op parallelism: a function whose independent branches (a multi-tower model) run at once
gives exactly what it gives with tf.config.threading.set_inter_op_parallelism_threads(1), the
serial executor: values bit for bit, tf.print lines in program order, seeded random values,
variable updates, the same exception for the first failing op, from several Python threads, and
Ctrl-C still stops it.

Each case runs a script in fresh interpreters, once with one inter-op thread and once with four
(more than this machine's cores, so steps really overlap), and compares everything they print."""

import os
import subprocess
import sys
import textwrap

import pytest

import graphfn

_SCRIPT = textwrap.dedent('''
    import hashlib, sys, threading
    import numpy as np
    import graphfn as tf

    tf.config.threading.set_inter_op_parallelism_threads(int(sys.argv[1]))
    rng = np.random.RandomState(3)
    def const(*shape):
        return tf.constant((rng.standard_normal(shape) * 0.1).astype(np.float32))
    def show(name, value):
        value = np.asarray(value)
        print(name, value.dtype, value.shape, hashlib.sha1(value.tobytes()).hexdigest(), flush=True)

    BATCH, IN, OUT = 67, 253, 131
    towers = [(const(IN, 301 + 2 * t), const(301 + 2 * t, OUT), tf.Variable(const(OUT))) for t in range(4)]
    head = tf.Variable(const(4 * OUT, 11))
    back = const(OUT, IN)

    @tf.function
    def model(x):
        outs = []
        for w1, w2, b in towers:
            h = tf.nn.relu(tf.matmul(x, w1))
            outs.append(tf.tanh(tf.matmul(h, w2) + b))
        return tf.matmul(tf.concat(outs, axis=1), head)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        variables = [b for _, _, b in towers] + [head]
        for v, g in zip(variables, tape.gradient(loss, variables)):
            v.assign_sub(0.1 * g)
        return loss

    @tf.function
    def effects(x):
        outs = []
        for t, (w1, w2, b) in enumerate(towers):
            h = tf.matmul(x, w1)
            tf.print("tower", t, tf.reduce_sum(tf.cast(h > 0, tf.int32)), output_stream=sys.stdout)
            noise = tf.random.normal(tf.shape(h), seed=t + 1)
            b.assign_add(tf.ones([OUT]) * float(t))
            outs.append(tf.matmul(h + noise, w2) + b.read_value())
        return tf.concat(outs, axis=1)

    @tf.function
    def loop(x):
        def body(i, acc):
            total = 0.0
            for w1, w2, b in towers:
                total += tf.matmul(tf.nn.relu(tf.matmul(acc, w1)), w2)
            return i + 1, tf.tanh(tf.matmul(total, back))
        return tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), x))[1]

    @tf.function
    def branch(x, flag):
        def towers_of(scale):
            return lambda: tf.add_n([tf.matmul(tf.matmul(x * scale, w1), w2) for w1, w2, _ in towers])
        return tf.cond(flag, towers_of(1.0), towers_of(-0.5))

    big, big2 = const(512, 512), const(512, 512)
    counter = tf.Variable(0.0)

    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, None])])
    def failing(a, b):
        first = tf.matmul(a, tf.matmul(big, big2))
        counter.assign_add(1.0)
        second = tf.matmul(b, big)
        return first, second, tf.matmul(big2, big)

    x = const(BATCH, IN)
    y = const(BATCH, 11)
    show("model", model(x))
    for step in range(3):
        show("train_step %d" % step, train_step(x, y))
    show("head", head)
    show("effects", effects(x))
    show("effects again", effects(x))
    show("loop", loop(x))
    show("branch true", branch(x, tf.constant(True)))
    show("branch false", branch(x, tf.constant(False)))
    for a, b in [((3, 5), (3, 7)), ((3, 512), (3, 9))]:
        try:
            failing(tf.ones(a), tf.ones(b))
        except Exception as e:
            print(type(e).__name__, str(e).replace(chr(10), " | "))
        print("counter", float(counter.numpy()))
    results = failing(tf.ones([3, 512]), tf.ones([3, 512]))
    show("failing fixed", results[0])
    print("counter", float(counter.numpy()))

    # Several Python threads calling the same functions at once.
    inputs = [const(BATCH, IN) for _ in range(4)]
    expected = [model(t).numpy() for t in inputs]
    expected_loop = [loop(t).numpy() for t in inputs]
    mismatches = []
    def work(k):
        for _ in range(5):
            if not np.array_equal(model(inputs[k]).numpy(), expected[k]):
                mismatches.append(("model", k))
            if not np.array_equal(loop(inputs[k]).numpy(), expected_loop[k]):
                mismatches.append(("loop", k))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("thread mismatches", mismatches)
''')


def _env():
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(graphfn.__file__))
    env["PYTHONPATH"] = os.pathsep.join(p for p in [package_parent, env.get("PYTHONPATH", "")] if p)
    return env


def _run(script, *args):
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=600,
                          env=_env())
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_parallel_runs_match_the_serial_executor():
    serial = _run(_SCRIPT, "1")
    parallel = _run(_SCRIPT, "4")
    assert parallel == serial
    lines = serial.splitlines()
    # What the serial executor itself must show (TF's semantics), so the comparison means something.
    assert [line.split()[:2] for line in lines if line.startswith("tower")] == \
        [["tower", str(t)] for _ in range(2) for t in range(4)]
    errors = [line for line in lines if "Error" in line.split()[0]]
    assert len(errors) == 2
    assert errors[0].startswith("InvalidArgumentError Graph execution error:")
    assert "Matrix size-incompatible: In[0]: [3,5], In[1]: [512,512]" in errors[0]
    assert "Matrix size-incompatible: In[0]: [3,9], In[1]: [512,512]" in errors[1]
    # The first call fails before the assignment, the second after it, the third succeeds.
    assert [line for line in lines if line.startswith("counter")] == ["counter 0.0", "counter 1.0", "counter 2.0"]
    assert "thread mismatches []" in lines


_INTERRUPTED = textwrap.dedent('''
    import os, signal, sys, threading, time
    import graphfn as tf

    tf.config.threading.set_inter_op_parallelism_threads(4)
    w = [tf.random.stateless_normal([384, 384], seed=[t, 1]) * 0.05 for t in range(4)]

    @tf.function
    def towers(x, n):
        def body(i, acc):
            return i + 1, tf.tanh(tf.add_n([tf.matmul(tf.matmul(acc, v), v) for v in w]))
        return tf.while_loop(lambda i, acc: i < n, body, (tf.constant(0), x))[1]

    x = tf.ones([96, 384])
    towers(x, tf.constant(2))
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.perf_counter()
    try:
        towers(x, tf.constant(10**9))
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - start < 60)
    print("again", towers(x, tf.constant(2)).shape)
''')


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_loop_of_parallel_towers():
    out = _run(_INTERRUPTED)
    assert out.splitlines() == ["interrupted True", "again (96, 384)"]
