"""tf.nn normalization: bias_add (BiasAdd/BiasAddGrad), batch_normalization, moments,
weighted_moments, FusedBatchNormV3 and its gradient, local_response_normalization (LRN),
l2_normalize and l2_loss. Values, errors and gradients recorded from TF 2.21
(nn_golden_cases.py), plus finite differences."""

import numpy as np
import pytest

import graphfn as tf
import nn_golden_cases

_STATS = "tf.constant(CHANNELS), tf.constant([1.0, 2.0, 0.5, 3.0])"
_AFFINE = "tf.constant([0.1, 0.2, 0.3, 0.4]), tf.constant([1.0, -1.0, 2.0, 0.5])"
_FBN_TRAIN = "fbn(tf.constant(X4), tf.constant([1.0, 2.0, 3.0, 0.5]), tf.constant([0.0, 1.0, 0.5, -1.0]), "

CASES = [
    # bias_add
    "tf.nn.bias_add(X4, CHANNELS)",
    "tf.nn.bias_add(tf.constant(X4), tf.constant(CHANNELS))",
    "tf.nn.bias_add(tf.transpose(X4, [0, 3, 1, 2]), CHANNELS, data_format='NCHW')",
    "tf.nn.bias_add(tf.ones([2, 4, 3]), CHANNELS, data_format='NCW')",
    "tf.nn.bias_add(tf.ones([2, 3, 4]), CHANNELS, data_format='NWC')",
    "tf.nn.bias_add(tf.ones([3, 4]), CHANNELS, data_format='NCHW')",
    "tf.nn.bias_add([[1, 2], [3, 4]], [10, 20])",
    "tf.nn.bias_add(tf.constant([[1, 2]], tf.int64), tf.constant([5, 6], tf.int64))",
    "tf.nn.bias_add(tf.ones([2, 3], tf.float64), [1.0, 2.0, 3.0])",
    "graph(lambda x, b: tf.nn.bias_add(x, b, data_format='NCHW'), tf.transpose(X4, [0, 3, 1, 2]), tf.constant(CHANNELS))",
    "grads(lambda x, b: tf.nn.bias_add(x, b) * X4, X4, CHANNELS)",
    "grads(lambda x, b: tf.nn.bias_add(x, b, data_format='NCHW') ** 2, tf.transpose(X4, [0, 3, 1, 2]), CHANNELS)",
    "grad(lambda b: grads(lambda x, c: tf.nn.bias_add(x, c) ** 2, X4, b)[1] ** 2, CHANNELS)",
    "graph(lambda x, b: grads(lambda y, c: tf.nn.bias_add(y, c) * y, x, b), tf.constant(X4), tf.constant(CHANNELS))",
    "tf.nn.bias_add(tf.ones([2, 3]), [1.0, 2.0])",
    "tf.nn.bias_add(tf.ones([2, 3]), tf.ones([2]))",
    "tf.nn.bias_add([1.0, 2.0], [1.0, 2.0])",
    "tf.nn.bias_add(tf.ones([2, 3]), tf.ones([1, 3]))",
    "tf.nn.bias_add(tf.ones([2, 3, 4, 5]), tf.ones([4]), data_format='NCHW')",
    "tf.nn.bias_add(tf.ones([2, 3]), tf.ones([3]), data_format='HWC')",
    "tf.nn.bias_add([[True]], [True])",
    "tf.nn.bias_add(tf.ones([2, 3]), tf.constant([1, 2, 3]))",
    "graph(tf.nn.bias_add, tf.ones([2, 3]), tf.ones([2]))",
    "graph(tf.nn.bias_add, tf.ones([3]), tf.ones([3]))",
    "graph(tf.nn.bias_add, tf.ones([2, 3]), tf.ones([1, 3]))",
    # batch_normalization
    "tf.nn.batch_normalization(X4, %s, %s, 1e-3)" % (_STATS, _AFFINE),
    "tf.nn.batch_normalization(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), 1.0, 2.0, 0.5, 2.0, 1e-3)",
    "tf.nn.batch_normalization(X4, %s, None, None, 0.01)" % _STATS,
    "tf.nn.batch_normalization(tf.constant(X4, tf.float64), tf.constant(CHANNELS, tf.float64), 2.0, None, None, 0.0)",
    "grads(lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3) * X4, X4, CHANNELS, "
    "[1.0, 2.0, 0.5, 3.0], [0.1, 0.2, 0.3, 0.4], [1.0, -1.0, 2.0, 0.5])",
    "graph(lambda x, m, v: tf.nn.batch_normalization(x, m, v, 0.5, 2.0, 1e-3), tf.constant(X4), %s)" % _STATS,
    "tf.nn.batch_normalization(X4, [1.0], [1.0], None, None, 1e-3)",
    # moments, weighted_moments
    "tf.nn.moments(X4, [0, 1, 2])",
    "tf.nn.moments(X4, [0, 1, 2], keepdims=True)",
    "tf.nn.moments(X4, [3])",
    "tf.nn.moments(X4, [0, 1, 2], shift=5.0)",
    "tf.nn.moments(tf.constant([1, 2, 4]), [0])",
    "tf.nn.moments(tf.constant([[1.0, 2.0]]), [])",
    "tf.nn.moments(tf.constant([[1.0, 2.0]]), -1)",
    "tf.nn.moments(tf.constant([1.0, 2.0, 4.0], tf.float64), [0], keepdims=True)",
    "tf.nn.moments(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [0, 1], keepdims=True)",
    "graph(lambda x: tf.nn.moments(x, [0, 1, 2]), tf.constant(X4))",
    "grad(lambda x: tf.nn.moments(x, [0, 1, 2])[1] * CHANNELS + tf.nn.moments(x, [0, 1, 2])[0], X4)",
    "tf.nn.moments(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [2])",
    "tf.nn.weighted_moments(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [1], [[1.0, 2.0, 3.0]])",
    "tf.nn.weighted_moments(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [1], [[1.0, 2.0, 3.0]], keepdims=True)",
    "tf.nn.weighted_moments(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [1], tf.constant([[0.0, 0.0], [1.0, 3.0]]))",
    "tf.nn.weighted_moments(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [0], tf.constant([[1], [2]]))",
    "grads(lambda x, w: tf.nn.weighted_moments(x, [0, 1], w)[1], [[1.0, 2.0], [3.0, 5.0]], [[1.0, 2.0], [0.5, 1.0]])",
    # FusedBatchNormV3 (training and inference) and its gradient
    _FBN_TRAIN + "tf.zeros([0]), tf.zeros([0]), epsilon=0.001)",
    _FBN_TRAIN + "tf.zeros([4]), tf.ones([4]), epsilon=0.001, exponential_avg_factor=0.3)",
    _FBN_TRAIN + "tf.constant(CHANNELS), tf.constant([1.0, 2.0, 0.5, 3.0]), epsilon=0.01, is_training=False)[:3]",
    "fbn(tf.transpose(X4, [0, 3, 1, 2]), tf.constant([1.0, 2.0, 3.0, 0.5]), tf.zeros([4]), tf.zeros([0]), "
    "tf.zeros([0]), data_format='NCHW')[:3]",
    "fbn(tf.reshape(tf.range(48.0), [1, 2, 2, 3, 4]), tf.ones([4]), tf.zeros([4]), tf.zeros([0]), tf.zeros([0]), "
    "data_format='NDHWC')[:3]",
    "fbn(tf.ones([1, 1, 1, 4]), tf.ones([4]), tf.zeros([4]), tf.zeros([0]), tf.zeros([0]))[:3]",
    # x + 1000 keeps 4 digits of x in float32: TF's and graphfn's sums round differently.
    ("fbn(tf.constant(X4) + 1000.0, tf.ones([4]), tf.zeros([4]), tf.zeros([0]), tf.zeros([0]))[:3]", {"atol": 2e-4}),
    "grads(lambda x, s, o: " + _FBN_TRAIN.replace("fbn(tf.constant(X4), tf.constant([1.0, 2.0, 3.0, 0.5]), "
                                                  "tf.constant([0.0, 1.0, 0.5, -1.0]), ", "fbn(x, s, o, ")
    + "tf.zeros([0]), tf.zeros([0]), epsilon=0.001)[0] * X4, X4, [1.0, 2.0, 3.0, 0.5], [0.0, 1.0, 0.5, -1.0])",
    "grads(lambda x, s, o: fbn(x, s, o, tf.constant(CHANNELS), tf.constant([1.0, 2.0, 0.5, 3.0]), epsilon=0.01, "
    "is_training=False)[0] * X4, X4, [1.0, 2.0, 3.0, 0.5], [0.0, 1.0, 0.5, -1.0])",
    "grads(lambda x, s, o: fbn(x, s, o, tf.zeros([0]), tf.zeros([0]), data_format='NCHW')[0] ** 2, "
    "tf.transpose(X4, [0, 3, 1, 2]), [1.0, 2.0, 3.0, 0.5], [0.0, 1.0, 0.5, -1.0])",
    "graph(lambda x, s, o: grads(lambda a, b, c: fbn(a, b, c, tf.zeros([0]), tf.zeros([0]))[0] * X4, x, s, o), "
    "tf.constant(X4), tf.constant([1.0, 2.0, 3.0, 0.5]), tf.constant([0.0, 1.0, 0.5, -1.0]))",
    # second derivatives (the gradient of FusedBatchNormGradV3); float32 compositions with
    # cancellations on both sides: values agree to about 1e-4 of their scale
    ("grads(lambda x, s: (lambda g: tf.reduce_sum(g[0] * X4) + tf.reduce_sum(g[1] * CHANNELS) + tf.reduce_sum(g[2] * g[2]))(grads(lambda a, b, c: fbn(a, b, c, tf.zeros([0]), tf.zeros([0]), epsilon=0.01)[0] ** 2 * X4, x, s, [0.0, 1.0, 0.5, -1.0])), X4, [1.0, 2.0, 3.0, 0.5])", {"atol": 2e-3, "rtol": 1e-3}),
    ("grads(lambda x, s: (lambda g: tf.reduce_sum(g[0] * tf.transpose(X4, [0, 3, 1, 2])) + tf.reduce_sum(g[1] * CHANNELS) + tf.reduce_sum(g[2] * g[2]))(grads(lambda a, b, c: fbn(a, b, c, tf.zeros([0]), tf.zeros([0]), data_format='NCHW')[0] ** 2 * tf.transpose(X4, [0, 3, 1, 2]), x, s, [0.0, 1.0, 0.5, -1.0])), tf.transpose(X4, [0, 3, 1, 2]), [1.0, 2.0, 3.0, 0.5])", {"atol": 2e-3, "rtol": 1e-3}),
    ("grads(lambda x, s: (lambda g: tf.reduce_sum(g[0] * X4) + tf.reduce_sum(g[1] * CHANNELS) + tf.reduce_sum(g[2] * g[2]))(grads(lambda a, b, c: fbn(a, b, c, tf.constant(CHANNELS), tf.constant([1.0, 2.0, 0.5, 3.0]), epsilon=0.01, is_training=False)[0] ** 2 * X4, x, s, [0.0, 1.0, 0.5, -1.0])), X4, [1.0, 2.0, 3.0, 0.5])", {"atol": 2e-3, "rtol": 1e-3}),
    "fbn(tf.ones([2, 2, 4]), tf.ones([4]), tf.zeros([4]), tf.zeros([4]), tf.ones([4]))",
    "fbn(tf.constant(X4), tf.ones([4, 1]), tf.zeros([4]), tf.zeros([4]), tf.ones([4]))",
    "fbn(tf.constant(X4), tf.ones([3]), tf.zeros([4]), tf.zeros([4]), tf.ones([4]))",
    "fbn(tf.constant(X4), tf.ones([4]), tf.zeros([3]), tf.zeros([4]), tf.ones([4]))",
    "fbn(tf.constant(X4), tf.ones([4]), tf.zeros([4]), tf.zeros([3]), tf.ones([4]), is_training=False)",
    "fbn(tf.constant(X4), tf.ones([4]), tf.zeros([4]), tf.zeros([4]), tf.ones([3]), is_training=False)",
    "fbn(tf.constant(X4, tf.float64), tf.ones([4]), tf.zeros([4]), tf.zeros([4]), tf.ones([4]))",
    "fbn(tf.constant(X4), tf.ones([4]), tf.zeros([4]), tf.zeros([4]), tf.ones([4]), data_format='NWC')",
    # local_response_normalization
    "tf.nn.local_response_normalization(X4)",
    "tf.nn.lrn(X4, depth_radius=1, bias=2.0, alpha=0.5, beta=0.75)",
    "tf.nn.lrn(tf.reshape(tf.range(8.0), [1, 1, 2, 4]), depth_radius=1)",
    "tf.nn.lrn(X4, depth_radius=0)",
    "graph(lambda x: tf.nn.lrn(x, 2, 1.5, 0.3, 0.6), tf.constant(X4))",
    "grad(lambda x: tf.nn.lrn(x, 1, 2.0, 0.5, 0.75) * X4, X4)",
    "grad(lambda x: tf.nn.lrn(x) * X4, X4)",
    "tf.nn.lrn(tf.ones([2, 3, 4]))",
    "tf.nn.lrn(tf.ones([1, 1, 2, 4], tf.float64))",
    "tf.nn.lrn(tf.ones([1, 1, 1, 4]), depth_radius=-1)",
    # l2_normalize, l2_loss
    "tf.nn.l2_normalize([3.0, 4.0])",
    "tf.nn.l2_normalize([[3.0, 4.0], [0.0, 0.0]], axis=1)",
    "tf.math.l2_normalize([[3.0, 4.0], [1.0, 2.0]], axis=0)",
    "tf.nn.l2_normalize([[3.0, 4.0]], dim=1)",
    "tf.nn.l2_normalize(tf.constant([1e-8, 0.0], tf.float64), epsilon=1e-4)",
    "tf.nn.l2_normalize(X4, axis=[1, 3])",
    "grad(lambda x: tf.nn.l2_normalize(x, axis=3) * X4, X4)",
    "tf.nn.l2_normalize([3, 4])",
    "tf.nn.l2_loss([[1.0, 2.0], [3.0, 4.0]])",
    "tf.nn.l2_loss(tf.constant(X4, tf.float64))",
    "tf.nn.l2_loss(tf.zeros([0]))",
    "grad(lambda x: tf.nn.l2_loss(x) * 3.0, X)",
    "graph(tf.nn.l2_loss, tf.constant(X4))",
    "tf.nn.l2_loss([1, 2])",
]

