"""Gradients of the shape/indexing and sorting ops checked against central finite differences of
the ops themselves (float64), eagerly and inside tf.function (symbolic differentiation). TF's
recorded gradient values are in the golden tables (shape_index_cases.py, `grad(...)` rows)."""

import numpy as np
import pytest

import graphfn as tf

RNG = np.random.default_rng(3)

CASES = {
    "tile": (lambda x: tf.tile(x, [2, 3]), [(2, 3)]),
    "split": (lambda x: tf.split(x, [1, 2], axis=1)[1] * 3.0, [(3, 3)]),
    "split_even": (lambda x: tf.concat(tf.split(x, 2, axis=0)[::-1], 1), [(4, 2)]),
    "pad_constant": (lambda x: tf.pad(x, [[1, 2], [0, 1]], constant_values=7.0), [(2, 3)]),
    "pad_reflect": (lambda x: tf.pad(x, [[2, 1], [1, 2]], "REFLECT"), [(3, 4)]),
    "pad_symmetric": (lambda x: tf.pad(x, [[2, 2], [1, 0]], "SYMMETRIC"), [(3, 2)]),
    "reverse": (lambda x: tf.reverse(x, [0, 1]), [(2, 3)]),
    "roll": (lambda x: tf.roll(x, [1, -2], [0, 1]), [(3, 4)]),
    "repeat": (lambda x: tf.repeat(x, [2, 0, 3], axis=1), [(2, 3)]),
    "linspace": (lambda a, b: tf.linspace(a, b, 5, axis=-1), [(3,), (3,)]),
    "gather_nd": (lambda p: tf.gather_nd(p, [[1, 0], [1, 0], [2, 2]]), [(3, 3)]),
    "gather_nd_slices": (lambda p: tf.gather_nd(p, [[[2]], [[0]]]), [(3, 2, 2)]),
    "gather_nd_batch": (lambda p: tf.gather_nd(p, [[[1]], [[0]]], batch_dims=1), [(2, 2, 3)]),
    "scatter_nd": (lambda u: tf.scatter_nd([[3], [1], [3]], u, [5, 2]), [(3, 2)]),
    "tensor_scatter_update": (lambda t, u: tf.tensor_scatter_nd_update(t, [[0, 1], [2, 0]], u), [(3, 2), (2,)]),
    "tensor_scatter_add": (lambda t, u: tf.tensor_scatter_nd_add(t, [[1], [1]], u), [(3, 2), (2, 2)]),
    "tensor_scatter_sub": (lambda t, u: tf.tensor_scatter_nd_sub(t, [[2]], u), [(3, 2), (1, 2)]),
    "tensor_scatter_max": (lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2]], u), [(4,), (2,)]),
    "tensor_scatter_min": (lambda t, u: tf.tensor_scatter_nd_min(t, [[1], [3]], u), [(4,), (2,)]),
    "sort": (lambda x: tf.sort(x), [(7,)]),
    "sort_rows_descending": (lambda x: tf.sort(x, direction="DESCENDING"), [(3, 5)]),
    "sort_axis0": (lambda x: tf.sort(x, axis=0), [(4, 3)]),
    "ensure_shape": (lambda x: tf.ensure_shape(x, [None, 2]) * x, [(3, 2)]),
    "identity_n": (lambda x, y: tf.identity_n([x * y, y])[0], [(2,), (2,)]),
}


def _loss(f, xs):
    y = f(*xs)
    weights = tf.reshape(tf.cast(tf.range(tf.size(y)) % 7 - 3, y.dtype), tf.shape(y))  # distinct weights
    return tf.reduce_sum(y * weights)


def _numeric(f, arrays, eps=1e-6):
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            plus = [b.copy() for b in arrays]
            minus = [b.copy() for b in arrays]
            plus[k][i] += eps
            minus[k][i] -= eps
            hi = float(_loss(f, [tf.constant(b) for b in plus]).numpy())
            lo = float(_loss(f, [tf.constant(b) for b in minus]).numpy())
            g[i] = (hi - lo) / (2 * eps)
        grads.append(g)
    return grads


def _analytic(f, arrays, in_function):
    def compute(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            loss = _loss(f, xs)
        return tape.gradient(loss, list(xs))
    if in_function:
        compute = tf.function(compute)
    return [g.numpy() for g in compute(*[tf.constant(a) for a in arrays])]


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_finite_differences(name, in_function):
    f, shapes = CASES[name]
    # Distinct values, away from ties, so min/max/sort are differentiable at the point.
    arrays = [RNG.permutation(np.prod(s)).reshape(s).astype(np.float64) * 0.37 + 0.1 for s in shapes]
    expected = _numeric(f, arrays)
    for got, want in zip(_analytic(f, arrays, in_function), expected):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_tied_scatter_max_shares_the_gradient_as_tf():
    # TF divides the gradient among the elements equal to the result (recorded: [0.5, 1], [0.5]).
    t, u = tf.constant([2.0, 5.0]), tf.constant([2.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.reduce_sum(tf.tensor_scatter_nd_max(t, [[0]], u))
    gt, gu = tape.gradient(y, [t, u])
    assert gt.numpy().tolist() == [0.5, 1.0] and gu.numpy().tolist() == [0.5]
