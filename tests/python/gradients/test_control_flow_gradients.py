"""Gradients through tf.cond, tf.switch_case, tf.while_loop and TensorArrays, with a tape inside
the function (symbolic differentiation of the traced graph) and with an eager tape around a call
of the function (its backward function). Expected values are TF 2.21's (checked with
/work/tfenv: with `import tensorflow as tf` this file passes under TF 2.21) or arithmetic."""

import numpy as np
import pytest

import graphfn as tf


def _value(t):
    return None if t is None else np.asarray(t.numpy()).tolist()


def both_ways(body, *args):
    """The gradients of body(*args) with respect to each argument, computed (a) by a tape inside a
    function and (b) by an eager tape around a call of a function; both must agree."""
    xs = [tf.constant(a) for a in args]

    @tf.function
    def inside(*xs):
        with tf.GradientTape() as t:
            t.watch(xs)
            y = body(*xs)
        return t.gradient(y, list(xs))

    f = tf.function(body)
    with tf.GradientTape() as t:
        t.watch(xs)
        y = f(*xs)
    outside = [_value(g) for g in t.gradient(y, xs)]
    inner = [_value(g) for g in inside(*xs)]
    assert len(inner) == len(outside)
    for a, b in zip(inner, outside):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-6)
    return inner


# cond ---------------------------------------------------------------------------------------------

def square_or_triple(x):
    return tf.cond(x > 0, lambda: x * x, lambda: x * 3.0)


@pytest.mark.parametrize("x, expected", [(2.0, 4.0), (-2.0, 3.0)])
def test_cond(x, expected):
    assert both_ways(square_or_triple, x) == [expected]


@pytest.mark.parametrize("x, expected", [(2.0, [4.0, 0.0]), (-2.0, [0.0, 3.0])])
def test_cond_input_used_by_one_branch_gets_zeros_from_the_other(x, expected):
    assert both_ways(lambda x, z: tf.cond(x > 0, lambda: x * x, lambda: z * 3.0), x, 1.0) == expected


def test_cond_input_used_by_no_branch_is_none():
    assert both_ways(lambda x, z: tf.cond(x > 0, lambda: x * 2.0, lambda: x * 3.0), 2.0, 1.0) == [2.0, None]


@pytest.mark.parametrize("x, expected", [(0.7, 0.14897561), (-0.7, 0.4965853)])
def test_cond_gradient_reads_branch_intermediates(x, expected):
    # exp(-x) * x: the gradient reads exp(-x), computed inside the branch (an extra If output).
    g = both_ways(lambda x: tf.cond(x > 0, lambda: tf.exp(-x) * x, lambda: tf.exp(x)), x)
    np.testing.assert_allclose(g, [expected], rtol=1e-6)


def test_cond_with_matrices():
    def body(x, w):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(tf.matmul(x, w) ** 2), lambda: tf.reduce_sum(x))
    gx, gw = both_ways(body, [[1.0, 2.0]], [[1.0], [0.5]])
    assert gx == [[4.0, 2.0]] and gw == [[4.0], [8.0]]


def test_cond_reading_a_variable():
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            y = tf.cond(x > 0, lambda: v * x, lambda: x)
        return t.gradient(y, v)

    assert _value(f(tf.constant(2.0))) == 2.0
    assert _value(f(tf.constant(-2.0))) == 0.0

    g = tf.function(lambda x: tf.cond(x > 0, lambda: v * x, lambda: x))
    with tf.GradientTape() as t:
        y = g(tf.constant(2.0))
    assert _value(t.gradient(y, v)) == 2.0


@pytest.mark.parametrize("index, expected", [(0, 2.0), (1, 6.0), (2, 0.0), (7, 0.0)])
def test_switch_case(index, expected):
    def body(x, i):
        return tf.switch_case(tf.cast(i, tf.int32), [lambda: x * 2.0, lambda: x * x, lambda: tf.constant(1.0)])
    assert both_ways(body, 3.0, float(index)) == [expected, None]


