"""tf.nn.embedding_lookup_sparse (Keras's sparse x dense matmul) against values recorded from
TensorFlow 2.21: the three combiners with and without weights, a float16 table, the gradient
to a variable table, and TF's errors."""

import numpy as np
import pytest

import graphfn as tf

PARAMS = np.arange(12, dtype=np.float32).reshape(6, 2) / 4
INDICES = [[0, 0], [0, 2], [2, 1], [2, 3], [3, 0]]


def _ids():
    return tf.SparseTensor(INDICES, tf.constant([1, 4, 0, 5, 2], tf.int64), [5, 4])


def _weights():
    return tf.SparseTensor(INDICES, [0.5, 2.0, -1.0, 1.0, 0.0], [5, 4])


# TF 2.21 (row 4 of sp_ids is empty and last: left out; row 2's weights sum to 0: mean gives 0)
EXPECTED = {
    ("sum", True): [[4.25, 4.875], [0.0, 0.0], [2.5, 2.5], [0.0, 0.0]],
    ("sum", False): [[2.5, 3.0], [0.0, 0.0], [2.5, 3.0], [1.0, 1.25]],
    ("mean", True): [[1.7000000476837158, 1.9500000476837158], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
    ("mean", False): [[1.25, 1.5], [0.0, 0.0], [1.25, 1.5], [1.0, 1.25]],
    ("sqrtn", True): [[2.0615527629852295, 2.364722490310669], [0.0, 0.0], [1.7677669525146484, 1.7677669525146484],
                      [0.0, 0.0]],
    ("sqrtn", False): [[1.7677669525146484, 2.1213202476501465], [0.0, 0.0], [1.7677669525146484, 2.1213202476501465],
                       [1.0, 1.25]],
}


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("combiner, weighted", sorted(EXPECTED))
def test_combiners_match_tensorflow(combiner, weighted, in_function):
    def lookup():
        return tf.nn.embedding_lookup_sparse(tf.constant(PARAMS), _ids(), _weights() if weighted else None,
                                             combiner=combiner)
    result = tf.function(lookup)() if in_function else lookup()
    np.testing.assert_allclose(result.numpy(), EXPECTED[(combiner, weighted)], rtol=1e-6)


def test_default_combiner_is_mean_and_float16_stays_float16():
    np.testing.assert_allclose(tf.nn.embedding_lookup_sparse(PARAMS, _ids(), _weights()).numpy(),
                               EXPECTED[("mean", True)], rtol=1e-6)
    assert tf.nn.embedding_lookup_sparse(tf.cast(PARAMS, tf.float16), _ids(), _weights()).dtype == tf.float16


def test_gradient_to_a_variable_table_matches_tensorflow():
    table = tf.Variable(PARAMS)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup_sparse(table, _ids(), _weights(), combiner="sum") * [[1.0, 2.0]])
    grad = tf.convert_to_tensor(tape.gradient(y, table))
    assert grad.numpy().tolist() == [[-1.0, -2.0], [0.5, 1.0], [0.0, 0.0], [0.0, 0.0], [2.0, 4.0], [1.0, 2.0]]


def test_errors_match_tensorflow():
    with pytest.raises(ValueError, match="^combiner must be one of 'mean', 'sqrtn' or 'sum', got max$"):
        tf.nn.embedding_lookup_sparse(PARAMS, _ids(), _weights(), combiner="max")
    with pytest.raises(TypeError, match="^sp_ids must be SparseTensor, got <class "):
        tf.nn.embedding_lookup_sparse(PARAMS, _ids().values, _weights())
