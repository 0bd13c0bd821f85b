"""tape.gradient with a Variable as the target (`gradient(v0, [v0, v1])`): the gradient of a
variable with respect to itself is ones of its dtype and shape, None for other sources. Expected
values were printed by TensorFlow 2.21 for the same code (v0 = 2.0, v1 = 3.0)."""

import numpy as np
import pytest

import graphfn as tf


def _value(t):
    if t is None:
        return None
    assert isinstance(t, tf.Tensor)
    return (t.numpy().tolist(), t.dtype.name)


def _values(ts):
    return [_value(t) for t in ts]


@pytest.fixture
def v0():
    return tf.Variable(2.0)


@pytest.fixture
def v1():
    return tf.Variable(3.0)


def test_target_is_one_of_the_sources(v0, v1):
    with tf.GradientTape() as t:
        pass
    assert _values(t.gradient(v0, [v0, v1])) == [(1.0, "float32"), None]


def test_target_was_read_on_the_tape(v0, v1):
    with tf.GradientTape() as t:
        v0 * 1.0
    assert _values(t.gradient(v0, [v0, v1])) == [(1.0, "float32"), None]


def test_target_is_the_only_source(v0, v1):
    with tf.GradientTape() as t:
        pass
    assert _value(t.gradient(v0, v0)) == (1.0, "float32")
    with tf.GradientTape() as t:
        pass
    assert t.gradient(v0, v1) is None


def test_matrix_and_integer_and_untrainable_variables():
    matrix = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t:
        pass
    assert _value(t.gradient(matrix, matrix)) == ([[1.0, 1.0], [1.0, 1.0]], "float32")
    integer = tf.Variable(3)
    with tf.GradientTape() as t:
        pass
    assert _values(t.gradient(integer, [integer])) == [(1, "int32")]
    frozen = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as t:
        pass
    assert _values(t.gradient(frozen, [frozen])) == [(1.0, "float32")]


def test_persistent_tape(v0, v1):
    with tf.GradientTape(persistent=True) as t:
        y = v0 * v1
    assert _values(t.gradient(v0, [v0, v1])) == [(1.0, "float32"), None]
    assert _values(t.gradient(y, [v0, v1])) == [(3.0, "float32"), (2.0, "float32")]
    assert _value(t.gradient(v1, v1)) == (1.0, "float32")


def test_a_list_or_dict_of_targets_including_a_variable(v0, v1):
    with tf.GradientTape() as t:
        y = v0 * v1
    assert _values(t.gradient([v0, y], [v0, v1])) == [(4.0, "float32"), (2.0, "float32")]
    with tf.GradientTape() as t:
        y = v0 * v1
    assert _values(t.gradient({"a": v0, "b": y}, [v0, v1])) == [(4.0, "float32"), (2.0, "float32")]


def test_output_gradients_and_unwatched_variables(v0, v1):
    with tf.GradientTape() as t:
        pass
    assert _values(t.gradient(v0, [v0, v1], output_gradients=tf.constant(5.0))) == [(5.0, "float32"), None]
    with tf.GradientTape(watch_accessed_variables=False) as t:
        pass
    assert _values(t.gradient(v0, [v0, v1])) == [(1.0, "float32"), None]
    with tf.GradientTape() as t:
        pass
    assert _value(t.gradient(v0, v0, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == (1.0, "float32")


def test_jacobian_of_a_variable():
    matrix = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    v1 = tf.Variable(3.0)
    with tf.GradientTape() as t:
        pass
    jacobian, other = t.jacobian(matrix, [matrix, v1])
    assert other is None and jacobian.dtype == tf.float32 and jacobian.shape == (2, 2, 2, 2)
    np.testing.assert_array_equal(jacobian.numpy(), np.eye(4, dtype=np.float32).reshape(2, 2, 2, 2))


def test_inside_a_function(v0, v1):
    @tf.function
    def self_gradient():
        with tf.GradientTape() as t:
            pass
        return t.gradient(v0, [v0, v1])

    @tf.function
    def with_product():
        with tf.GradientTape() as t:
            y = v0 * v1
        return t.gradient([v0, y], [v0, v1])

    @tf.function
    def argument(v):
        with tf.GradientTape() as t:
            pass
        return t.gradient(v, [v, v1])

    assert _values(self_gradient()) == [(1.0, "float32"), None]
    assert _values(with_product()) == [(4.0, "float32"), (2.0, "float32")]
    assert _values(argument(v0)) == [(1.0, "float32"), None]