GOLDENS = nn_golden_cases.load()


@pytest.mark.parametrize("case", CASES)
def test_matches_tensorflow(case):
    expr, tolerance = case if isinstance(case, tuple) else (case, {})
    nn_golden_cases.check(expr, GOLDENS[expr], tf, **{**dict(rtol=2e-5, atol=1e-5), **tolerance})


def _finite_difference(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = eps
        out[i] = (f(x + e.reshape(x.shape)) - f(x - e.reshape(x.shape))) / (2 * eps)
    return out.reshape(x.shape)


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2, 3, 3))
    w = rng.standard_normal((2, 2, 3, 3))
    ns = nn_golden_cases.namespace(tf)

    def loss_of(fn):
        return lambda v: float(tf.reduce_sum(fn(tf.constant(v)) * w).numpy())

    for fn in [lambda t: tf.nn.bias_add(t, tf.constant([0.5, -1.0, 2.0], tf.float64)) ** 2,
               lambda t: tf.nn.batch_normalization(t, *tf.nn.moments(t, [0, 1, 2]), 0.3, 1.7, 1e-3),
               lambda t: tf.nn.l2_normalize(t, axis=[1, 2]),
               lambda t: tf.nn.l2_loss(t) * t]:
        analytic = ns["grad"](lambda t: tf.reduce_sum(fn(t) * w), x, "float64").numpy()
        np.testing.assert_allclose(analytic, _finite_difference(loss_of(fn), x), rtol=1e-5, atol=1e-7)


