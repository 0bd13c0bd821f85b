"""tf.sparse.segment_sum / segment_mean / segment_sqrt_n and the raw ops behind them
(SparseSegment{Sum,Mean,SqrtN}[WithNumSegments] and their Grad / GradV2 ops): values (TF's
summation order and rounding show in float results), dtypes, TF's errors for unsorted or bad
segment ids and out-of-range indices, gradients and graph-mode shapes. Expected values and
messages were recorded from TensorFlow 2.21."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

NAMESPACE = {"tf": tf, "np": np, "R": tf.raw_ops,
             "c": tf.constant([[1., 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]]),
             "c2": tf.constant([[1., 2], [3, 4], [5, 6]]),
             "g": tf.constant([[1., 2], [3, 4]])}

RESULTS = [
    ('tf.sparse.segment_sum(c, [0, 1], [0, 0])',
     '<tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 0., 0., 0.]], dtype=float32)>'),
    ('tf.sparse.segment_sum(c, [0, 1, 2], [0, 0, 1])',
     '<tf.Tensor: shape=(2, 4), dtype=float32, numpy=\narray([[0., 0., 0., 0.],\n       [5., 6., 7., 8.]], dtype=float32)>'),
    ('tf.sparse.segment_sum(c, [0, 1, 2], [0, 0, 2])',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[0., 0., 0., 0.],\n       [0., 0., 0., 0.],\n       [5., 6., 7., 8.]], dtype=float32)>'),
    ('tf.sparse.segment_sum(c, [0, 1], [0, 2], num_segments=4)',
     '<tf.Tensor: shape=(4, 4), dtype=float32, numpy=\narray([[ 1.,  2.,  3.,  4.],\n       [ 0.,  0.,  0.,  0.],\n       [-1., -2., -3., -4.],\n       [ 0.,  0.,  0.,  0.]], dtype=float32)>'),
    ('tf.sparse.segment_mean(c, [0, 1, 2], [0, 0, 2])',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[0., 0., 0., 0.],\n       [0., 0., 0., 0.],\n       [5., 6., 7., 8.]], dtype=float32)>'),
    ('tf.sparse.segment_sqrt_n(c, [0, 1, 2], [0, 0, 2])',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[0., 0., 0., 0.],\n       [0., 0., 0., 0.],\n       [5., 6., 7., 8.]], dtype=float32)>'),
    ('tf.sparse.segment_mean(c, [0, 2], [0, 2], num_segments=4)',
     '<tf.Tensor: shape=(4, 4), dtype=float32, numpy=\narray([[1., 2., 3., 4.],\n       [0., 0., 0., 0.],\n       [5., 6., 7., 8.],\n       [0., 0., 0., 0.]], dtype=float32)>'),
    ('tf.sparse.segment_sqrt_n(c, [0, 2, 2], [1, 1, 1], num_segments=3)',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[ 0.      ,  0.      ,  0.      ,  0.      ],\n       [ 6.350853,  8.082904,  9.814955, 11.547005],\n       [ 0.      ,  0.      ,  0.      ,  0.      ]], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1, 2, 3]), [0, 1], [0, 0])',
     '<tf.Tensor: shape=(1,), dtype=int32, numpy=array([3], dtype=int32)>'),
    ('tf.sparse.segment_sum(tf.constant([1, 2, 3], tf.int64), [2, 1], [0, 0])',
     '<tf.Tensor: shape=(1,), dtype=int64, numpy=array([5])>'),
    ('tf.sparse.segment_sum(tf.constant([100, 100, 100], tf.int8), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=int8, numpy=array([44], dtype=int8)>'),
    ('tf.sparse.segment_sum(tf.constant([200, 100, 100], tf.uint8), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=uint8, numpy=array([144], dtype=uint8)>'),
    ('tf.sparse.segment_sum(tf.constant([1, 2, 3], tf.uint16), [0, 1], [0, 0])',
     '<tf.Tensor: shape=(1,), dtype=uint16, numpy=array([3], dtype=uint16)>'),
    ('tf.sparse.segment_sum(tf.constant([1, 2, 3], tf.uint64), [0, 1], [0, 1])',
     '<tf.Tensor: shape=(2,), dtype=uint64, numpy=array([1, 2], dtype=uint64)>'),
    ('tf.sparse.segment_sum(tf.constant([2048., 1, 1], tf.float16), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=float16, numpy=array([2.05e+03], dtype=float16)>'),
    ('tf.sparse.segment_sum(tf.constant([256., 1, 1], tf.bfloat16), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=bfloat16, numpy=array([258], dtype=bfloat16)>'),
    ('tf.sparse.segment_mean(tf.constant([2048., 1, 1, 1], tf.float16), [0, 1, 2, 3], [0, 0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=float16, numpy=array([513.], dtype=float16)>'),
    ('tf.sparse.segment_sqrt_n(tf.constant([1., 2, 3], tf.float16), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=float16, numpy=array([3.465], dtype=float16)>'),
    ('tf.sparse.segment_sqrt_n(tf.constant([1., 2, 3], tf.bfloat16), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=bfloat16, numpy=array([3.46875], dtype=bfloat16)>'),
    ('tf.sparse.segment_mean(tf.constant([1., 2, 3.5], tf.bfloat16), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=bfloat16, numpy=array([2.17188], dtype=bfloat16)>'),
    ('tf.sparse.segment_mean(tf.constant([1., 2, 4]), [0, 1, 2], [0, 0, 0])',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.3333335], dtype=float32)>'),
    ('tf.sparse.segment_mean(tf.constant([9., 0, 0, 0, 0, 0, 0, 0, 0, 0]), tf.range(10), tf.zeros(10, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.9], dtype=float32)>'),
    ('tf.sparse.segment_sqrt_n(tf.constant([9., 0, 0, 0, 0, 0, 0, 0, 0]), tf.range(9), tf.zeros(9, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>'),
    ('tf.sparse.segment_sqrt_n(tf.constant([3., 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), tf.range(11), tf.zeros(11, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.904534], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1e8, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1e8]), tf.range(11), tf.zeros(11, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([8.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1e8] + [1.] * 7 + [-1e8]), tf.range(9), tf.zeros(9, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1e8] + [1.] * 15 + [-1e8]), tf.range(17), tf.zeros(17, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([8.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1e8] + [1.] * 17 + [-1e8]), tf.range(19), tf.zeros(19, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([16.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([0.1] * 25), tf.range(25), tf.zeros(25, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([2.5000002], dtype=float32)>'),
    ('tf.sparse.segment_mean(tf.constant([0.1, 0.2, 0.7, 1.3, 2.9, 1e-3, 5.5], tf.float64), tf.range(7), tf.zeros(7, tf.int32))',
     '<tf.Tensor: shape=(1,), dtype=float64, numpy=array([1.52871429])>'),
    ('tf.sparse.segment_sum(tf.constant([1., 2, 3]), tf.constant([0, 1], tf.int64), tf.constant([0, 0], tf.int64))',
     '<tf.Tensor: shape=(1,), dtype=float32, numpy=array([3.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1., 2, 3]), tf.constant([0, 1], tf.int64), tf.constant([0, 0], tf.int32), num_segments=tf.constant(2, tf.int64))',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 0.], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1., 2, 3]), [], [])',
     '<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.constant([1., 2, 3]), [], [], num_segments=2)',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>'),
    ('tf.sparse.segment_mean(tf.constant([1., 2, 3]), [], [])',
     '<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.zeros([3, 0]), [0, 1], [0, 1])',
     '<tf.Tensor: shape=(2, 0), dtype=float32, numpy=array([], shape=(2, 0), dtype=float32)>'),
    ('tf.sparse.segment_sum(c, [0, 1], [0, 0], sparse_gradient=True)',
     '<tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 0., 0., 0.]], dtype=float32)>'),
    ('tf.sparse.segment_sum(tf.ones([3, 2, 2]), [0, 2, 1], [0, 1, 1])',
     '<tf.Tensor: shape=(2, 2, 2), dtype=float32, numpy=\narray([[[1., 1.],\n        [1., 1.]],\n\n       [[2., 2.],\n        [2., 2.]]], dtype=float32)>'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)',
     '<tf.Tensor: shape=(4, 2), dtype=float32, numpy=\narray([[1., 2.],\n       [0., 0.],\n       [4., 6.],\n       [0., 0.]], dtype=float32)>'),
    ('R.SparseSegmentMeanGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)',
     '<tf.Tensor: shape=(4, 2), dtype=float32, numpy=\narray([[0.5, 1. ],\n       [0. , 0. ],\n       [3.5, 5. ],\n       [0. , 0. ]], dtype=float32)>'),
    ('R.SparseSegmentSqrtNGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)',
     '<tf.Tensor: shape=(4, 2), dtype=float32, numpy=\narray([[0.70710677, 1.4142135 ],\n       [0.        , 0.        ],\n       [3.7071068 , 5.4142137 ],\n       [0.        , 0.        ]], dtype=float32)>'),
    ('R.SparseSegmentSumGradV2(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=4)',
     'SparseSegmentSumGradV2(output=<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1., 2.],\n       [4., 6.]], dtype=float32)>, sorted_unique_indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>)'),
    ('R.SparseSegmentMeanGradV2(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=4)',
     'SparseSegmentMeanGradV2(output=<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[0.5, 1. ],\n       [3.5, 5. ]], dtype=float32)>, sorted_unique_indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>)'),
    ('R.SparseSegmentSqrtNGradV2(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=4)',
     'SparseSegmentSqrtNGradV2(output=<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[0.70710677, 1.4142135 ],\n       [3.7071068 , 5.4142137 ]], dtype=float32)>, sorted_unique_indices=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>)'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 1, 0], output_dim0=4)',
     '<tf.Tensor: shape=(4, 2), dtype=float32, numpy=\narray([[3., 4.],\n       [0., 0.],\n       [2., 4.],\n       [0., 0.]], dtype=float32)>'),
    ('R.SparseSegmentMeanGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 1, 0], output_dim0=4)',
     '<tf.Tensor: shape=(4, 2), dtype=float32, numpy=\narray([[3., 4.],\n       [0., 0.],\n       [1., 2.],\n       [0., 0.]], dtype=float32)>'),
    ('R.SparseSegmentMeanGrad(grad=tf.constant([[1.], [7.]]), indices=[0, 1, 2, 3], segment_ids=[1, 1, 1, 0], output_dim0=4)',
     '<tf.Tensor: shape=(4, 1), dtype=float32, numpy=\narray([[2.3333335],\n       [2.3333335],\n       [2.3333335],\n       [1.       ]], dtype=float32)>'),
    ('R.SparseSegmentSqrtNGrad(grad=tf.constant([[1.], [9.]]), indices=[0, 1, 2, 3], segment_ids=[1, 1, 1, 0], output_dim0=4)',
     '<tf.Tensor: shape=(4, 1), dtype=float32, numpy=\narray([[5.196152],\n       [5.196152],\n       [5.196152],\n       [1.      ]], dtype=float32)>'),
    ('R.SparseSegmentSumGrad(grad=tf.constant([[2048.], [1.]], tf.float16), indices=[0, 0, 0], segment_ids=[0, 1, 1], output_dim0=2)',
     '<tf.Tensor: shape=(2, 1), dtype=float16, numpy=\narray([[2.05e+03],\n       [0.00e+00]], dtype=float16)>'),
    ('R.SparseSegmentSumGradV2(grad=g, indices=tf.constant([3, 1], tf.int64), segment_ids=[0, 1], dense_output_dim0=4)',
     'SparseSegmentSumGradV2(output=<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[3., 4.],\n       [1., 2.]], dtype=float32)>, sorted_unique_indices=<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 3])>)'),
]

ERRORS = [
    ('tf.sparse.segment_sum(c, [0, 1, 2], [1, 0, 2])', tf.errors.InvalidArgumentError,
     'segment ids are not increasing'),
    ('tf.sparse.segment_sum(c, [0, 5], [0, 1])', tf.errors.InvalidArgumentError,
     'Bad: indices[1] == 5 out of range [0, 3)'),
    ('tf.sparse.segment_sum(c, [0, -1], [0, 1])', tf.errors.InvalidArgumentError,
     'Bad: indices[1] == -1 out of range [0, 3)'),
    ('tf.sparse.segment_sum(c, [0, 1], [0, 1, 2])', tf.errors.InvalidArgumentError,
     'segment_ids and indices should have same size.'),
    ('tf.sparse.segment_sum(c, [0, 1], [0, -1])', tf.errors.InvalidArgumentError,
     'segment ids must be >= 0'),
    ('tf.sparse.segment_sum(c, [0, 1], [-1, 0])', tf.errors.InvalidArgumentError,
     "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted."),
    ('tf.sparse.segment_sum(c, [0, 1], [0, 5], num_segments=3)', tf.errors.InvalidArgumentError,
     'segment ids must be < num_segments'),
    ('tf.sparse.segment_sum(c, [0, 1], [1, 0], num_segments=3)', tf.errors.InvalidArgumentError,
     'segment ids are not increasing'),
    ('tf.sparse.segment_sum(c, [0, 1], [0, 1], num_segments=-1)', tf.errors.InvalidArgumentError,
     'segment ids must be >= 0'),
    ('tf.sparse.segment_sum(c2, [0, 1], [0, -1], num_segments=3)', tf.errors.InvalidArgumentError,
     'segment ids are not increasing'),
    ('tf.sparse.segment_sum(c2, [0, 1], [0, 0], num_segments=0)', tf.errors.InvalidArgumentError,
     'segment ids must be < num_segments'),
    ('tf.sparse.segment_sum(c2, [0, 1, 9], [0, 0, 0])', tf.errors.InvalidArgumentError,
     'Bad: indices[2] == 9 out of range [0, 3)'),
    ('tf.sparse.segment_sum(c2, [0, 1, 9], [1, 0, 2])', tf.errors.InvalidArgumentError,
     'segment ids are not increasing'),
    ('tf.sparse.segment_sum(c, [[0, 1]], [0, 1])', tf.errors.InvalidArgumentError,
     'indices should be a vector.'),
    ('tf.sparse.segment_sum(c, [0, 1], [[0, 1]])', tf.errors.InvalidArgumentError,
     'segment_ids should be a vector.'),
    ('tf.sparse.segment_sum(5., [0], [0])', tf.errors.InvalidArgumentError,
     'Shape must be at least rank 1'),
    ('tf.sparse.segment_mean(tf.constant([1, 2, 3]), [0, 1], [0, 0])', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
    ('tf.sparse.segment_sqrt_n(tf.constant([1, 2, 3]), [0, 1], [0, 0])', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
    ('tf.sparse.segment_sum(tf.constant([1, 2, 3], tf.complex64), [0, 1], [0, 0])', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of complex64 is not in the list of allowed values: float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"),
    ('tf.sparse.segment_sum(c, tf.constant([0., 1.]), [0, 0])', tf.errors.InvalidArgumentError,
     "Value for attr 'Tidx' of float is not in the list of allowed values: int32, int64"),
    ('R.SparseSegmentSumGrad(grad=g, indices=[5, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index 5 out of range [0, 4).'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 3], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Invalid number of segments'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'segment_ids and indices should have same size.'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, -1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Segment id -1 out of range [0, 2).'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[-1, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index -1 out of range [0, 4).'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 5, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Segment id 5 out of range [0, 2).'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 9, 2], segment_ids=[0, 5, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index 9 out of range [0, 4).'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[[2, 0, 2]], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'indices should be a vector.'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[[0, 0, 1]], output_dim0=4)', tf.errors.InvalidArgumentError,
     'segment_ids should be a vector.'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=[4])', tf.errors.InvalidArgumentError,
     'output_dim0 should be a scalar.'),
    ('R.SparseSegmentSumGrad(grad=5., indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index must be less than 0, got 0'),
    ('R.SparseSegmentSumGrad(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=-1)', tf.errors.InvalidArgumentError,
     'Expected a non-negative size, got -1'),
    ('R.SparseSegmentSumGradV2(grad=g, indices=[5, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index 5 out of range [0, 4).'),
    ('R.SparseSegmentSumGradV2(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 3], dense_output_dim0=4)', tf.errors.InvalidArgumentError,
     'Invalid number of segments'),
    ('R.SparseSegmentSumGradV2(grad=g, indices=[2, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=[4])', tf.errors.InvalidArgumentError,
     'dense_output_dim0 should be a scalar.'),
    ('R.SparseSegmentSumGradV2(grad=tf.constant(1.), indices=[2, 0, 2], segment_ids=[0, 0, 1], dense_output_dim0=4)', tf.errors.InvalidArgumentError,
     'Index must be less than 0, got 0'),
    ('R.SparseSegmentSumGrad(grad=tf.constant([[1, 2], [3, 4]]), indices=[2, 0, 2], segment_ids=[0, 0, 1], output_dim0=4)', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double"),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS, NAMESPACE)

DATA = np.array([[1., 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]], np.float32)

# Gradients of sum(y * range(size(y))) with respect to DATA, indices [0, 2, 2, 1], segment ids
# [0, 0, 2, 2] (or [0, 0, 2, 3] with num_segments=4), recorded from TF 2.21 (with
# sparse_gradient=True TF returns the same values as IndexedSlices; graphfn returns them dense).
GRADIENTS = {
    ("segment_sum", None): [[0, 1, 2, 3], [8, 9, 10, 11], [8, 10, 12, 14]],
    ("segment_sum", 4): [[0, 1, 2, 3], [12, 13, 14, 15], [8, 10, 12, 14]],
    ("segment_mean", None): [[0, .5, 1, 1.5], [4, 4.5, 5, 5.5], [4, 5, 6, 7]],
    ("segment_mean", 4): [[0, .5, 1, 1.5], [12, 13, 14, 15], [8, 9.5, 11, 12.5]],
    ("segment_sqrt_n", None): [[0, 0.7071067690849304, 1.4142135381698608, 2.1213202476501465],
                               [5.656854152679443, 6.3639607429504395, 7.071067810058594, 7.77817440032959],
                               [5.656854152679443, 7.0710673332214355, 8.485280990600586, 9.899494171142578]],
    ("segment_sqrt_n", 4): [[0, 0.7071067690849304, 1.4142135381698608, 2.1213202476501465], [12, 13, 14, 15],
                            [8, 9.707106590270996, 11.414213180541992, 13.121320724487305]],
}


@pytest.mark.parametrize("sparse_gradient", [False, True])
@pytest.mark.parametrize("name, num_segments", sorted(GRADIENTS, key=str))
def test_gradient_matches_tensorflow(name, num_segments, sparse_gradient):
    fn = getattr(tf.sparse, name)
    data = tf.constant(DATA)
    with tf.GradientTape() as tape:
        tape.watch(data)
        y = fn(data, [0, 2, 2, 1], [0, 0, 2, 3 if num_segments else 2], num_segments=num_segments,
               sparse_gradient=sparse_gradient)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(tf.size(y), dtype=tf.float32), tf.shape(y)))
    grad = tape.gradient(loss, data)
    np.testing.assert_array_equal(tf.convert_to_tensor(grad).numpy(), np.array(GRADIENTS[name, num_segments], np.float32))


@pytest.mark.parametrize("name", ["segment_sum", "segment_mean", "segment_sqrt_n"])
def test_gradient_matches_finite_differences(name):
    fn = getattr(tf.sparse, name)
    rng = np.random.default_rng(3)
    data = rng.normal(size=(5, 3))
    indices, ids = [4, 0, 4, 2, 1, 1], [0, 0, 1, 1, 1, 3]
    weights = rng.normal(size=(4, 3))
    with tf.GradientTape() as tape:
        x = tf.constant(data)
        tape.watch(x)
        loss = tf.reduce_sum(fn(x, indices, ids) * weights)
    analytic = tape.gradient(loss, x).numpy()
    numeric = np.zeros_like(data)
    h = 1e-6
    for i in np.ndindex(*data.shape):
        up, down = data.copy(), data.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = (np.sum(fn(up, indices, ids).numpy() * weights) - np.sum(fn(down, indices, ids).numpy() * weights)) / (2 * h)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_gradient_inside_function():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sparse.segment_mean(x, [0, 2, 2, 1], [0, 0, 2, 3], num_segments=4)
            loss = tf.reduce_sum(y * tf.reshape(tf.range(16, dtype=tf.float32), [4, 4]))
        return tape.gradient(loss, x)

    np.testing.assert_array_equal(grad(tf.constant(DATA)).numpy(), np.array(GRADIENTS["segment_mean", 4], np.float32))


SPEC = tf.TensorSpec


@pytest.mark.parametrize("shapes, expected", [
    (([None, 3], [None], [None]), [None, 3]),
    (([4, 3], [2], [3]), [None, 3]),  # TF does not compare the two lengths while building
])
def test_graph_shapes(shapes, expected):
    f = tf.function(lambda d, i, s: tf.sparse.segment_sum(d, i, s))
    concrete = f.get_concrete_function(SPEC(shapes[0]), SPEC(shapes[1], tf.int32), SPEC(shapes[2], tf.int32))
    assert concrete.outputs[0].shape.as_list() == expected


def test_graph_shape_with_constant_num_segments():
    f = tf.function(lambda d, i, s: tf.sparse.segment_mean(d, i, s, num_segments=7))
    concrete = f.get_concrete_function(SPEC([None, 3]), SPEC([None], tf.int32), SPEC([None], tf.int32))
    assert concrete.outputs[0].shape.as_list() == [7, 3]
    f = tf.function(lambda d, i, s, n: tf.sparse.segment_mean(d, i, s, num_segments=n))
    concrete = f.get_concrete_function(SPEC([None, 3]), SPEC([None], tf.int32), SPEC([None], tf.int32), SPEC([], tf.int32))
    assert concrete.outputs[0].shape.as_list() == [None, 3]


def test_graph_shapes_of_grad_ops():
    f = tf.function(lambda d, i, s: tf.raw_ops.SparseSegmentSumGrad(grad=d, indices=i, segment_ids=s, output_dim0=5))
    assert f.get_concrete_function(SPEC([None, 3]), SPEC([None], tf.int32), SPEC([None], tf.int32)).outputs[0].shape.as_list() == [5, 3]
    f = tf.function(lambda d, i, s: tf.raw_ops.SparseSegmentSumGradV2(grad=d, indices=i, segment_ids=s, dense_output_dim0=5))
    outputs = f.get_concrete_function(SPEC([None, 3]), SPEC([None], tf.int32), SPEC([None], tf.int32)).outputs
    assert [o.shape.as_list() for o in outputs] == [[None, 3], [None]]
    assert outputs[1].dtype == tf.int32


@pytest.mark.parametrize("shapes, message", [
    (([4], [None, 1], [None]), "Shape must be rank 1 but is rank 2"),
    (([], [None], [None]), "Shape must be at least rank 1 but is rank 0"),
    (([None, 3], [None], [None, 2]), "Shape must be rank 1 but is rank 2"),
])
def test_graph_shape_errors(shapes, message):
    f = tf.function(lambda d, i, s: tf.sparse.segment_sum(d, i, s))
    with pytest.raises(ValueError) as info:
        f.get_concrete_function(SPEC(shapes[0]), SPEC(shapes[1], tf.int32), SPEC(shapes[2], tf.int32))
    assert message in str(info.value)


def test_graph_num_segments_must_be_a_scalar():
    f = tf.function(lambda d, i, s, n: tf.sparse.segment_mean(d, i, s, num_segments=n))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        f.get_concrete_function(SPEC([None, 3]), SPEC([None], tf.int32), SPEC([None], tf.int32), SPEC([2], tf.int32))


def test_largest_segment_id_is_refused():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Last segment id must be < kintmax, got 9223372036854775807 limit 9223372036854775807"):
        tf.sparse.segment_sum(tf.ones([2, 2]), tf.constant([0], tf.int64), tf.constant([2**63 - 1], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid number of segments"):
        tf.raw_ops.SparseSegmentSumGrad(grad=tf.ones([2, 2]), indices=tf.constant([0], tf.int64),
                                        segment_ids=tf.constant([2**63 - 1], tf.int64), output_dim0=2)


def test_graph_run_errors_match_eager():
    f = tf.function(lambda d, i, s: tf.sparse.segment_sum(d, i, s))
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        f(tf.constant(DATA), tf.constant([0, 1, 2]), tf.constant([1, 0, 2]))
    np.testing.assert_array_equal(f(tf.constant(DATA), tf.constant([0, 2]), tf.constant([1, 1])).numpy(),
                                  [[0, 0, 0, 0], [6, 8, 10, 12]])
