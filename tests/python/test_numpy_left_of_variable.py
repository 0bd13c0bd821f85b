"""A NumPy array or scalar on the left of a Variable (`X_np @ w`, `np.float32(3) * v`): NumPy
defers to the variable, so the result is a tensor of the variable's dtype, a tape sees it, and
it works inside a function. Expected values, dtypes and gradients were printed by TensorFlow 2.21
for the same expressions (v = [[1, 2], [3, 4]] float32, X = [[1, .5], [2, -1]] float32)."""

import operator

import numpy as np
import pytest

import graphfn as tf

X = np.array([[1.0, 0.5], [2.0, -1.0]], dtype=np.float32)

# (operator, TF's dtype, TF's value of `X op v`)
CASES = [
    (operator.matmul, tf.float32, [[2.5, 4.0], [-1.0, 0.0]]),
    (operator.add, tf.float32, [[2.0, 2.5], [5.0, 3.0]]),
    (operator.sub, tf.float32, [[0.0, -1.5], [-1.0, -5.0]]),
    (operator.mul, tf.float32, [[1.0, 1.0], [6.0, -4.0]]),
    (operator.truediv, tf.float32, [[1.0, 0.25], [0.6666666865348816, -0.25]]),
    (operator.floordiv, tf.float32, [[1.0, 0.0], [0.0, -1.0]]),
    (operator.mod, tf.float32, [[0.0, 0.5], [2.0, 3.0]]),
    (operator.pow, tf.float32, [[1.0, 0.25], [8.0, 1.0]]),
    (operator.lt, tf.bool, [[False, True], [True, True]]),
    (operator.ge, tf.bool, [[True, False], [False, False]]),
    (operator.eq, tf.bool, [[True, False], [False, False]]),
]


def _variable():
    return tf.Variable([[1.0, 2.0], [3.0, 4.0]])


@pytest.mark.parametrize("op,dtype,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_numpy_on_the_left_gives_a_tensor(op, dtype, expected):
    result = op(X, _variable())
    assert isinstance(result, tf.Tensor)
    assert result.dtype == dtype
    np.testing.assert_allclose(result.numpy(), expected)


@pytest.mark.parametrize("op,dtype,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_numpy_on_the_left_inside_a_function(op, dtype, expected):
    v = _variable()

    @tf.function
    def f():
        return op(X, v)

    result = f()
    assert isinstance(result, tf.Tensor) and result.dtype == dtype
    np.testing.assert_allclose(result.numpy(), expected)


def test_numpy_scalars_and_other_dtypes_take_the_variables_dtype():
    v = _variable()
    for left in (np.float32(3), np.float64(3)):
        result = left * v
        assert isinstance(result, tf.Tensor) and result.dtype == tf.float32
        assert result.numpy().tolist() == [[3.0, 6.0], [9.0, 12.0]]
    result = X.astype(np.float64) + v
    assert result.dtype == tf.float32 and result.numpy().tolist() == [[2.0, 2.5], [5.0, 3.0]]
    result = np.array([[1, 2], [3, 4]]) + v
    assert result.dtype == tf.float32 and result.numpy().tolist() == [[2.0, 4.0], [6.0, 8.0]]


def test_tape_gives_the_gradient():
    v = _variable()
    with tf.GradientTape(persistent=True) as t:
        matmul = tf.reduce_sum(X @ v)
        scaled = tf.reduce_sum(np.float32(3) * v)
        difference = tf.reduce_sum(X - v)
        quotient = tf.reduce_sum(X / v)
    assert t.gradient(matmul, v).numpy().tolist() == [[3.0, 3.0], [-0.5, -0.5]]
    assert t.gradient(scaled, v).numpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert t.gradient(difference, v).numpy().tolist() == [[-1.0, -1.0], [-1.0, -1.0]]
    np.testing.assert_allclose(t.gradient(quotient, v).numpy(), [[-1.0, -0.125], [-0.2222222238779068, 0.0625]])


def test_tape_gives_the_gradient_inside_a_function():
    v = _variable()

    @tf.function
    def gradient():
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(X @ v) + tf.reduce_sum(np.float32(3) * v)
        return t.gradient(loss, v)

    assert gradient().numpy().tolist() == [[6.0, 6.0], [2.5, 2.5]]


def test_a_new_users_training_loop_trains():
    w = tf.Variable(np.zeros((2, 1), np.float32))
    y = np.array([[1.0], [2.0]], np.float32)
    optimizer = tf.keras.optimizers.SGD(0.1)
    for _ in range(3):
        with tf.GradientTape() as t:
            loss = tf.reduce_mean((X @ w - y) ** 2)
        optimizer.apply_gradients(zip(t.gradient(loss, [w]), [w]))
    np.testing.assert_allclose(w.numpy(), [[0.832812488079071], [-0.2213437557220459]], rtol=1e-6)
    np.testing.assert_allclose(float(loss), 0.12792281806468964, rtol=1e-6)