def test_fused_batch_norm_gradients_match_finite_differences():
    # float32 only (TF's kernels): a coarse step, tolerances to match.
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 2, 4)).astype(np.float32)
    w = rng.standard_normal((2, 3, 2, 4)).astype(np.float32)
    scale, offset = tf.constant([1.0, 2.0, 0.5, 1.5]), tf.constant([0.1, 0.0, -0.2, 0.3])
    ns = nn_golden_cases.namespace(tf)
    for training in (True, False):
        stats = (tf.zeros([0]), tf.zeros([0])) if training else (tf.constant([0.1, 0.2, 0.0, -0.1]), tf.ones([4]))

        def loss(t):
            return tf.reduce_sum(ns["fbn"](t, scale, offset, *stats, is_training=training)[0] * w)

        analytic = ns["grad"](loss, x).numpy()
        numeric = _finite_difference(lambda v: float(loss(tf.constant(v, tf.float32)).numpy()), x, eps=1e-2)
        np.testing.assert_allclose(analytic, numeric, rtol=2e-2, atol=2e-2)


def test_fused_batch_norm_second_derivatives_match_finite_differences():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 2, 2, 3)).astype(np.float32)
    w = rng.standard_normal((2, 2, 2, 3)).astype(np.float32)
    scale, offset = tf.constant([1.0, 2.0, 0.5]), tf.constant([0.1, 0.0, -0.2])
    ns = nn_golden_cases.namespace(tf)
    for training in (True, False):
        stats = (tf.zeros([0]), tf.zeros([0])) if training else (tf.constant([0.1, 0.2, 0.0]), tf.constant([1.0, 0.5, 2.0]))

        def first(t):  # sum of the gradient of sum(y^2 * w), weighted by w
            g = ns["grad"](lambda v: tf.reduce_sum(ns["fbn"](v, scale, offset, *stats, is_training=training)[0] ** 2 * w), t)
            return tf.reduce_sum(g * w)

        analytic = ns["grad"](first, x).numpy()
        numeric = _finite_difference(lambda v: float(first(tf.constant(v, tf.float32)).numpy()), x, eps=1e-2)
        np.testing.assert_allclose(analytic, numeric, rtol=3e-2, atol=3e-2)


