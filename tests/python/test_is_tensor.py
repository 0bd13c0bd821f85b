"""tf.is_tensor, with TF 2.21's answers."""

import numpy as np

import graphfn as tf


def test_is_tensor_as_tf():
    assert tf.is_tensor(tf.constant(1.)) is True
    assert tf.is_tensor(tf.Variable(1.)) is True
    assert tf.is_tensor(np.ones(2)) is False
    assert tf.is_tensor(1.0) is False
    assert tf.is_tensor([tf.constant(1)]) is False
    assert tf.is_tensor(tf.TensorSpec([])) is False


def test_is_tensor_of_a_symbolic_tensor_in_a_function():
    @tf.function
    def f(x):
        return tf.is_tensor(x)

    assert f(tf.constant(1.)).numpy() == True  # noqa: E712 (TF returns the Python bool as a tensor)