def test_nested_cond():
    def body(x):
        return tf.cond(x > 0, lambda: tf.cond(x > 1, lambda: x * x * x, lambda: x * x), lambda: -x)
    assert both_ways(body, 2.0) == [12.0]
    assert both_ways(body, 0.5) == [1.0]
    assert both_ways(body, -1.0) == [-1.0]


# while_loop ----------------------------------------------------------------------------------------

def power(x, n):
    _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, tf.ones_like(x)))
    return y


@pytest.mark.parametrize("n, expected", [(5, 80.0), (1, 1.0), (0, 0.0)])
def test_while_power(n, expected):
    # d x^n / dx = n x^(n-1); no iteration: the loop returns its (constant) input, gradient 0.
    assert both_ways(lambda x: power(x, tf.constant(n)), 2.0) == [expected]


def test_while_with_maximum_iterations():
    def body(x):
        return tf.while_loop(lambda i, y: True, lambda i, y: (i + 1, y * x), (0, tf.ones_like(x)),
                             maximum_iterations=3)[1]
    assert both_ways(body, 2.0) == [12.0]


def test_while_whose_body_has_a_cond():
    def body(x):
        def step(i, y):
            return i + 1, tf.cond(y > 10.0, lambda: y + x, lambda: y * x)
        return tf.while_loop(lambda i, y: i < 4, step, (0, x))[1]
    assert both_ways(body, 2.0) == [33.0]


def test_while_reading_a_variable():
    v = tf.Variable(1.5)

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * v), (0, x))
        return y, t.gradient(y, [v])

    y, (g,) = f(tf.constant(2.0))
    assert _value(y) == 6.75 and _value(g) == 13.5

    @tf.function
    def h(x):
        return tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * v + x), (0, x))[1]

    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = h(x)
    assert _value(y) == 16.25
    assert [_value(g) for g in t.gradient(y, [x, v])] == [8.125, 21.5]


def test_nested_while_loops():
    def body(x):
        def outer_step(i, y):
            _, z = tf.while_loop(lambda j, z: j < 2, lambda j, z: (j + 1, z * x + 1.0), (0, y))
            return i + 1, z
        return tf.while_loop(lambda i, y: i < 3, outer_step, (0, x))[1]
    np.testing.assert_allclose(both_ways(body, 1.5), [129.296875], rtol=1e-6)


def test_while_inside_cond():
    def body(x):
        loop = lambda: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (0, x))[1]
        return tf.cond(x > 0, loop, lambda: x * 2.0)
    assert both_ways(body, 1.5) == [13.5]
    assert both_ways(body, -1.5) == [2.0]


def test_while_with_a_tensor_array():
    def body(x):
        ta = tf.TensorArray(tf.float32, size=3)
        _, ta = tf.while_loop(lambda i, ta: i < 3,
                              lambda i, ta: (i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))), (0, ta))
        return tf.reduce_sum(ta.stack() ** 2)
    assert both_ways(body, [1.0, 2.0]) == [[28.0, 56.0]]


