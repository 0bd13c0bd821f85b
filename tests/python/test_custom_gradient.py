"""tf.custom_gradient, tf.recompute_grad and tf.grad_pass_through: eagerly, with a tape inside a
function, with a tape outside a function (the backward function), with tf.gradients, nested and
with variables. Expected values, exception types and messages were recorded from TensorFlow 2.21
(or follow by arithmetic from the gradient functions written here)."""

import threading

import numpy as np
import pytest

import graphfn as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tf.math.log(1 + e), grad


@tf.custom_gradient
def two(a, b):
    def grad(da, db):
        return da * 10. + db, da + db * 100.

    return (a * b, a + b), grad


def test_eager_value_and_gradient():
    x = tf.constant(100.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = log1pexp(x)
    assert np.isinf(y.numpy())
    assert t.gradient(y, x).numpy() == 1.0  # the naive gradient would be nan


def test_without_a_tape_only_the_value():
    assert log1pexp(tf.constant(1.)).numpy() == pytest.approx(1.3132616)


def test_tape_inside_a_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = log1pexp(x)
        return y, t.gradient(y, x)

    y, dy = f(tf.constant(100.))
    assert np.isinf(y.numpy()) and dy.numpy() == 1.0


def test_tape_outside_a_function_uses_the_backward_function():
    @tf.function
    def g(x):
        return log1pexp(x) * 2.

    x = tf.constant(100.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = g(x)
    assert np.isinf(y.numpy())
    assert t.gradient(y, x).numpy() == 2.0


def test_tf_gradients_in_a_function():
    @tf.function
    def fg(x):
        return tf.gradients(log1pexp(x), x)

    assert fg(tf.constant(1.))[0].numpy() == pytest.approx(0.7310586)


@pytest.mark.parametrize("in_function", [False, True])
def test_two_inputs_two_outputs(in_function):
    def grads(a, b):
        with tf.GradientTape(persistent=True) as t:
            t.watch([a, b])
            p, s = two(a, b)
        return t.gradient(p, [a, b]), t.gradient(s, [a, b]), t.gradient([p, s], [a, b])

    if in_function:
        grads = tf.function(grads)
    gp, gs, gboth = grads(tf.constant(2.), tf.constant(3.))
    assert [v.numpy() for v in gp] == [10.0, 1.0]
    assert [v.numpy() for v in gs] == [1.0, 100.0]
    assert [v.numpy() for v in gboth] == [11.0, 101.0]


def test_outputs_without_gradient_get_zeros():
    seen = []

    @tf.custom_gradient
    def two2(a):
        def grad(da, db):
            seen.append((da.numpy(), db.numpy()))
            return da + db

        return (a * 2., a * 3.), grad

    x = tf.constant(3.)
    with tf.GradientTape() as t:
        t.watch(x)
        p, _ = two2(x)
    assert t.gradient(p, x).numpy() == 1.0
    assert seen == [(1.0, 0.0)]


def test_none_gradient_for_an_input():
    @tf.custom_gradient
    def noneg(a, b):
        def grad(dy):
            return dy, None

        return a * b, grad

    a, b = tf.constant(2.), tf.constant(3.)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = noneg(a, b)
    ga, gb = t.gradient(y, [a, b])
    assert ga.numpy() == 1.0 and gb is None


def test_variables_eagerly_and_in_a_function():
    v = tf.Variable(3.)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            assert len(variables) == 1 and variables[0] is v
            return dy * v * 7., [dy * x * 5.]

        return x * v, grad

    x = tf.constant(100.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = scale(x)
    assert [g.numpy() for g in t.gradient(y, [x, v])] == [21.0, 500.0]

    @tf.function
    def fv(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = scale(x)
        return t.gradient(y, [x, v])

    assert [g.numpy() for g in fv(tf.constant(2.))] == [21.0, 10.0]


def test_variables_need_the_variables_keyword():
    v = tf.Variable(3.)

    @tf.custom_gradient
    def bad(x):
        def grad(dy):
            return dy

        return x * v, grad

    with pytest.raises(TypeError) as e:
        bad(tf.constant(1.))
    assert str(e.value).startswith("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                                   "function uses variables: [<tf.Variable 'Variable:0' shape=() dtype=float32, "
                                   "numpy=3.0>")


def test_wrong_number_of_gradients():
    @tf.custom_gradient
    def wrong(x):
        def grad(dy):
            return dy, dy

        return x * 2., grad

    x = tf.constant(1.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = wrong(x)
    with pytest.raises(ValueError, match="^custom_gradient function expected to return 1 gradients, but returned 2 "
                                         "instead.$"):
        t.gradient(y, x)


def test_grad_fn_exception_reaches_the_caller_from_a_backward_function():
    class Boom(Exception):
        pass

    @tf.custom_gradient
    def f(x):
        def grad(dy):
            raise Boom("from grad_fn")

        return x * 2., grad

    g = tf.function(lambda x: f(x))
    x = tf.constant(1.)
    # TF builds the backward function when the function is called under the tape.
    with pytest.raises(Boom, match="from grad_fn"):
        with tf.GradientTape() as t:
            t.watch(x)
            y = g(x)
        t.gradient(y, x)


def test_keyword_arguments_in_a_graph():
    @tf.function
    def kw(x):
        return two(x, b=x)

    with pytest.raises(ValueError, match="The custom_gradient decorator currently supports keywords arguments only "
                                         "when eager execution is enabled."):
        kw(tf.constant(3.))


def test_second_derivative_through_nested_tapes():
    @tf.custom_gradient
    def sq(x):
        def grad(dy):
            return dy * 2. * x

        return x * x, grad

    x = tf.constant(3.)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = sq(x)
        d = t1.gradient(y, x)
    assert d.numpy() == 6.0
    assert t2.gradient(d, x).numpy() == 2.0


def test_nested_structure_result():
    @tf.custom_gradient
    def nested(x):
        def grad(d1, d2):
            return d1 + 2. * d2

        return {"a": x * 1., "b": x * 2.}, grad

    x = tf.constant(3.)
    with tf.GradientTape() as t:
        t.watch(x)
        out = nested(x)
    assert sorted(out) == ["a", "b"]
    assert t.gradient(out["b"], x).numpy() == 2.0


def test_jacobian():
    xs = tf.constant([1., 2.])
    with tf.GradientTape() as t:
        t.watch(xs)
        y = log1pexp(xs)
    np.testing.assert_allclose(t.jacobian(y, xs).numpy(), [[0.7310586, 0.], [0., 0.8807971]], rtol=1e-6)


def test_custom_gradient_method():
    class Layer:
        def __init__(self):
            self.k = 4.

        @tf.custom_gradient
        def __call__(self, x):
            def grad(dy):
                return dy * self.k

            return x * 1., grad

    layer = Layer()
    x = tf.constant(2.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = layer(x)
    assert t.gradient(y, x).numpy() == 4.0


def test_graph_holds_an_identity_n_with_the_override():
    @tf.function
    def f(x):
        return log1pexp(x)

    graph_def = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph.as_graph_def()
    assert [n.op for n in graph_def.node].count("IdentityN") == 1
    text = str(graph_def)
    node = text[text.index('op: "IdentityN"'):]
    node = node[:node.index("\nnode {")]
    assert 'key: "_gradient_op_type"' in node and 's: "CustomGradient-' in node


def test_recompute_grad():
    @tf.recompute_grad
    def r(x):
        return tf.sin(x) * x

    x = tf.constant(3.)
    with tf.GradientTape() as t:
        t.watch(x)
        y = r(x)
    assert y.numpy() == pytest.approx(0.42336, rel=1e-5)
    assert t.gradient(y, x).numpy() == pytest.approx(-2.8288574, rel=1e-6)
    assert r.__name__ == "r"


def test_recompute_grad_in_a_function_with_variables():
    w = tf.Variable([[1., 2.], [3., 4.]])
    layer = tf.recompute_grad(lambda x: tf.nn.relu(tf.matmul(x, w)))

    @tf.function
    def step(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(layer(x))
        return t.gradient(y, [x, w])

    gx, gw = step(tf.constant([[1., -1.]]))
    # relu(x @ w) = relu([-2, -2]) = 0: no gradient passes the relu.
    np.testing.assert_array_equal(gx.numpy(), [[0., 0.]])
    np.testing.assert_array_equal(gw.numpy(), [[0., 0.], [0., 0.]])
    gx, gw = step(tf.constant([[1., 1.]]))
    np.testing.assert_array_equal(gx.numpy(), [[3., 7.]])
    np.testing.assert_array_equal(gw.numpy(), [[1., 1.], [1., 1.]])


def test_grad_pass_through():
    x = tf.Variable(1.0)
    z = tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = tf.grad_pass_through(x.assign)(z ** 2)
    assert y.numpy() == 9.0
    assert t.gradient(y, z).numpy() == 6.0


def test_threads_build_backward_functions_at_once():
    @tf.function
    def g(x):
        return log1pexp(x) * 3.

    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                x = tf.constant(0.)
                with tf.GradientTape() as t:
                    t.watch(x)
                    y = g(x)
                results.append(t.gradient(y, x).numpy())
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert results == [1.5] * 80  # 3 * sigmoid(0)