def test_lrn_gradient_matches_finite_differences():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 2, 2, 6)).astype(np.float32)
    w = rng.standard_normal((1, 2, 2, 6)).astype(np.float32)
    ns = nn_golden_cases.namespace(tf)

    def loss(t):
        return tf.reduce_sum(tf.nn.lrn(t, depth_radius=2, bias=1.5, alpha=0.4, beta=0.7) * w)

    analytic = ns["grad"](loss, x).numpy()
    numeric = _finite_difference(lambda v: float(loss(tf.constant(v, tf.float32)).numpy()), x, eps=1e-2)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-2, atol=1e-2)


def test_batch_normalization_graph_looks_like_tf():
    f = tf.function(lambda x, m, v: tf.nn.batch_normalization(x, m, v, None, None, 1e-3))
    graph = f.get_concrete_function(tf.TensorSpec([2, 3]), tf.TensorSpec([3]), tf.TensorSpec([3])).graph
    assert any(op.name.startswith("batchnorm/") for op in graph.get_operations())


def test_moments_graph_names_are_tfs():
    f = tf.function(lambda x: tf.nn.moments(x, [0]))
    names = [op.name for op in f.get_concrete_function(tf.TensorSpec([2, 3])).graph.get_operations()]
    for name in ["moments/mean/reduction_indices", "moments/mean", "moments/StopGradient", "moments/variance",
                 "moments/Squeeze", "moments/Squeeze_1"]:
        assert name in names


