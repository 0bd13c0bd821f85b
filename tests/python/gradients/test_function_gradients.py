"""Gradients and graphfn.function: a GradientTape (and tf.gradients) inside a traced function,
and an eager tape around function calls. Expected values are TF 2.21's (checked with
/work/tfenv) or arithmetic: with `import tensorflow as tf` the file passes under TF 2.21 too,
but for the tests of graphfn's own machinery (`_function`)."""

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


def test_tf_gradients_stop_gradients():
    @tf.function
    def f(a):
        b = 2 * a
        return (tf.gradients(a + b, [a, b], stop_gradients=[a, b]), tf.gradients(a * b, a, stop_gradients=[b]),
                tf.gradients(a * b, a, stop_gradients=b))

    (ga, gb), (g2,), (g3,) = f(tf.constant(3.0))
    assert [_value(ga), _value(gb), _value(g2), _value(g3)] == [1.0, 1.0, 6.0, 6.0]


# An eager tape around function calls: the forward call saves what the backward function reads -----

def test_tape_around_a_function_call():
    @tf.function
    def f(x):
        return x * x

    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    assert _value(t.gradient(y, x)) == 6.0


def test_tape_around_a_function_reading_a_captured_variable():
    v = tf.Variable(2.0)
    w = tf.Variable(5.0, trainable=False)

    @tf.function
    def g(x):
        return v * x + w

    g(tf.constant(1.0))  # traced outside the tape: the call still watches v
    with tf.GradientTape() as t:
        y = g(tf.constant(3.0))
    assert t.watched_variables() == (v,)
    assert _value(t.gradient(y, v)) == 3.0
    with tf.GradientTape() as t:
        y = g(tf.constant(3.0))
    assert t.gradient(y, w) is None


def test_tape_around_a_function_with_a_variable_argument():
    @tf.function
    def add(a, b):
        return a + b

    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        r = add(v, 1.0)
    assert _value(t.gradient(r, v)) == 1.0


def test_variable_arguments_are_watched_even_if_unread():
    @tf.function
    def unused(a, b):
        return a * 2.0

    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        r = unused(tf.constant(1.0), v)
    assert t.watched_variables() == (v,)
    assert t.gradient(r, v) is None


def test_tape_around_nested_function_calls():
    @tf.function
    def inner(x):
        return tf.exp(x) * x

    @tf.function
    def outer(x):
        return inner(x) * 2.0

    x = tf.constant(0.5)
    with tf.GradientTape() as t:
        t.watch(x)
        y = outer(x)
    assert abs(_value(t.gradient(y, x)) - 2 * np.exp(0.5) * 1.5) < 1e-6


def test_function_with_several_outputs():
    @tf.function
    def two(x, y):
        return x * y, x + y, tf.cast(x, tf.int32)

    a, b = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch([a, b])
        o1, o2, o3 = two(a, b)
    assert [_value(g) for g in t.gradient(o1, [a, b])] == [3.0, 2.0]
    assert [_value(g) for g in t.gradient(o2, [a, b])] == [1.0, 1.0]
    assert [_value(g) for g in t.gradient([o1, o2], [a, b])] == [4.0, 3.0]
    # As TF: an input connected to the function's float outputs gets a (zero) gradient.
    assert _value(t.gradient(o3, a)) == 0.0


def test_unconnected_function_input_is_none():
    @tf.function
    def unused(a, b):
        return a * 2.0

    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch([a, b])
        r = unused(a, b)
    ga, gb = t.gradient(r, [a, b])
    assert _value(ga) == 2.0 and gb is None


def test_second_derivative_through_a_function():
    @tf.function
    def f(x):
        return tf.exp(tf.exp(x * 0.1)) * x

    x = tf.constant(2.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g1 = t1.gradient(y, x)
    g2 = t2.gradient(g1, x)
    np.testing.assert_allclose([_value(g1), _value(g2)], [4.220528, 1.0126479], rtol=1e-5)  # TF 2.21


def test_function_gradient_matches_finite_differences():
    @tf.function
    def f(x, w):
        h = tf.tanh(tf.matmul(x, w))
        return tf.reduce_sum(tf.nn.softmax(h) * h)

    rng = np.random.default_rng(0)
    x = rng.normal(size=(3, 4))
    w = rng.normal(size=(4, 5))
    xt, wt = tf.constant(x), tf.constant(w)
    with tf.GradientTape() as t:
        t.watch([xt, wt])
        y = f(xt, wt)
    gx, gw = t.gradient(y, [xt, wt])

    def numeric(arr, k):
        out = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            d = np.zeros_like(arr)
            d[i] = 1e-6
            args = [x, w]
            args[k] = arr + d
            hi = float(f(tf.constant(args[0]), tf.constant(args[1])))
            args[k] = arr - d
            lo = float(f(tf.constant(args[0]), tf.constant(args[1])))
            out[i] = (hi - lo) / 2e-6
        return out

    np.testing.assert_allclose(gx.numpy(), numeric(x, 0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gw.numpy(), numeric(w, 1), rtol=1e-5, atol=1e-7)


def test_the_backward_function_is_built_once():
    @tf.function
    def f(x):
        return x * x * x

    for value in (1.0, 2.0, 3.0):
        x = tf.constant(value)
        with tf.GradientTape() as t:
            t.watch(x)
            y = f(x)
        assert _value(t.gradient(y, x)) == 3 * value * value
    concrete = f.get_concrete_function(tf.constant(1.0))
    assert concrete._function.num_gradient_builds == 1


def test_calls_without_a_recording_tape_use_the_plain_plan():
    @tf.function
    def f(x):
        return x * 2.0

    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        y = f(x)  # nothing watched: not recorded
    assert t.gradient(y, x) is None
    assert f.get_concrete_function(tf.constant(1.0))._function.num_gradient_builds == 0


def test_tape_in_function_reaches_watched_tensors_only():
    @tf.function
    def f(x, z):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * z
        return t.gradient(y, z), t.gradient(x, x), t.gradient(z, z)

    gz, gx, gzz = f(tf.constant(2.0), tf.constant(3.0))
    assert gz is None and _value(gx) == 1.0 and _value(gzz) == 1.0


def test_only_the_tracked_inputs_gradients_are_built():
    @tf.function
    def f(x, w):
        return tf.reduce_sum(tf.matmul(x, w))

    x, w = tf.constant([[1.0, 2.0]]), tf.constant([[3.0], [4.0]])
    with tf.GradientTape() as t:
        t.watch(w)
        y = f(x, w)
    assert _value(t.gradient(y, w)) == [[1.0], [2.0]]
    with tf.GradientTape() as t:
        t.watch([x, w])
        y = f(x, w)
    assert [_value(g) for g in t.gradient(y, [x, w])] == [[[3.0, 4.0]], [[1.0], [2.0]]]
    assert f.get_concrete_function(x, w)._function.num_gradient_builds == 2  # one per set of tracked inputs


def test_unsupported_cases_raise():
    @tf.function
    def jac(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.jacobian(y, x)

    with pytest.raises(NotImplementedError, match="needs a tensor of fully known shape"):
        jac.get_concrete_function(tf.TensorSpec([None], tf.float32))