def test_rnn_over_an_unstacked_tensor_array():
    def body(xs, w):
        ta = tf.TensorArray(tf.float32, size=3).unstack(xs)
        _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(h * w + ta.read(i))),
                             (0, tf.zeros([2])))
        return tf.reduce_sum(h)
    gxs, gw = both_ways(body, [[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], 0.7)
    np.testing.assert_allclose(gxs, [[0.25395265, 0.37048247], [0.3664295, 0.55071485], [0.59836596, 0.8419171]],
                               rtol=1e-5)
    np.testing.assert_allclose(gw, 0.141371876, rtol=1e-5)


def test_second_derivative_through_a_while_loop():
    @tf.function
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = power(x, 3)
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    assert [_value(g) for g in f(tf.constant(2.0))] == [12.0, 12.0]


def test_tf_gradients_through_a_while_loop():
    @tf.function
    def f(x):
        return tf.gradients(power(x, 4), x)

    assert [_value(g) for g in f(tf.constant(2.0))] == [32.0]


def test_while_gradient_matches_finite_differences():
    def loss(x, w):
        def step(i, h):
            return i + 1, tf.tanh(tf.matmul(h, w) + x)
        _, h = tf.while_loop(lambda i, h: i < 4, step, (0, x))
        return tf.reduce_sum(h * h)

    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3)) * 0.5
    w = rng.normal(size=(3, 3)) * 0.5
    gx, gw = both_ways(loss, x, w)
    f = tf.function(loss)

    def numeric(k):
        args = [x, w]
        out = np.zeros_like(args[k])
        for idx in np.ndindex(out.shape):
            d = np.zeros_like(out)
            d[idx] = 1e-6
            hi = [a + d if j == k else a for j, a in enumerate(args)]
            lo = [a - d if j == k else a for j, a in enumerate(args)]
            out[idx] = (float(f(*map(tf.constant, hi))) - float(f(*map(tf.constant, lo)))) / 2e-6
        return out

    np.testing.assert_allclose(gx, numeric(0), rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(gw, numeric(1), rtol=1e-5, atol=1e-8)


# jacobians inside a function -----------------------------------------------------------------------

def test_jacobian_and_batch_jacobian_in_a_function():
    @tf.function
    def j(x, b):
        with tf.GradientTape(persistent=True) as t:
            t.watch([x, b])
            y = x * x * tf.constant([1.0, 2.0])
            z = b * b
        return t.jacobian(y, x), t.batch_jacobian(z, b)

    jac, bjac = j(tf.constant([3.0, 4.0]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert _value(jac) == [[6.0, 0.0], [0.0, 16.0]]
    assert _value(bjac) == [[[2.0, 0.0], [0.0, 4.0]], [[6.0, 0.0], [0.0, 8.0]]]


def test_tape_inside_a_branch():
    @tf.function
    def f(x):
        def branch():
            with tf.GradientTape() as t:
                t.watch(x)
                y = x * x * x
            return t.gradient(y, x)
        return tf.cond(x > 0, branch, lambda: x)

    assert _value(f(tf.constant(2.0))) == 12.0


def test_persistent_tape_differentiates_control_flow_several_times():
    # Each gradient rewrites the forward If / While again (reusing what they already output).
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = tf.cond(x > 0, lambda: tf.exp(x) * x, lambda: x)
            _, z = tf.while_loop(lambda i, z: i < 2, lambda i, z: (i + 1, tf.exp(z) * x), (0, x))
        return t.gradient(y, x), t.gradient(y, x), t.gradient(z, x), t.gradient([y, z], x)

    np.testing.assert_allclose([_value(g) for g in f(tf.constant(0.3))],
                               [1.7548165321350098, 1.7548165321350098, 2.288506031036377, 4.043322563171387],
                               rtol=1e-6)


def test_loop_with_a_cond_reading_a_variable():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            def body(i, s):
                return i + 1, tf.cond(i > 0, lambda: s + v * x, lambda: s * v)
            _, s = tf.while_loop(lambda i, s: i < 3, body, (0, x))
        return t.gradient(s, v)

    assert _value(f(tf.constant(1.5))) == 4.5


@pytest.mark.parametrize("kind, expected", [("while", [1.1662859, 0.28209528]), ("cond", [2.2852428, 6.463972])])
def test_second_derivative_through_a_function_call_with_control_flow(kind, expected):
    # The outer tape differentiates the backward function's call, whose inputs include the values
    # the forward call saved (a loop's saved lists, a cond's intermediates).
    if kind == "while":
        f = tf.function(lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.exp(y * 0.1) * x),
                                                (0, x))[1])
    else:
        f = tf.function(lambda x: tf.cond(x > 0, lambda: tf.exp(x * x), lambda: x))
    x = tf.constant(0.7)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g1 = t1.gradient(y, x)
    np.testing.assert_allclose([_value(g1), _value(t2.gradient(g1, x))], expected, rtol=1e-5)
