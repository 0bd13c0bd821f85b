"""v.assign_sub(c * g) / v.assign_add(g * c) inside a function: the optimizer folds the scalar
product into the update (passes/scaled_updates.h), computed in one pass. The results must be
TF's bits: TF 2.21 runs Mul and then Sub/AddV2, rounding the product first, and its results
were checked equal to NumPy's float32/float64 two-step computation (w - np.float32(c) * g), which
these tests use as the expected values. Products used elsewhere are left alone."""

import numpy as np
import pytest

import graphfn as tf
from graphfn.function import optimizer_options


@pytest.fixture(autouse=True)
def verify_passes():
    saved = optimizer_options._verify
    optimizer_options._verify = True
    yield
    optimizer_options._verify = saved


@pytest.fixture
def unoptimized():
    """Functions traced inside run without arithmetic optimization (no folding)."""
    saved = dict(optimizer_options._options)
    tf.config.optimizer.set_experimental_options({"arithmetic_optimization": False})
    yield
    optimizer_options._options.clear()
    optimizer_options._options.update(saved)


def _data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(), (7,), (784, 128), (3, 1001)])
def test_assign_sub_of_scaled_gradient_has_tf_bits(dtype, shape):
    w0, g = _data(shape, dtype, 1), _data(shape, dtype, 2)
    v = tf.Variable(w0)

    @tf.function
    def step(g):
        v.assign_sub(0.01 * g)
        return v.read_value()

    want = w0 - dtype(0.01) * g
    np.testing.assert_array_equal(step(tf.constant(g)).numpy(), want)
    np.testing.assert_array_equal(step(tf.constant(g)).numpy(), want - dtype(0.01) * g)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_assign_add_with_factor_on_the_right(dtype):
    w0, g = _data((513, 65), dtype, 3), _data((513, 65), dtype, 4)
    v = tf.Variable(w0)

    @tf.function
    def step(g):
        v.assign_add(g * -0.37)

    step(tf.constant(g))
    np.testing.assert_array_equal(v.numpy(), w0 + g * dtype(-0.37))


def test_special_values_follow_ieee():
    w0 = np.array([1.0, -0.0, np.inf, np.nan, 3e38, -3e38, 1e-45], np.float32)
    g = np.array([0.0, 0.0, 1.0, 1.0, -3e38, 3e38, -1e-45], np.float32)
    v = tf.Variable(w0)

    @tf.function
    def step(g):
        v.assign_sub(2.0 * g)

    step(tf.constant(g))
    with np.errstate(over="ignore", invalid="ignore"):
        want = w0 - np.float32(2.0) * g
    np.testing.assert_array_equal(v.numpy(), want)
    assert np.signbit(v.numpy()[1]) == np.signbit(want[1])


def test_product_used_elsewhere_is_still_computed():
    w0, g = _data((64, 10), np.float32, 5), _data((64, 10), np.float32, 6)
    v = tf.Variable(w0)

    @tf.function
    def step(g):
        delta = 0.5 * g
        v.assign_sub(delta)
        return delta

    delta = step(tf.constant(g)).numpy()
    np.testing.assert_array_equal(delta, np.float32(0.5) * g)
    np.testing.assert_array_equal(v.numpy(), w0 - np.float32(0.5) * g)


def test_tensor_factor_and_int_variable_are_not_folded():
    v = tf.Variable(np.arange(6, dtype=np.int32))
    w = tf.Variable(np.ones(4, np.float32))

    @tf.function
    def step(c):
        v.assign_sub(2 * tf.range(6))
        w.assign_sub(c * tf.ones(4))

    step(tf.constant(0.25))
    np.testing.assert_array_equal(v.numpy(), np.arange(6) - 2 * np.arange(6))
    np.testing.assert_array_equal(w.numpy(), np.full(4, 0.75, np.float32))


def test_shape_mismatch_at_run_time_raises_the_unfused_error(unoptimized):
    def run():
        v = tf.Variable(np.ones(4, np.float32))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def step(g):
            v.assign_sub(0.5 * g)

        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            step(tf.constant(np.ones(3, np.float32)))
        return type(info.value), str(info.value).split("\n")[0], v.numpy()

    unfused = run()
    tf.config.optimizer.set_experimental_options({"arithmetic_optimization": True})
    fused = run()
    assert fused[:2] == unfused[:2]
    np.testing.assert_array_equal(fused[2], np.ones(4, np.float32))


def _mlp_step_losses_and_weights(steps):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((64, 784)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, 64).astype(np.int32))
    params = [tf.Variable(rng.standard_normal((784, 128)).astype(np.float32) * 0.05),
              tf.Variable(np.zeros(128, np.float32)),
              tf.Variable(rng.standard_normal((128, 10)).astype(np.float32) * 0.05),
              tf.Variable(np.zeros(10, np.float32))]

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, params[0]) + params[1])
            logits = tf.matmul(h, params[2]) + params[3]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.01 * g)
        return loss

    losses = [step(x, y).numpy() for _ in range(steps)]
    return losses, [p.numpy() for p in params]


def test_train_step_equals_the_unfused_one_bitwise(unoptimized):
    losses, weights = _mlp_step_losses_and_weights(5)
    tf.config.optimizer.set_experimental_options({"arithmetic_optimization": True})
    fused_losses, fused_weights = _mlp_step_losses_and_weights(5)
    assert fused_losses == losses
    for a, b in zip(fused_weights, weights):
        np.testing.assert_array_equal(a, b)
