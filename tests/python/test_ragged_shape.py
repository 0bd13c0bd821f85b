"""tf.experimental.DynamicRaggedShape (what tf.shape gives for a RaggedTensor) and
tf.experimental.RowPartition: factories, lengths, indexing, reprs, and tf.zeros / ones / fill /
reshape / broadcast_to of a ragged shape. Expected reprs and errors recorded from TensorFlow 2.21."""

import pytest

import graphfn as tf

RESULTS = [
    ("tf.shape(tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f']]))",
     '<DynamicRaggedShape lengths=[3, (3, 2, 1)] num_row_partitions=1>'),
    ('tf.shape(tf.ragged.constant([[1, 2], [3]]), out_type=tf.int64)',
     '<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>'),
    ('tf.shape(tf.ragged.constant([[[1, 2], [3]], [[4]]]))',
     '<DynamicRaggedShape lengths=[2, (2, 1), (2, 1, 1)] num_row_partitions=2>'),
    ('tf.shape(tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1))',
     '<DynamicRaggedShape lengths=[2, (1, 2), 2] num_row_partitions=1>'),
    ("tf.shape(tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f']]))[0]",
     '<tf.Tensor: shape=(), dtype=int32, numpy=3>'),
    ('tf.shape(tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1))[2]',
     '<tf.Tensor: shape=(), dtype=int32, numpy=2>'),
    ('tf.shape(tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1))[-1]',
     '<tf.Tensor: shape=(), dtype=int32, numpy=2>'),
    ('tf.shape(tf.ragged.constant([[1, 2], [3]])).rank',
     '2'),
    ('tf.shape(tf.ragged.constant([[1, 2], [3]])).inner_shape',
     '<tf.Tensor: shape=(1,), dtype=int32, numpy=array([3], dtype=int32)>'),
    ('tf.shape(tf.ragged.constant([[1, 2], [3]])).dtype',
     'tf.int32'),
    ('tf.shape(tf.ragged.constant([[[1, 2], [3]], [[4]]])).static_lengths()',
     '[2, (2, 1), (2, 1, 1)]'),
    ('tf.shape(tf.ragged.constant([[[1, 2], [3]], [[4]]])).row_partitions',
     '(tf.RowPartition(row_splits=[0 2 3]), tf.RowPartition(row_splits=[0 2 3 4]))'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 2])',
     '<DynamicRaggedShape lengths=[2, (2, 1), 2] num_row_partitions=1>'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 2]).dtype',
     'tf.int64'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, 3, (1, 2, 0, 4, 1, 1)])',
     '<DynamicRaggedShape lengths=[2, 3, (1, 2, 0, 4, 1, 1)] num_row_partitions=2>'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, 3, 4])',
     '<DynamicRaggedShape lengths=[2, 3, 4] num_row_partitions=0>'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, 3], num_row_partitions=1)',
     '<DynamicRaggedShape lengths=[2, 3] num_row_partitions=1>'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, 3], num_row_partitions=1)[1]',
     '<tf.Tensor: shape=(), dtype=int64, numpy=3>'),
    ('tf.experimental.DynamicRaggedShape.from_lengths([2, 3], num_row_partitions=1).row_partitions',
     '(tf.RowPartition(nrows=2, uniform_row_length=3),)'),
    ('tf.experimental.DynamicRaggedShape(row_partitions=[tf.experimental.RowPartition.from_row_lengths([5, 3, 2])], inner_shape=[10, 8])',
     '<DynamicRaggedShape lengths=[3, (5, 3, 2), 8] num_row_partitions=1>'),
    ('tf.experimental.DynamicRaggedShape.from_tensor(tf.ones([2, 3]))',
     '<DynamicRaggedShape lengths=[2, 3] num_row_partitions=0>'),
    ('tf.experimental.DynamicRaggedShape.from_tensor(tf.ragged.constant([[1], [2, 3]]))',
     '<DynamicRaggedShape lengths=[2, (1, 2)] num_row_partitions=1>'),
    ('tf.experimental.DynamicRaggedShape.from_tensor(tf.ragged.constant([[1], [2, 3]])).num_row_partitions',
     '1'),
    ("tf.reshape(tf.constant([['a', 'b'], ['c', 'd'], ['e', 'f']]), tf.shape(tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f']])))",
     "<tf.RaggedTensor [[b'a', b'b', b'c'], [b'd', b'e'], [b'f']]>"),
    ("tf.zeros(tf.shape(tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f']])))",
     '<tf.RaggedTensor [[0.0, 0.0, 0.0], [0.0, 0.0], [0.0]]>'),
    ('tf.ones(tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 2]), tf.int32)',
     '<tf.RaggedTensor [[[1, 1],\n  [1, 1]], [[1, 1]]]>'),
    ('tf.fill(tf.experimental.DynamicRaggedShape.from_lengths([2, (0, 3)]), 7)',
     '<tf.RaggedTensor [[], [7, 7, 7]]>'),
    ('tf.broadcast_to(tf.constant([[1], [2]]), tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1)]))',
     '<tf.RaggedTensor [[1, 1], [2]]>'),
    ('tf.broadcast_to(tf.constant([10, 20]), tf.experimental.DynamicRaggedShape.from_lengths([3, (1, 0, 2), 2]))',
     '<tf.RaggedTensor [[[10, 20]], [], [[10, 20],\n                  [10, 20]]]>'),
    ('tf.broadcast_to(tf.constant(5.0), tf.experimental.DynamicRaggedShape.from_lengths([2, (3, 1)]))',
     '<tf.RaggedTensor [[5.0, 5.0, 5.0], [5.0]]>'),
    ('tf.broadcast_to(tf.constant([[1], [2], [3]]), tf.experimental.DynamicRaggedShape.from_lengths([3, (2, 0, 1)]))',
     '<tf.RaggedTensor [[1, 1], [], [3]]>'),
    ('tf.experimental.RowPartition.from_row_lengths([5, 3, 2])',
     'tf.RowPartition(row_splits=[ 0  5  8 10])'),
    ('tf.experimental.RowPartition.from_row_lengths([5, 3, 2], dtype=tf.int32).row_splits()',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([ 0,  5,  8, 10], dtype=int32)>'),
    ('tf.experimental.RowPartition.from_row_splits([0, 2, 2, 5]).row_lengths()',
     '<tf.Tensor: shape=(3,), dtype=int64, numpy=array([2, 0, 3])>'),
    ('tf.experimental.RowPartition.from_row_splits([0, 2, 2, 5]).nrows()',
     '<tf.Tensor: shape=(), dtype=int64, numpy=3>'),
    ('tf.experimental.RowPartition.from_row_splits([0, 2, 2, 5]).nvals()',
     '<tf.Tensor: shape=(), dtype=int64, numpy=5>'),
    ('tf.experimental.RowPartition.from_row_splits([0, 2, 2, 5]).value_rowids()',
     '<tf.Tensor: shape=(5,), dtype=int64, numpy=array([0, 0, 2, 2, 2])>'),
    ('tf.experimental.RowPartition.from_value_rowids([0, 0, 2, 2, 2], nrows=4)',
     'tf.RowPartition(row_splits=[0 2 2 5 5])'),
    ('tf.experimental.RowPartition.from_value_rowids([0, 0, 2, 2, 2])',
     'tf.RowPartition(row_splits=[0 2 2 5])'),
    ('tf.experimental.RowPartition.from_uniform_row_length(3, nvals=12)',
     'tf.RowPartition(nrows=4, uniform_row_length=3)'),
    ('tf.experimental.RowPartition.from_uniform_row_length(3, nvals=12).row_splits()',
     '<tf.Tensor: shape=(5,), dtype=int64, numpy=array([ 0,  3,  6,  9, 12])>'),
    ('tf.experimental.RowPartition.from_uniform_row_length(3, nrows=2).is_uniform()',
     'True'),
    ('tf.experimental.RowPartition.from_row_lengths([1, 2]).is_uniform()',
     'False'),
    ('tf.experimental.RowPartition.from_row_lengths([1, 2]).dtype',
     'tf.int64'),
    ('tf.experimental.RowPartition.from_row_lengths([1, 2]).static_nrows',
     '2'),
]

