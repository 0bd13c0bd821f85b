"""GradientTape.watched_variables(): which variables a tape lists, and in what order, recorded from
TF 2.21 (a tape lists each variable once, in the order the variables were created; the list
survives gradient(), reset() empties it). Tapes are per thread: a tape sees only the reads of its
own thread."""

import threading

import graphfn as tf


def _names(tape):
    return [v.name for v in tape.watched_variables()]


def _variables(*names):
    return [tf.Variable(float(i + 1), name=n) for i, n in enumerate(names)]


def test_listed_once_each_in_creation_order_not_read_order():
    z, y, x = _variables("z", "y", "x")
    with tf.GradientTape() as t:
        x + 1.0
        y + 1.0
        z + 1.0
        x + 2.0
    assert _names(t) == ["z:0", "y:0", "x:0"]


def test_trainable_variables_of_any_dtype_are_watched_non_trainable_ones_are_not():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    c = tf.Variable(3, name="c")
    d = tf.Variable(4.0, name="d", trainable=False)
    with tf.GradientTape() as t:
        y = b * a + b + d + tf.cast(c, tf.float32)
    assert _names(t) == ["a:0", "b:0", "c:0"]
    t.gradient(y, [a, b])
    assert _names(t) == ["a:0", "b:0", "c:0"]  # a used-up tape still lists them


def test_persistent_tape_keeps_its_list_after_gradient():
    a, b = _variables("a", "b")
    with tf.GradientTape(persistent=True) as t:
        y = a * b
    assert _names(t) == ["a:0", "b:0"]
    assert float(t.gradient(y, a)) == 2.0
    assert _names(t) == ["a:0", "b:0"]


def test_gradient_inside_the_context():
    x, = _variables("x")
    with tf.GradientTape() as t:
        r = x + 1.0
        t.gradient(r, x)
    assert _names(t) == ["x:0"]


def test_reset_forgets_what_was_watched():
    a, b = _variables("a", "b")
    with tf.GradientTape() as t:
        a * 2.0
        t.reset()
        b * 2.0
    assert _names(t) == ["b:0"]
    with tf.GradientTape() as t:
        a * 2.0
        t.reset()
    assert _names(t) == []


def test_stop_recording_and_reentering():
    a, b = _variables("a", "b")
    with tf.GradientTape() as t:
        a * 2.0
        with t.stop_recording():
            b * 2.0
    assert _names(t) == ["a:0"]
    with t:
        b + 1.0
    assert _names(t) == ["a:0", "b:0"]


def test_nested_tapes_each_list_their_reads():
    a, b = _variables("a", "b")
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            a * 2.0
        b * 3.0
    assert _names(outer) == ["a:0", "b:0"]
    assert _names(inner) == ["a:0"]


def test_watch_accessed_variables_false_lists_explicit_watches_in_creation_order():
    z, y, x = _variables("z", "y", "x")
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch(x)
        t.watch(z)
        t.watch(x)
        y + 1.0
    assert _names(t) == ["z:0", "x:0"]
    assert _names(tf.GradientTape()) == []


def test_tapes_inside_a_function():
    a, b = _variables("a", "b")

    @tf.function
    def closure(x):
        with tf.GradientTape() as t:
            b * x + a
        return [v.name for v in t.watched_variables()]

    @tf.function
    def argument(v):
        with tf.GradientTape() as t:
            y = v * 2.0 + a
        return [w.name for w in t.watched_variables()], t.gradient(y, v)

    assert closure(tf.constant(1.0)) == ["a:0", "b:0"]
    names, grad = argument(b)
    assert names == ["a:0", "b:0"] and float(grad) == 2.0


def test_calls_of_a_function_tell_the_tape_what_it_read():
    a, b = _variables("a", "b")

    @tf.function
    def h():
        return a * 2.0

    with tf.GradientTape() as t:
        h()
    assert _names(t) == ["a:0"]
    with tf.GradientTape() as t:  # the cached call
        y = h() + b
    assert _names(t) == ["a:0", "b:0"]
    assert [float(g) for g in t.gradient(y, [a, b])] == [2.0, 1.0]


def test_tapes_on_four_threads_see_only_their_own_reads():
    variables = _variables("v0", "v1", "v2", "v3")
    inside = threading.Barrier(5)  # the four threads and this one
    read = threading.Barrier(5)
    results = [None] * 4

    def work(i):
        with tf.GradientTape() as t:
            inside.wait()
            y = variables[i] * float(i + 1)
            read.wait()  # every thread has read its variable while every tape records
        results[i] = (_names(t), float(t.gradient(y, variables[i])))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    inside.wait()
    for v in variables:  # reads on a thread without a tape: no tape sees them
        v.read_value()
    read.wait()
    for thread in threads:
        thread.join()
    assert results == [(["v0:0"], 1.0), (["v1:0"], 2.0), (["v2:0"], 3.0), (["v3:0"], 4.0)]
