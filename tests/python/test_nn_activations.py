"""tf.nn activations (elu, selu, relu6, leaky_relu, softplus, softsign, gelu, silu/swish) and
dropout: values, dtypes, errors, gradients and second derivatives recorded from TF 2.21
(nn_golden_cases.py), finite differences, and dropout's kept fraction and scaling."""

import numpy as np
import pytest

import graphfn as tf
import nn_golden_cases

CASES = [
    # values, float32 and float64
    "tf.nn.elu(X)",
    "tf.nn.elu(tf.constant(X, tf.float64))",
    "tf.nn.selu(X)",
    "tf.nn.selu(tf.constant(X, tf.float64))",
    "tf.nn.relu6(X)",
    "tf.nn.relu6([-3, 0, 4, 9])",
    "tf.nn.relu6(tf.constant([-3, 4, 9], tf.int64))",
    "tf.nn.relu6(tf.constant([1, 200], tf.uint8))",
    "tf.nn.relu6(tf.constant(X, tf.float64))",
    "tf.nn.leaky_relu(X)",
    "tf.nn.leaky_relu(X, alpha=0.01)",
    "tf.nn.leaky_relu(X, alpha=2.0)",
    "tf.nn.leaky_relu([-2, 3])",
    "tf.nn.leaky_relu(tf.constant(X, tf.float64), alpha=np.float64(0.3))",
    "tf.nn.softplus(X)",
    "tf.nn.softplus([-100.0, -20.0, -14.0, 14.0, 20.0, 100.0])",
    "tf.math.softplus(tf.constant(X, tf.float64))",
    "tf.nn.softplus(tf.constant([-800.0, -40.0, 40.0, 800.0], tf.float64))",
    "tf.nn.softsign(X)",
    "tf.math.softsign(tf.constant(X, tf.float64))",
    "tf.nn.gelu(X)",
    "tf.nn.gelu(X, approximate=True)",
    "tf.nn.gelu(tf.constant(X, tf.float64))",
    "tf.nn.gelu(tf.constant(X, tf.float64), approximate=True)",
    "tf.nn.silu(X)",
    "tf.nn.silu(X, beta=2.0)",
    "tf.nn.swish(tf.constant(X, tf.float64), beta=0.5)",
    "tf.nn.elu(tf.zeros([2, 0]))",
    "tf.nn.dropout(X, 0.0)",
    "tf.nn.dropout(X, 0)",
    # in graphs
    "graph(tf.nn.elu, tf.constant(X))",
    "graph(tf.nn.selu, tf.constant(X))",
    "graph(tf.nn.relu6, tf.constant(X))",
    "graph(lambda x: tf.nn.leaky_relu(x, 0.1), tf.constant(X))",
    "graph(tf.nn.softplus, tf.constant(X))",
    "graph(tf.nn.softsign, tf.constant(X))",
    "graph(tf.nn.gelu, tf.constant(X))",
    "graph(lambda x: tf.nn.silu(x, 1.5), tf.constant(X))",
    "graph(lambda x: grad(tf.nn.elu, x), tf.constant(X))",
    "graph(lambda x: grad(lambda y: tf.nn.leaky_relu(y, 0.25), x), tf.constant(X))",
    # gradients
    "grad(tf.nn.elu, X)",
    "grad(tf.nn.elu, X, 'float64')",
    "grad(tf.nn.selu, X)",
    "grad(tf.nn.relu6, X)",
    "grad(tf.nn.relu6, [6.0, 0.0, 3.0, 6.5])",
    "grad(lambda x: tf.nn.leaky_relu(x, 0.3), X)",
    "grad(tf.nn.leaky_relu, [0.0, -1.0])",
    "grad(tf.nn.softplus, X)",
    "grad(tf.nn.softplus, X, 'float64')",
    "grad(tf.nn.softsign, X)",
    "grad(tf.nn.gelu, X)",
    "grad(lambda x: tf.nn.gelu(x, True), X)",
    "grad(tf.nn.silu, X)",
    "grads(lambda x, b: tf.nn.silu(x, b), X, 1.5)",
    "grad(lambda x: tf.nn.elu(x) * X, X)",
    # second derivatives
    "grad2(tf.nn.elu, X)",
    "grad2(tf.nn.selu, X)",
    "grad2(tf.nn.softplus, X)",
    "grad2(tf.nn.relu6, X)",
    "grad2(lambda x: tf.nn.leaky_relu(x, 0.3), X)",
    "grad2(tf.nn.gelu, X)",
    # errors
    "tf.nn.elu([1, 2])",
    "tf.nn.elu(tf.constant([1, 2]))",
    "tf.nn.selu(tf.constant([1, 2]))",
    "tf.nn.softplus([1, 2])",
    "tf.math.softsign(tf.constant([1]))",
    "tf.nn.relu6([True])",
    "tf.nn.leaky_relu(tf.constant([True]))",
    "tf.nn.gelu([1, 2])",
    "tf.nn.silu([1, 2])",
    "tf.nn.dropout(X, 1.0)",
    "tf.nn.dropout(X, -0.1)",
    "tf.nn.dropout(X, 'a')",
    "tf.nn.dropout(tf.constant([1, 2]), 0.5)",
    "tf.nn.dropout(X, tf.constant(0.5, tf.float64))",
]