ERRORS = [
    ("tf.shape(tf.ragged.constant([['a', 'b', 'c'], ['d', 'e'], ['f']]))[1]", ValueError, 'Index 1 is not uniform'),
    ('tf.experimental.RowPartition(tf.constant([0, 1]))', ValueError, 'RowPartition constructor is private; please use one of the factory methods instead (e.g., RowPartition.from_row_lengths())'),
    ('tf.shape(tf.ragged.constant([[1, 2], [3]]))[5]', IndexError, 'Index is too big: 5>=2'),
]


@pytest.mark.parametrize("expr, expected", RESULTS)
def test_matches_tensorflow(expr, expected):
    assert repr(eval(expr)) == expected


@pytest.mark.parametrize("expr, error, message", ERRORS)
def test_errors_match_tensorflow(expr, error, message):
    with pytest.raises(error) as info:
        eval(expr)
    assert str(info.value) == message


def test_in_a_function():
    seen = []

    @tf.function
    def f(rt):
        s = tf.shape(rt)
        seen.append(repr(s))
        return tf.zeros(s, tf.int32).flat_values, s[0], s.inner_shape

    zeros, rows, inner = f(tf.ragged.constant([[1, 2], [3]]))
    assert seen == ["<DynamicRaggedShape lengths=[2, None] num_row_partitions=1>"]  # TF 2.21
    assert zeros.numpy().tolist() == [0, 0, 0] and int(rows) == 2 and inner.numpy().tolist() == [3]
