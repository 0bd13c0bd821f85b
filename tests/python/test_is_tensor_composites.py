"""tf.is_tensor on composite tensors (Keras's Layer.__call__ takes a SparseTensor or RaggedTensor
positionally only when tf.is_tensor says it is one). Expected values printed by TF 2.21."""

import numpy as np
import pytest

import graphfn as tf

CASES = [
    ("tf.sparse.from_dense([[1, 0]])", True),
    ("tf.ragged.constant([[1], [2, 3]])", True),
    ("tf.Variable(1.)", True),
    ("tf.constant(1.)", True),
    ("tf.TensorSpec([1])", False),
    ("tf.data.Dataset.range(2)", False),
    ("np.ones(2)", False),
    ("[tf.constant(1.)]", False),
]


@pytest.mark.parametrize("expr, expected", CASES)
def test_is_tensor_matches_tensorflow(expr, expected):
    assert tf.is_tensor(eval(expr)) is expected


def test_is_tensor_in_a_function_sees_sparse_arguments():
    @tf.function
    def f(x):
        return tf.is_tensor(x)

    # TF 2.21: tf.Tensor(True, shape=(), dtype=bool)
    assert repr(f(tf.sparse.from_dense([[1., 0.]]))) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