GOLDENS = nn_golden_cases.load()


@pytest.mark.parametrize("case", CASES)
def test_matches_tensorflow(case):
    expr, tolerance = case if isinstance(case, tuple) else (case, {})
    nn_golden_cases.check(expr, GOLDENS[expr], tf, **{**dict(rtol=1e-5, atol=2e-6), **tolerance})


def _finite_difference(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    return np.array([(f(x + eps * e).numpy().sum() - f(x - eps * e).numpy().sum()) / (2 * eps)
                     for e in np.eye(x.size).reshape((x.size,) + x.shape)]).reshape(x.shape)


@pytest.mark.parametrize("fn", [tf.nn.elu, tf.nn.selu, tf.nn.relu6, tf.nn.softplus, tf.nn.softsign, tf.nn.gelu,
                                lambda x: tf.nn.gelu(x, approximate=True), lambda x: tf.nn.leaky_relu(x, 0.3),
                                lambda x: tf.nn.silu(x, 1.7)])
def test_gradient_matches_finite_differences(fn):
    x = np.array([-2.5, -0.7, -0.1, 0.3, 1.2, 5.5, 6.4])  # away from the kinks at 0 and 6
    ns = nn_golden_cases.namespace(tf)
    analytic = ns["grad"](lambda t: fn(t), x, "float64").numpy()
    np.testing.assert_allclose(analytic, _finite_difference(lambda t: fn(tf.constant(t)), x), rtol=1e-6, atol=1e-8)


def test_dropout_keeps_the_expected_fraction_scaled():
    x = tf.ones([200, 500])
    for rate in (0.1, 0.5, 0.8):
        y = tf.nn.dropout(x, rate, seed=3).numpy()
        kept = y != 0
        assert abs(kept.mean() - (1 - rate)) < 0.01
        np.testing.assert_allclose(y[kept], 1 / (1 - rate), rtol=1e-6)
        assert y.dtype == np.float32 and y.shape == (200, 500)


def test_dropout_rate_tensor_and_float64():
    y = tf.nn.dropout(tf.ones([100, 100], tf.float64), tf.constant(0.25, tf.float64), seed=1).numpy()
    assert y.dtype == np.float64 and abs((y != 0).mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[y != 0], 1 / 0.75)


def test_dropout_noise_shape_broadcasts_the_mask():
    y = tf.nn.dropout(tf.ones([50, 40]), 0.5, noise_shape=[50, 1], seed=2).numpy()
    assert ((y == 0).all(axis=1) | (y == 2).all(axis=1)).all()  # whole rows kept or dropped
    y = tf.nn.dropout(tf.ones([50, 40]), 0.5, noise_shape=[None, 1], seed=2).numpy()
    assert ((y == 0).all(axis=1) | (y == 2).all(axis=1)).all()


def test_dropout_seeded_in_a_function_is_deterministic_per_seed():
    tf.random.set_seed(7)
    f = tf.function(lambda x: tf.nn.dropout(x, 0.5, seed=11))
    first = f(tf.ones([1000])).numpy()
    tf.random.set_seed(7)
    g = tf.function(lambda x: tf.nn.dropout(x, 0.5, seed=11))
    np.testing.assert_array_equal(first, g(tf.ones([1000])).numpy())
    assert abs((first != 0).mean() - 0.5) < 0.06


def test_dropout_gradient_is_the_mask_scaled():
    x = tf.ones([1000])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, 0.4, seed=5)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_allclose(g, y.numpy())  # x is ones: the output is the gradient


def test_leaky_relu_graph_has_tf_node_names():
    f = tf.function(lambda x: tf.nn.leaky_relu(x, 0.1))
    graph = f.get_concrete_function(tf.TensorSpec([3])).graph
    types = {op.name: op.type for op in graph.get_operations()}
    assert types.get("LeakyRelu") == "LeakyRelu"
