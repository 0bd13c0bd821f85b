"""A GradientTape inside a function watching an eager tensor the function captures (a tensor
made outside it): gradients reach it as in TF, before and after its uses, in a cond branch, and
for jacobians. Expected values recorded from TensorFlow 2.21."""

import numpy as np

import graphfn as tf

c = tf.constant([1., 2.])
d = tf.constant(3.)


def test_watched_captured_tensor_gets_its_gradient_and_an_unwatched_one_none():
    @tf.function
    def f():
        with tf.GradientTape() as t:
            t.watch(c)
            y = tf.reduce_sum(c * c * d)
        return t.gradient(y, [c, d])

    gc, gd = f()
    np.testing.assert_array_equal(gc.numpy(), [6., 12.])
    assert gd is None


def test_use_before_the_watch_is_not_recorded():
    @tf.function
    def f():
        z = c * 2.
        with tf.GradientTape() as t:
            t.watch(c)
            y = tf.reduce_sum(c * z)
        return t.gradient(y, c)

    np.testing.assert_array_equal(f().numpy(), [2., 4.])


def test_jacobian_of_a_captured_tensor():
    @tf.function
    def f():
        with tf.GradientTape(persistent=True) as t:
            t.watch(c)
            y = c * c
        return t.jacobian(y, c), t.gradient(y, c)

    jac, grad = f()
    np.testing.assert_array_equal(jac.numpy(), [[2., 0.], [0., 4.]])
    np.testing.assert_array_equal(grad.numpy(), [2., 4.])


def test_captured_tensor_used_in_a_cond_branch():
    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(c)
            y = tf.cond(x > 0, lambda: tf.reduce_sum(c * 3.), lambda: tf.reduce_sum(c))
        return t.gradient(y, c)

    np.testing.assert_array_equal(f(tf.constant(1.)).numpy(), [3., 3.])
    np.testing.assert_array_equal(f(tf.constant(-1.)).numpy(), [1., 1.])
