"""tf.random sampling beyond uniform/normal and tf.random.Generator: the moments of each
distribution with a fixed seed (samples need not be TF's bits), determinism of the stateless ops
and generators, shapes and dtypes and errors as TF 2.21 gives them (recorded from TF)."""

import numpy as np
import pytest

import graphfn as tf
from graphfn import errors

N = 20000


def _sd_of_mean(var, n=N):
    return np.sqrt(var / n)


def test_truncated_normal_moments():
    tf.random.set_seed(11)
    x = tf.random.truncated_normal([N], mean=1.0, stddev=2.0).numpy()
    assert x.dtype == np.float32
    assert np.abs(x - 1.0).max() < 4.0  # within two standard deviations
    assert abs(x.mean() - 1.0) < 5 * _sd_of_mean(4 * 0.7737)
    assert abs(x.std() - 2 * 0.8796) < 0.03  # sd of N(0, 1) truncated to (-2, 2) is 0.8796


def test_shuffle_is_a_permutation_along_axis_0():
    tf.random.set_seed(12)
    x = np.arange(30).reshape(10, 3)
    out = tf.random.shuffle(x).numpy()
    assert sorted(map(tuple, out)) == sorted(map(tuple, x))
    positions = np.zeros((5, 5))
    for _ in range(500):
        positions[np.arange(5), tf.random.shuffle(np.arange(5)).numpy()] += 1
    assert positions.min() > 60  # each element lands at each position ~100 times
    assert float(tf.random.shuffle(3.0)) == 3.0


