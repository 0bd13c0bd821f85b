"""tf.nn losses (sigmoid_cross_entropy_with_logits, weighted_cross_entropy_with_logits,
log_poisson_loss, compute_average_loss, scale_regularization_loss) and embedding_lookup: values,
errors and gradients recorded from TF 2.21 (nn_golden_cases.py), plus finite differences."""

import numpy as np
import pytest

import graphfn as tf
import nn_golden_cases

_LABELS = "[0.0, 1.0, 0.5, 1.0, 0.0, 0.25, 1.0]"
_TABLE = "[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [0.5, -0.5]]"

CASES = [
    # sigmoid_cross_entropy_with_logits
    "tf.nn.sigmoid_cross_entropy_with_logits(labels=%s, logits=X)" % _LABELS,
    "tf.nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0, 0.5], logits=[-20.0, 20.0, 1.0])",
    "tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([[0.0, 1.0]], tf.float64), "
    "logits=tf.constant([[-2.0, 3.0]], tf.float64))",
    "graph(lambda l, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=l, logits=x), tf.constant(%s), tf.constant(X))"
    % _LABELS,
    "grads(lambda l, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=l, logits=x), %s, X)" % _LABELS,
    "tf.nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0], logits=[-20.0, 20.0, 1.0])",
    "tf.nn.sigmoid_cross_entropy_with_logits(logits=[1.0])",
    "tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1]), logits=tf.constant([1.0]))",
    # weighted_cross_entropy_with_logits
    "tf.nn.weighted_cross_entropy_with_logits(%s, X, 2.0)" % _LABELS,
    "tf.nn.weighted_cross_entropy_with_logits([0.0, 1.0, 0.5], [-2.0, 3.0, 1.0], tf.constant([0.5, 2.0, 3.0]))",
    "grads(lambda l, x: tf.nn.weighted_cross_entropy_with_logits(l, x, 3.0), %s, X)" % _LABELS,
    "tf.nn.weighted_cross_entropy_with_logits([0.0, 1.0], [-2.0, 3.0, 1.0], 2.0)",
    # log_poisson_loss
    "tf.nn.log_poisson_loss([0.0, 1.0, 3.0, 0.5, 10.0], [-1.0, 0.5, 2.0, 0.0, 2.3])",
    "tf.nn.log_poisson_loss([0.0, 1.0, 3.0, 0.5, 10.0], [-1.0, 0.5, 2.0, 0.0, 2.3], compute_full_loss=True)",
    "tf.nn.log_poisson_loss(tf.constant([2.0, 7.0], tf.float64), tf.constant([0.3, 1.9], tf.float64), True)",
    "grad(lambda x: tf.nn.log_poisson_loss([0.0, 1.0, 3.0, 0.5, 10.0], x, compute_full_loss=True), "
    "[-1.0, 0.5, 2.0, 0.0, 2.3])",
    "grad(lambda t: tf.nn.log_poisson_loss(t, [-1.0, 0.5, 2.0], compute_full_loss=True), [2.0, 1.5, 3.0])",
    "tf.nn.log_poisson_loss([0.0, 1.0], [-1.0, 0.5, 2.0])",
    # compute_average_loss, scale_regularization_loss
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0])",
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0], sample_weight=[1.0, 0.0, 2.0])",
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0], sample_weight=0.5)",
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6)",
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=0)",
    "tf.nn.compute_average_loss([1, 2, 3])",
    "tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0], tf.float64))",
    "tf.nn.compute_average_loss([[1.0, 2.0], [3.0, 4.0]])",
    "graph(tf.nn.compute_average_loss, tf.constant([1.0, 2.0, 3.0, 4.0]))",
    "grad(tf.nn.compute_average_loss, [1.0, 2.0, 3.0, 4.0])",
    "tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6.0)",
    "tf.nn.compute_average_loss(3.0)",
    "tf.nn.scale_regularization_loss(3.0)",
    "tf.nn.scale_regularization_loss([1.0, 2.0])",
    "tf.nn.scale_regularization_loss([tf.constant(1.0), tf.constant(2.5)])",
    "tf.nn.scale_regularization_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]]))",
    "tf.nn.scale_regularization_loss(3)",
    # embedding_lookup
    "tf.nn.embedding_lookup(tf.constant(%s), [2, 0, 2])" % _TABLE,
    "tf.nn.embedding_lookup(tf.constant(%s), [[3, 1], [0, 0]])" % _TABLE,
    "tf.nn.embedding_lookup(tf.constant(%s), tf.constant([1, 3], tf.int64))" % _TABLE,
    "tf.nn.embedding_lookup(tf.constant(%s), [2, 0, 3], max_norm=2.0)" % _TABLE,
    "tf.nn.embedding_lookup(%s, [2, 0])" % _TABLE,
    "tf.nn.embedding_lookup(%s, [[2, 0]], max_norm=2.0)" % _TABLE,
    "tf.nn.embedding_lookup([tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[5.0, 6.0]])], [0, 1, 2])",
    "tf.nn.embedding_lookup([tf.constant([[1.0], [2.0]]), tf.constant([[3.0], [4.0]]), tf.constant([[5.0]])], "
    "[4, 0, 2, 3])",
    "tf.nn.embedding_lookup([tf.constant(%s)], [3])" % _TABLE,
    "graph(lambda p, i: tf.nn.embedding_lookup(p, i), tf.constant(%s), tf.constant([3, 3, 1]))" % _TABLE,
    "tf.convert_to_tensor(grad(lambda p: tf.nn.embedding_lookup(p, [2, 0, 2]) * 2.0, %s))" % _TABLE,
    "tf.convert_to_tensor(grad(lambda p: tf.nn.embedding_lookup(p, [2, 1], max_norm=2.0), %s))" % _TABLE,
    "tf.nn.embedding_lookup(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [5])",
    "tf.nn.embedding_lookup([], [0])",
    "tf.nn.embedding_lookup(tf.constant([[1.0]]), [0.0])",
]

GOLDENS = nn_golden_cases.load()


@pytest.mark.parametrize("case", CASES)
def test_matches_tensorflow(case):
    expr, tolerance = case if isinstance(case, tuple) else (case, {})
    nn_golden_cases.check(expr, GOLDENS[expr], tf, **{**dict(rtol=1e-5, atol=2e-6), **tolerance})


def test_loss_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    logits = rng.standard_normal(6) * 3
    labels = rng.uniform(0, 1, 6)
    ns = nn_golden_cases.namespace(tf)
    losses = [lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(labels), logits=x),
              lambda x: tf.nn.weighted_cross_entropy_with_logits(tf.constant(labels), x, 2.5),
              lambda x: tf.nn.log_poisson_loss(tf.constant(labels * 4), x, compute_full_loss=True)]
    for loss in losses:
        analytic = ns["grad"](loss, logits, "float64").numpy()
        eps = 1e-6
        numeric = [(loss(tf.constant(logits + eps * e)).numpy().sum() - loss(tf.constant(logits - eps * e)).numpy().sum())
                   / (2 * eps) for e in np.eye(6)]
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)
