"""Gradients and graphfn.function: a GradientTape (and tf.gradients) inside a traced function,
and an eager tape around function calls. Expected values are TF 2.21's (checked with
/work/tfenv) or arithmetic."""

import numpy as np
import pytest

import graphfn as tf


def _value(t):
    return None if t is None else np.asarray(t.numpy()).tolist()


# A tape inside the function: symbolic differentiation of the graph being traced -------------------

def test_tape_in_function():
    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x)

    assert _value(step(tf.constant(3.0))) == 6.0
    assert _value(step(tf.constant(-1.5))) == -3.0


def test_tape_in_function_watches_variables_read():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = v * v * x
        return tape.gradient(y, v)

    assert _value(f(tf.constant(3.0))) == 12.0


def test_tape_in_function_watch_accessed_variables_false():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            y = v * x
        return tape.gradient(y, v)

    assert f(tf.constant(3.0)) is None


def test_tape_in_function_variable_argument():
    @tf.function
    def f(v, x):
        with tf.GradientTape() as tape:
            y = v * v * x
        return tape.gradient(y, v)

    assert _value(f(tf.Variable(2.0), tf.constant(3.0))) == 12.0
    assert _value(f(tf.Variable(5.0), tf.constant(1.0))) == 10.0


def test_persistent_tape_in_function():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
            z = y * x
        return tape.gradient(y, x), tape.gradient(z, x)

    assert [_value(g) for g in f(tf.constant(3.0))] == [6.0, 27.0]


def test_nested_tapes_in_function_give_second_derivatives():
    @tf.function
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x * x * x
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    assert [_value(g) for g in f(tf.constant(2.0))] == [12.0, 12.0]


def test_persistent_tape_in_function_records_its_own_gradient():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * x * x
            g = t.gradient(y, x)
        return t.gradient(g, x)

    assert _value(f(tf.constant(2.0))) == 12.0


def test_stop_recording_in_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
            with t.stop_recording():
                z = y * x
            w = y + z
        return t.gradient(w, x)

    assert _value(f(tf.constant(2.0))) == 4.0


def test_unconnected_sources_in_function():
    @tf.function
    def f(x, y):
        with tf.GradientTape() as t:
            t.watch(x)
            z = x * 2.0
        return t.gradient(z, [x, y])

    gx, gy = f(tf.constant(2.0), tf.constant(1.0))
    assert _value(gx) == 2.0 and gy is None

    @tf.function
    def g(x, y):
        with tf.GradientTape() as t:
            t.watch(x)
            z = x * 2.0
        return t.gradient(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO)

    gx, gy = g(tf.constant(2.0), tf.constant([1.0, 2.0]))
    assert _value(gx) == 2.0 and _value(gy) == [0.0, 0.0]


def test_unwatched_tensor_in_function_has_no_gradient():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            y = x * x
        return t.gradient(y, x)

    assert f(tf.constant(2.0)) is None


def test_watch_after_use_in_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            y = x * x
            t.watch(x)
            z = y + x
        return t.gradient(z, x)

    assert _value(f(tf.constant(2.0))) == 1.0  # y was computed before x was watched


def test_output_gradients_in_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            z = x * x
        return t.gradient(z, x, output_gradients=tf.constant([1.0, 10.0]))

    assert _value(f(tf.constant([2.0, 3.0]))) == [4.0, 60.0]


def test_non_persistent_tape_in_function_is_used_once():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            z = x * x
        g = t.gradient(z, x)
        with pytest.raises(RuntimeError, match=r"^A non-persistent GradientTape can only be used to compute one set "
                                               r"of gradients \(or jacobians\)$"):
            t.gradient(z, x)
        return g

    assert _value(f(tf.constant(1.0))) == 2.0


def test_tape_in_function_with_nested_function():
    @tf.function
    def inner(x):
        return tf.exp(x) * x

    @tf.function
    def outer(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = inner(x)
        return t.gradient(y, x)

    x = 0.5
    assert abs(_value(outer(tf.constant(x))) - np.exp(x) * (1 + x)) < 1e-6


def test_train_step_in_function_updates_variables():
    w = tf.Variable([[1.0], [2.0]])
    b = tf.Variable([0.5])

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            pred = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.square(pred - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        return loss

    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    y = np.array([[1.0], [2.0]], np.float32)
    w0, b0 = w.numpy(), b.numpy()
    loss = train_step(tf.constant(x), tf.constant(y))
    pred = x @ w0 + b0
    assert abs(float(loss) - np.mean((pred - y) ** 2)) < 1e-5
    gw = 2 * x.T @ (pred - y) / 2
    gb = np.sum(2 * (pred - y) / 2, axis=0)
    np.testing.assert_allclose(w.numpy(), w0 - 0.1 * gw, rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), b0 - 0.1 * gb, rtol=1e-6)


# tf.gradients -------------------------------------------------------------------------------------

def test_tf_gradients_is_graph_only():
    with pytest.raises(RuntimeError, match=r"^tf.gradients is not supported when eager execution is enabled. "
                                           r"Use tf.GradientTape instead.$"):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))


def test_tf_gradients_in_function():
    @tf.function
    def f(x, z):
        y = x * x * 3.0
        return (tf.gradients(y, x), tf.gradients([y, y], [x]), tf.gradients(y, x, grad_ys=tf.constant(2.0)),
                tf.gradients(x * 2.0, [x, z]))

    a, b, c, (d, e) = f(tf.constant(2.0), tf.constant(1.0))
    assert [_value(a[0]), _value(b[0]), _value(c[0]), _value(d)] == [12.0, 24.0, 24.0, 2.0]
    assert e is None