def test_categorical_frequencies():
    tf.random.set_seed(13)
    probs = np.array([[0.1, 0.2, 0.7], [0.5, 0.0, 0.5]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs)  # -inf for the impossible class
    samples = tf.random.categorical(logits, N)
    assert samples.dtype == tf.int64 and samples.shape == (2, N)
    for row, p in zip(samples.numpy(), probs):
        freq = np.bincount(row, minlength=3) / N
        np.testing.assert_allclose(freq, p, atol=0.015)
    assert tf.random.categorical([[0.0, 1.0]], 4, dtype=tf.int32).dtype == tf.int32


def test_stateless_categorical_is_deterministic():
    logits = np.log([[0.3, 0.7]])
    a = tf.random.stateless_categorical(logits, 1000, seed=[4, 5]).numpy()
    np.testing.assert_array_equal(a, tf.random.stateless_categorical(logits, 1000, seed=[4, 5]).numpy())
    assert abs(a.mean() - 0.7) < 0.05


@pytest.mark.parametrize("alpha, beta", [(0.5, 2.0), (3.0, 1.0), (20.0, 0.5)])
def test_gamma_moments(alpha, beta):
    tf.random.set_seed(14)
    x = tf.random.gamma([N], alpha, beta=beta).numpy()
    mean, var = alpha / beta, alpha / beta ** 2
    assert x.min() > 0
    assert abs(x.mean() - mean) < 5 * _sd_of_mean(var)
    assert abs(x.var() - var) < 0.1 * var


def test_gamma_and_poisson_shapes():
    assert tf.random.gamma([2], [[1.0, 2.0]], beta=[1.0, 1.0]).shape == (2, 1, 2)
    assert tf.random.poisson([2, 3], [[1.0, 2.0]]).shape == (2, 3, 1, 2)
    assert tf.random.poisson([2], [1.0, 2.0], dtype=tf.int32).dtype == tf.int32


@pytest.mark.parametrize("lam", [0.5, 4.0, 30.0, 500.0])
def test_poisson_moments(lam):
    tf.random.set_seed(15)
    x = tf.random.poisson([N], lam).numpy()
    assert np.all(x == np.round(x)) and x.min() >= 0
    assert abs(x.mean() - lam) < 5 * _sd_of_mean(lam)
    assert abs(x.var() - lam) < 0.1 * lam


@pytest.mark.parametrize("n, p", [(10.0, 0.3), (200.0, 0.6), (5000.0, 0.01), (40.0, 0.95), (1e6, 1e-5), (1e18, 1e-17)])
def test_stateless_binomial_moments(n, p):
    x = tf.random.stateless_binomial([N], seed=[7, 8], counts=n, probs=p).numpy()
    assert x.dtype == np.int32 and x.min() >= 0 and x.max() <= n
    mean, var = n * p, n * p * (1 - p)
    assert abs(x.mean() - mean) < 5 * _sd_of_mean(var)
    assert abs(x.var() - var) < 0.1 * var
    np.testing.assert_array_equal(x, tf.random.stateless_binomial([N], seed=[7, 8], counts=n, probs=p).numpy())


def test_uniform_int_dtypes():
    tf.random.set_seed(16)
    x = tf.random.uniform([N], minval=-3, maxval=4, dtype=tf.int64).numpy()
    assert x.dtype == np.int64 and set(np.unique(x)) == set(range(-3, 4))


def test_generator_from_seed_is_reproducible():
    g1, g2 = tf.random.Generator.from_seed(3), tf.random.Generator.from_seed(3)
    a = g1.normal([5])
    np.testing.assert_array_equal(a.numpy(), g2.normal([5]).numpy())
    assert not np.array_equal(a.numpy(), g1.normal([5]).numpy())  # the state moved on
    assert g1.state.dtype == tf.int64 and g1.state.shape == (3,)
    assert g1.algorithm == 1


def test_generator_distributions():
    g = tf.random.Generator.from_seed(21)
    u = g.uniform([N], minval=2.0, maxval=4.0).numpy()
    assert u.min() >= 2 and u.max() < 4 and abs(u.mean() - 3) < 0.02
    n = g.normal([N], mean=-1.0, stddev=3.0).numpy()
    assert abs(n.mean() + 1) < 0.1 and abs(n.std() - 3) < 0.06
    ints = g.uniform([N], minval=0, maxval=6, dtype=tf.int32).numpy()
    assert set(np.unique(ints)) == set(range(6))
    t = g.truncated_normal([N]).numpy()
    assert np.abs(t).max() < 2


def test_generator_split_and_functions():
    g = tf.random.Generator.from_seed(5)
    children = g.split(3)
    draws = [c.normal([4]).numpy() for c in children]
    assert len({d.tobytes() for d in draws}) == 3
    f = tf.function(lambda: g.uniform([3]))
    first, second = f().numpy(), f().numpy()
    assert not np.array_equal(first, second)  # the traced draw advances the variable
    ng = tf.random.Generator.from_non_deterministic_state()
    assert ng.normal([2]).shape == (2,)
    assert tf.random.get_global_generator() is tf.random.get_global_generator()


# (expression, TF's exception type, TF's message), recorded from TF 2.21.
ERRORS = [
    (lambda: tf.random.categorical([1.0, 2.0], 3), errors.InvalidArgumentError,
     "logits should be a matrix, got shape [2]"),
    (lambda: tf.random.categorical([[1.0, 2.0]], -1), errors.InvalidArgumentError,
     "num_samples should be non-negative, got -1"),
    (lambda: tf.random.categorical([[1.0, 2.0]], 3, dtype=tf.float32), ValueError,
     "Argument `dtype` got invalid value <dtype: 'float32'>. Accepted dtypes are (tf.int32, tf.int64)."),
    (lambda: tf.random.categorical(tf.zeros([2, 0]), 3), errors.InvalidArgumentError,
     "num_classes should be positive, got 0"),
    (lambda: tf.random.categorical([[1.0, 2.0]], [3]), errors.InvalidArgumentError,
     "num_samples should be a scalar, got shape [1]"),
    (lambda: tf.random.truncated_normal([-1]), errors.InvalidArgumentError, "Dimension -1 must be >= 0"),
    (lambda: tf.random.stateless_binomial([3], [1, 2], counts=[1.0, 2.0], probs=0.5), errors.InvalidArgumentError,
     "Shape passed in must end with broadcasted shape."),
    (lambda: tf.random.stateless_categorical([[1.0, 2.0]], 3, seed=[1, 2, 3]), errors.InvalidArgumentError,
     "seed must have shape [2], not [3]"),
    (lambda: tf.random.Generator.from_seed(1).uniform([2], dtype=tf.int32), ValueError,
     "For integer dtype <dtype: 'int32'>, minval and maxval must be both `None` or both non-`None`; got minval=0 "
     "and maxval=None"),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_tensorflow(index):
    expr, error, message = ERRORS[index]
    with pytest.raises(error) as info:
        expr()
    assert message in str(info.value)


def test_split_and_fold_in():
    # Shapes and dtypes as TF's: [num, 2] of the seed's dtype; fold_in gives [drawn, data].
    seeds = tf.random.split([1, 2])
    assert seeds.dtype == tf.int32 and seeds.shape == (2, 2)
    wide = tf.random.split(tf.constant([1, 2], tf.int64), 3)
    assert wide.dtype == tf.int64 and wide.shape == (3, 2)
    np.testing.assert_array_equal(seeds.numpy(), tf.random.split([1, 2]).numpy())
    assert len({tuple(s) for s in wide.numpy()}) == 3
    folded = tf.random.fold_in([1, 2], 7).numpy()
    assert folded.shape == (2,) and folded[1] == 7
    assert not np.array_equal(tf.random.stateless_normal([4], seed=tf.random.fold_in([1, 2], 1)).numpy(),
                              tf.random.stateless_normal([4], seed=tf.random.fold_in([1, 2], 2)).numpy())


def test_random_gamma_grad_op_matches_tensorflow():
    from graphfn.ops._op_table import ops
    # Recorded from TF 2.21: gen_random_ops.random_gamma_grad(alpha, sample).
    got = ops.RandomGammaGrad([0.5, 1.0, 3.0, 20.0, 0.1], [0.3, 1.2, 2.5, 25.0, 1e-4]).numpy()
    np.testing.assert_allclose(got, [1.0098021, 1.2854731, 0.9633619, 1.1250503, 0.00878747], rtol=1e-5)
    got = ops.RandomGammaGrad([[0.5], [2.0]], [0.3, 1.2, 2.5]).numpy()
    np.testing.assert_allclose(got, [[1.0098021, 2.0370884, 2.7304873], [0.35917112, 0.8307635, 1.2123193]],
                               rtol=1e-5)


@pytest.mark.parametrize("in_function", [False, True])
def test_gamma_reparameterization_gradient(in_function):
    # d E[x] / d alpha = 1 / beta and d E[x] / d beta = -alpha / beta^2 (TF gives the same).
    alpha = tf.constant([0.5, 2.0, 7.0])
    beta = tf.constant([1.0, 0.5, 3.0])

    def grads(alpha, beta):
        with tf.GradientTape() as tape:
            tape.watch(alpha)
            tape.watch(beta)
            mean = tf.reduce_mean(tf.random.gamma([N], alpha, beta=beta, seed=1), axis=0)
            total = tf.reduce_sum(mean)
        return tape.gradient(total, [alpha, beta])

    tf.random.set_seed(17)
    d_alpha, d_beta = (tf.function(grads) if in_function else grads)(alpha, beta)
    np.testing.assert_allclose(d_alpha.numpy(), 1 / beta.numpy(), rtol=0.04)
    np.testing.assert_allclose(d_beta.numpy(), -alpha.numpy() / beta.numpy() ** 2, rtol=0.04)
