"""tf.math.log_sigmoid, tf.math.logical_xor, tf.nn.conv_transpose and
tf.nn.experimental.stateless_dropout (python/graphfn/ops/keras_backend_ops.py): TF 2.21 composes
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
