"""Ragged elements in tf.data: from_tensor_slices of a RaggedTensor, batch of ragged elements,
Dataset.ragged_batch and tf.data.experimental.dense_to_ragged_batch. Expected reprs and errors
were printed by TF 2.21 for the same expressions; the tf.function cases are derived by
arithmetic (row lengths 3+1+0+2, values 1+...+6)."""


import graphfn as tf
from tf_goldens import golden_tests

rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
rt3 = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]])
ds = tf.data.Dataset.from_tensor_slices(rt)


def _range(n):
    return tf.range(n)


def _fill(n):
    return {"a": tf.fill([n, 2], n), "b": n}


def _ragged_range(x):
    return tf.ragged.range(x[0])


def to_list(dataset):
    return [x for x in dataset]


NAMESPACE = dict(
    tf=tf, rt=rt, rt3=rt3, ds=ds, to_list=to_list,
    ds3=tf.data.Dataset.from_tensor_slices(rt3),
    pairs=tf.data.Dataset.from_tensor_slices((rt, tf.constant([10, 20, 30, 40]))),
    var=tf.data.Dataset.range(1, 5).map(_range),
    var2=tf.data.Dataset.range(1, 4).map(_fill),
    d=tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).map(_ragged_range),
)

RESULTS = [
    ('ds.element_spec',
     'RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)'),
    ('to_list(ds)',
     '[<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>, <tf.Tensor: shape=(1,), dtype=int32, numpy=array([4], dtype=int32)>, <tf.Tensor: shape=(0,), dtype=int32, numpy=array([], dtype=int32)>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([5, 6], dtype=int32)>]'),
    ('ds3.element_spec',
     'RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)'),
    ('to_list(ds3)',
     '[<tf.RaggedTensor [[1, 2], [3]]>, <tf.RaggedTensor []>, <tf.RaggedTensor [[4, 5, 6]]>]'),
    ('pairs.element_spec',
     '(RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64), TensorSpec(shape=(), dtype=tf.int32, name=None))'),
    ('to_list(pairs)',
     '[(<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>, <tf.Tensor: shape=(), dtype=int32, numpy=10>), (<tf.Tensor: shape=(1,), dtype=int32, numpy=array([4], dtype=int32)>, <tf.Tensor: shape=(), dtype=int32, numpy=20>), (<tf.Tensor: shape=(0,), dtype=int32, numpy=array([], dtype=int32)>, <tf.Tensor: shape=(), dtype=int32, numpy=30>), (<tf.Tensor: shape=(2,), dtype=int32, numpy=array([5, 6], dtype=int32)>, <tf.Tensor: shape=(), dtype=int32, numpy=40>)]'),
    ('ds.batch(3).element_spec',
     'RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)'),
    ('to_list(ds.batch(3))',
     '[<tf.RaggedTensor [[1, 2, 3], [4], []]>, <tf.RaggedTensor [[5, 6]]>]'),
    ('to_list(ds.batch(3, drop_remainder=True))',
     '[<tf.RaggedTensor [[1, 2, 3], [4], []]>]'),
    ('ds.batch(3, drop_remainder=True).element_spec',
     'RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64)'),
    ('ds3.batch(2).element_spec',
     'RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)'),
    ('to_list(ds3.batch(2))',
     '[<tf.RaggedTensor [[[1, 2], [3]], []]>, <tf.RaggedTensor [[[4, 5, 6]]]>]'),
    ('to_list(pairs.batch(2))',
     '[(<tf.RaggedTensor [[1, 2, 3], [4]]>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([10, 20], dtype=int32)>), (<tf.RaggedTensor [[], [5, 6]]>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([30, 40], dtype=int32)>)]'),
    ('pairs.batch(2).element_spec',
     '(RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64), TensorSpec(shape=(None,), dtype=tf.int32, name=None))'),
    ('ds.ragged_batch(3).element_spec',
     'RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)'),
    ('to_list(ds.ragged_batch(3))',
     '[<tf.RaggedTensor [[1, 2, 3], [4], []]>, <tf.RaggedTensor [[5, 6]]>]'),
    ('var.ragged_batch(3).element_spec',
     'RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)'),
    ('to_list(var.ragged_batch(3))',
     '[<tf.RaggedTensor [[0], [0, 1], [0, 1, 2]]>, <tf.RaggedTensor [[0, 1, 2, 3]]>]'),
    ('to_list(var.ragged_batch(2, row_splits_dtype=tf.int32))',
     '[<tf.RaggedTensor [[0], [0, 1]]>, <tf.RaggedTensor [[0, 1, 2], [0, 1, 2, 3]]>]'),
    ('var.ragged_batch(2, row_splits_dtype=tf.int32).element_spec',
     'RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int32)'),
    ('to_list(var.apply(tf.data.experimental.dense_to_ragged_batch(3)))',
     '[<tf.RaggedTensor [[0], [0, 1], [0, 1, 2]]>, <tf.RaggedTensor [[0, 1, 2, 3]]>]'),
    ('var2.ragged_batch(2).element_spec',
     "{'a': RaggedTensorSpec(TensorShape([None, None, 2]), tf.int64, 1, tf.int64), 'b': TensorSpec(shape=(None,), dtype=tf.int64, name=None)}"),
    ('to_list(var2.ragged_batch(2))',
     "[{'a': <tf.RaggedTensor [[[1, 1]], [[2, 2],\n            [2, 2]]]>, 'b': <tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 2])>}, {'a': <tf.RaggedTensor [[[3, 3],\n  [3, 3],\n  [3, 3]]]>, 'b': <tf.Tensor: shape=(1,), dtype=int64, numpy=array([3])>}]"),
    ('d.ragged_batch(2).element_spec',
     'RaggedTensorSpec(TensorShape([None, 1, None]), tf.int32, 2, tf.int64)'),
    ('to_list(d.ragged_batch(2))',
     '[<tf.RaggedTensor [[[0]],\n [[0, 1, 2]]]>]'),
    ('to_list(ds.batch(2).map(lambda r: r.row_lengths()))',
     '[<tf.Tensor: shape=(2,), dtype=int64, numpy=array([3, 1])>, <tf.Tensor: shape=(2,), dtype=int64, numpy=array([0, 2])>]'),
    ('to_list(tf.data.Dataset.range(3).ragged_batch(2))',
     '[<tf.Tensor: shape=(2,), dtype=int64, numpy=array([0, 1])>, <tf.Tensor: shape=(1,), dtype=int64, numpy=array([2])>]'),
    ('tf.data.Dataset.range(3).ragged_batch(2).element_spec',
     'TensorSpec(shape=(None,), dtype=tf.int64, name=None)'),
]
ERRORS = [
    ('tf.data.Dataset.from_tensor_slices((rt, tf.constant([1, 2])))', ValueError, 'Dimensions 4 and 2 are not compatible'),
]


test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS, NAMESPACE)


def test_batched_ragged_dataset_in_function():
    batched = ds.batch(3)

    @tf.function
    def row_count(dataset):
        total = tf.constant(0, tf.int64)
        for r in dataset:
            total += tf.reduce_sum(r.row_lengths())
        return total

    @tf.function
    def value_sum():
        total = tf.constant(0)
        for r in batched:
            total += tf.reduce_sum(r)
        return total

    assert int(row_count(batched)) == 6
    assert int(row_count(ds.ragged_batch(2))) == 6
    assert int(value_sum()) == 21