def test_fused_batch_norm_shapes_while_tracing():
    # TF's shape function: unknown rank is taken as 4-D, the channels come from scale.
    ns = nn_golden_cases.namespace(tf)
    for spec, shape in [(tf.TensorSpec(None), [None, None, None, 3]), (tf.TensorSpec([None, 4, 4, None]), [None, 4, 4, 3])]:
        f = tf.function(lambda x, s: ns["fbn"](x, s, s, tf.zeros([0]), tf.zeros([0])))
        out = f.get_concrete_function(spec, tf.TensorSpec([3])).structured_outputs
        assert out[0].shape.as_list() == shape
        assert out[1].shape.as_list() == [3] and out[5].shape.rank is None


def test_bias_add_unknown_dims_in_graph():
    f = tf.function(lambda x, b: tf.nn.bias_add(x, b))
    out = f.get_concrete_function(tf.TensorSpec([None, None]), tf.TensorSpec([3])).structured_outputs
    assert out.shape.as_list() == [None, 3]


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
def test_fused_batch_norm_large_input_matches_numpy(data_format):
    # Large enough to split between two threads; statistics against float64 NumPy.
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((8, 32, 32, 40)) * 3 + 5).astype(np.float32)
    dy = rng.standard_normal(x.shape).astype(np.float32)
    scale = rng.uniform(0.5, 2, 40).astype(np.float32)
    ns = nn_golden_cases.namespace(tf)
    to_format = (lambda a: np.ascontiguousarray(a.transpose(0, 3, 1, 2))) if data_format == "NCHW" else (lambda a: a)
    from_format = (lambda a: a.transpose(0, 2, 3, 1)) if data_format == "NCHW" else (lambda a: a)
    xs = tf.constant(to_format(x))

    def loss(t, s):
        y = ns["fbn"](t, s, tf.zeros([40]), tf.zeros([0]), tf.zeros([0]), epsilon=0.001, data_format=data_format)
        return tf.reduce_sum(y[0] * to_format(dy)), y

    with tf.GradientTape() as tape:
        s = tf.constant(scale)
        tape.watch([xs, s])
        value, y = loss(xs, s)
    dx, ds = tape.gradient(value, [xs, s])
    x64, dy64 = x.astype(np.float64).reshape(-1, 40), dy.astype(np.float64).reshape(-1, 40)
    mean, var = x64.mean(0), x64.var(0)
    x_hat = (x64 - mean) / np.sqrt(var + 0.001)
    np.testing.assert_allclose(y[1].numpy(), mean, rtol=1e-5)
    np.testing.assert_allclose(y[2].numpy(), var * len(x64) / (len(x64) - 1), rtol=1e-5)
    np.testing.assert_allclose(from_format(y[0].numpy()).reshape(-1, 40), x_hat * scale, atol=2e-5)
    expected_dx = scale / np.sqrt(var + 0.001) * (dy64 - dy64.mean(0) - x_hat * (dy64 * x_hat).mean(0))
    np.testing.assert_allclose(from_format(dx.numpy()).reshape(-1, 40), expected_dx, atol=2e-5)
    np.testing.assert_allclose(ds.numpy(), (dy64 * x_hat).sum(0), rtol=1e-4)
