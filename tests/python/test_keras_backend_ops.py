"""tf.math.log_sigmoid, tf.math.logical_xor, tf.nn.conv_transpose,
tf.nn.experimental.stateless_dropout and tf.signal.inverse_stft_window_fn (python/graphfn/ops/keras_backend_ops.py): TF 2.21 composes
them from other ops in Python, and Keras's TensorFlow backend calls them. Expected values and
messages were printed by TF 2.21."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ("tf.math.log_sigmoid(tf.constant([-100., 0., 50.]))",
     "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.0000000e+02, -6.9314718e-01, -1.9287499e-22], "
     "dtype=float32)>"),
    ("tf.math.log_sigmoid(tf.constant([-1., 0.], tf.float64))",
     "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([-1.31326169, -0.69314718])>"),
    ("tf.math.logical_xor([True, True, False, False], [True, False, True, False])",
     "<tf.Tensor: shape=(4,), dtype=bool, numpy=array([False,  True,  True, False])>"),
    ("tf.math.logical_xor(tf.constant([[True], [False]]), [True, False])",
     "<tf.Tensor: shape=(2, 2), dtype=bool, numpy=\narray([[False,  True],\n       [ True, False]])>"),
    ("tf.nn.conv_transpose(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 4, 2]), [1, 6, 6, 4], 2).shape",
     "TensorShape([1, 6, 6, 4])"),
    ("tf.nn.conv_transpose(tf.ones([1, 3, 2]), tf.ones([2, 4, 2]), [1, 6, 4], 2)[0, :, 0]",
     "<tf.Tensor: shape=(6,), dtype=float32, numpy=array([2., 2., 2., 2., 2., 2.], dtype=float32)>"),
    ("tf.nn.conv_transpose(tf.ones([1, 2, 2, 2, 1]), tf.ones([2, 2, 2, 3, 1]), tf.constant([1, 4, 4, 4, 3]), 2).shape",
     "TensorShape([1, 4, 4, 4, 3])"),
    ("tf.signal.inverse_stft_window_fn(4, forward_window_fn=tf.signal.hamming_window)(10, tf.float64)",
     "<tf.Tensor: shape=(10,), dtype=float64, numpy=\narray([0.08026487, 0.15889846, 0.40174915, 0.73297896, 0.91516787,\n"
     "       0.94665709, 0.92108232, 0.73297896, 0.39916944, 0.15889846])>"),
    ("tf.signal.inverse_stft_window_fn(5)(5, tf.float32)",
     "<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0., 2., 1., 2., 0.], dtype=float32)>"),
    ("tf.nn.experimental.stateless_dropout(tf.constant([[1., 2.], [3., 4.]]), 0.0, seed=[1, 2])",
     "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1., 2.],\n       [3., 4.]], dtype=float32)>"),
]

ERRORS = [
    ("tf.math.log_sigmoid(tf.constant([1, 2]))", tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, double"),
    ("tf.math.logical_xor([1, 0], [1, 1])", TypeError, "Cannot convert [1, 0] to EagerTensor of dtype bool"),
    ("tf.nn.conv_transpose(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 4, 2]), [1, 2], 2)", ValueError,
     "`output_shape` must be of length 3, 4 or 5. Received: output_shape=[1, 2] of length 2."),
    ("tf.nn.conv_transpose(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 4, 2]), [1, 2, 3, 4, 5, 6], 2)", ValueError,
     "`output_shape` must be of length 3, 4 or 5. Received: output_shape=[1, 2, 3, 4, 5, 6] of length 6."),
    ("tf.nn.conv_transpose(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 4, 2]), 5, 2)", ValueError,
     "`output_shape` must be a tensor or sized collection. Received: output_shape=5"),
    ("tf.signal.inverse_stft_window_fn([1, 2])(8, tf.float32)", ValueError, "Shape (2,) must have rank 0"),
    ("tf.signal.inverse_stft_window_fn(2)([8], tf.float32)", ValueError, "Shape (1,) must have rank 0"),
    ("tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.0, seed=[1, 2])", ValueError,
     "`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1.0"),
    ("tf.nn.experimental.stateless_dropout(tf.constant([1, 2]), 0.5, seed=[1, 2])", ValueError,
     "`x.dtype` must be a floating point tensor as `x` will be scaled. Received: x_dtype=<dtype: 'int32'>"),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)


def test_log_sigmoid_is_minus_softplus_of_minus_x():
    # TF 2.21 prints [-1.3132616, -0.3132617] for [-1, 1]; the last bit is Softplus's rounding.
    values = tf.math.log_sigmoid(tf.constant([-1., 1.])).numpy()
    np.testing.assert_allclose(values, [-1.3132616, -0.3132617], rtol=1e-6)


def test_graph_ops_are_tensorflows():
    # TF 2.21's graph: LogicalOr, LogicalAnd, LogicalNot, LogicalAnd; Cast, Neg, Softplus, Neg.
    @tf.function(autograph=False)
    def f(a, b):
        return tf.math.logical_xor(a, b), tf.math.log_sigmoid(tf.cast(a, tf.float32))

    graph = f.get_concrete_function(tf.TensorSpec([2], tf.bool), tf.TensorSpec([2], tf.bool)).graph
    types = [op.type for op in graph.get_operations() if op.type not in ("Placeholder", "Identity")]
    assert types == ["LogicalOr", "LogicalAnd", "LogicalNot", "LogicalAnd", "Cast", "Neg", "Softplus", "Neg"]


def test_conv_transpose_matches_conv2d_transpose():
    x = tf.random.stateless_normal([2, 3, 3, 2], seed=[1, 2])
    f = tf.random.stateless_normal([3, 3, 4, 2], seed=[3, 4])
    expected = tf.nn.conv2d_transpose(x, f, [2, 6, 6, 4], 2, padding="SAME")
    np.testing.assert_array_equal(tf.nn.conv_transpose(x, f, [2, 6, 6, 4], 2).numpy(), expected.numpy())


# The numbers of stateless random ops are graphfn's Philox stream, not TF's bits (docs/ops.md), so
# stateless_dropout is checked by what TF guarantees: a pure function of the seed that keeps an
# element with probability 1 - rate and scales it by 1 / (1 - rate).

def test_stateless_dropout_is_a_function_of_the_seed():
    x = tf.ones([40, 50])
    first = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]).numpy()
    assert np.array_equal(first, tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]).numpy())
    assert not np.array_equal(first, tf.nn.experimental.stateless_dropout(x, 0.5, seed=[2, 2]).numpy())
    assert set(np.unique(first)) == {0.0, 2.0}
    assert 0.4 < (first == 0).mean() < 0.6


def test_stateless_dropout_uses_stateless_uniform_noise():
    x = tf.reshape(tf.range(1., 9.), [2, 4])
    noise = tf.random.stateless_uniform([2, 4], seed=[5, 6])
    expected = np.where(noise.numpy() >= 0.25, x.numpy() / 0.75, 0)
    np.testing.assert_allclose(tf.nn.experimental.stateless_dropout(x, 0.25, seed=[5, 6]).numpy(), expected,
                               rtol=1e-6)
    rate = tf.constant(0.25)
    np.testing.assert_allclose(tf.nn.experimental.stateless_dropout(x, rate, seed=[5, 6]).numpy(), expected,
                               rtol=1e-6)


def test_stateless_dropout_noise_shape_drops_whole_rows():
    out = tf.nn.experimental.stateless_dropout(tf.ones([30, 4]), 0.5, seed=[1, 2], noise_shape=[30, 1]).numpy()
    assert all(len(set(row)) == 1 for row in out)
    assert {0.0, 2.0} == set(np.unique(out))


@pytest.mark.parametrize("seed", [[1, 2], [7, 3]])
def test_stateless_dropout_in_a_function(seed):
    f = tf.function(lambda x: tf.nn.experimental.stateless_dropout(x, 0.5, seed=seed))
    x = tf.ones([8, 8])
    np.testing.assert_array_equal(f(x).numpy(), tf.nn.experimental.stateless_dropout(x, 0.5, seed=seed).numpy())


def test_inverse_stft_window_fn_float32_values():
    window = tf.signal.inverse_stft_window_fn(3)(8, tf.float32)
    np.testing.assert_allclose(window.numpy(), [0., 0.14042343, 0.5109583, 0.8722604, 0.958871, 0.8722604,
                                                0.5109583, 0.14042327], rtol=1e-6)


def test_inverse_stft_undoes_stft():
    # TF 2.21: y[20:26] of this round trip.
    x = tf.sin(tf.range(64, dtype=tf.float32) / 3.)
    spectrum = tf.signal.stft(x, 16, 4)
    y = tf.signal.inverse_stft(spectrum, 16, 4, window_fn=tf.signal.inverse_stft_window_fn(4))
    np.testing.assert_allclose(y[20:26].numpy(), [0.3741511, 0.65698653, 0.8674969, 0.98250777, 0.9893582,
                                                  0.8872941], rtol=1e-5)
    np.testing.assert_allclose(y[20:26].numpy(), x[20:26].numpy(), rtol=1e-4)
