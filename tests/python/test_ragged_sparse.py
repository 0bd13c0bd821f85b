"""RaggedTensor.to_sparse and RaggedTensor.from_sparse, eagerly and in tf.function. Expected
reprs and errors were printed by TF 2.21 for the same expressions."""

import pytest

import graphfn as tf
from tf_goldens import golden_tests

InvalidArgumentError = tf.errors.InvalidArgumentError


def sp(indices, values, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


NAMESPACE = dict(
    tf=tf,
    sp=sp,
    rt=tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]]),
    rt3=tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]]),
    rt_inner=tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1),
    rt_i32=tf.RaggedTensor.from_row_splits(tf.constant([1.5, 2.5, 3.5]), tf.constant([0, 2, 2, 3], tf.int32)),
    empty=tf.RaggedTensor.from_row_splits(tf.constant([], tf.float32), [0, 0, 0]),
    to_sparse_fn=tf.function(lambda r: r.to_sparse()),
    from_sparse_fn=tf.function(lambda s: tf.RaggedTensor.from_sparse(s)),
    from_sparse_sig=tf.function(lambda s: tf.RaggedTensor.from_sparse(s, row_splits_dtype=tf.int32),
                                input_signature=[tf.SparseTensorSpec([None, None], tf.float32)]),
    s1=sp([[0, 0], [0, 1], [2, 0]], [1.0, 2.0, 3.0], [4, 5]),
)

RESULTS = [
    ('rt.to_sparse()',
     'SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 1]\n [0 2]\n [1 0]\n [3 0]\n [3 1]], shape=(6, 2), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([4 3], shape=(2,), dtype=int64))'),
    ('rt3.to_sparse()',
     'SparseTensor(indices=tf.Tensor(\n[[0 0 0]\n [0 0 1]\n [0 1 0]\n [2 0 0]\n [2 0 1]\n [2 0 2]], shape=(6, 3), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([3 2 3], shape=(3,), dtype=int64))'),
    ('rt_inner.to_sparse()',
     'SparseTensor(indices=tf.Tensor(\n[[0 0 0]\n [0 0 1]\n [0 1 0]\n [0 1 1]\n [1 0 0]\n [1 0 1]], shape=(6, 3), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([2 2 2], shape=(3,), dtype=int64))'),
    ('rt_i32.to_sparse()',
     'SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 1]\n [2 0]], shape=(3, 2), dtype=int64), values=tf.Tensor([1.5 2.5 3.5], shape=(3,), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int64))'),
    ('empty.to_sparse()',
     'SparseTensor(indices=tf.Tensor([], shape=(0, 2), dtype=int64), values=tf.Tensor([], shape=(0,), dtype=float32), dense_shape=tf.Tensor([2 0], shape=(2,), dtype=int64))'),
    ('to_sparse_fn(rt)',
     'SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 1]\n [0 2]\n [1 0]\n [3 0]\n [3 1]], shape=(6, 2), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([4 3], shape=(2,), dtype=int64))'),
    ('to_sparse_fn(rt3)',
     'SparseTensor(indices=tf.Tensor(\n[[0 0 0]\n [0 0 1]\n [0 1 0]\n [2 0 0]\n [2 0 1]\n [2 0 2]], shape=(6, 3), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([3 2 3], shape=(3,), dtype=int64))'),
    ('to_sparse_fn(rt_inner)',
     'SparseTensor(indices=tf.Tensor(\n[[0 0 0]\n [0 0 1]\n [0 1 0]\n [0 1 1]\n [1 0 0]\n [1 0 1]], shape=(6, 3), dtype=int64), values=tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32), dense_shape=tf.Tensor([2 2 2], shape=(3,), dtype=int64))'),
    ('tf.RaggedTensor.from_sparse(rt.to_sparse())',
     '<tf.RaggedTensor [[1, 2, 3], [4], [], [5, 6]]>'),
    ('tf.RaggedTensor.from_sparse(s1)',
     '<tf.RaggedTensor [[1.0, 2.0], [], [3.0], []]>'),
    ('tf.RaggedTensor.from_sparse(s1, row_splits_dtype=tf.int32).row_splits',
     '<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 2, 2, 3, 3], dtype=int32)>'),
    ('tf.RaggedTensor.from_sparse(sp(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [3, 4]))',
     '<tf.RaggedTensor [[], [], []]>'),
    ('from_sparse_fn(s1)',
     '<tf.RaggedTensor [[1.0, 2.0], [], [3.0], []]>'),
    ('from_sparse_sig(s1)',
     '<tf.RaggedTensor [[1.0, 2.0], [], [3.0], []]>'),
    ('from_sparse_sig(s1).row_splits',
     '<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 2, 2, 3, 3], dtype=int32)>'),
    ('tf.sparse.to_dense(rt.to_sparse())',
     '<tf.Tensor: shape=(4, 3), dtype=int32, numpy=\narray([[1, 2, 3],\n       [4, 0, 0],\n       [0, 0, 0],\n       [5, 6, 0]], dtype=int32)>'),
    ('tf.RaggedTensor.from_sparse(sp([[1, 0], [0, 0]], [1.0, 2.0], [2, 3]))',
     '<tf.RaggedTensor [[1.0],\n [2.0]]>'),
]
ERRORS = [
    ('tf.RaggedTensor.from_sparse(rt3.to_sparse())', ValueError, 'rank(st_input) must be 2.'),
    ('tf.RaggedTensor.from_sparse(sp([[0, 1]], [1.0], [2, 2]))', InvalidArgumentError, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'SparseTensor is not right-ragged'"),
    ('tf.RaggedTensor.from_sparse(sp([[0, 0], [0, 2]], [1.0, 2.0], [2, 3]))', InvalidArgumentError, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'SparseTensor is not right-ragged'"),
    ('tf.RaggedTensor.from_sparse(sp([[0, 0, 0]], [1.0], [2, 2, 2]))', ValueError, 'rank(st_input) must be 2.'),
    ('tf.RaggedTensor.from_sparse(tf.constant([[1]]))', TypeError, 'Argument `st_input` must be of type SparseTensor, but is of type EagerTensor.'),
    ('from_sparse_sig(sp([[0, 1]], [1.0], [2, 2]))', InvalidArgumentError, 'SparseTensor is not right-ragged'),
]


test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS, NAMESPACE)


def test_not_right_ragged_error_shows_first_indices_as_tf():
    # TF 2.21's full text (its Assert summarizes the first 3 index entries).
    with pytest.raises(InvalidArgumentError) as info:
        tf.RaggedTensor.from_sparse(sp([[0, 0], [0, 2]], [1.0, 2.0], [2, 3]))
    assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                               "b'SparseTensor is not right-ragged'\nb'SparseTensor.indices ='\n0, 0, 0, ...")
