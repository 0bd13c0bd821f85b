"""The MatrixDiag family's V1 (MatrixDiag, MatrixDiagPart, MatrixSetDiag: the main diagonal) and
V2 (k, num_rows/num_cols, padding_value; packed LEFT_LEFT) raw ops: values, errors, graph shapes
and gradients, recorded from TensorFlow 2.21. (tf.linalg.diag/diag_part/set_diag call the V3 ops
in TF 2.21, as in graphfn.)"""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ('tf.raw_ops.MatrixDiag(diagonal=[[1., 2., 3.], [4., 5., 6.]])',
     '<tf.Tensor: shape=(2, 3, 3), dtype=float32, numpy=\narray([[[1., 0., 0.],\n        [0., 2., 0.],\n        [0., 0., 3.]],\n\n       [[4., 0., 0.],\n        [0., 5., 0.],\n        [0., 0., 6.]]], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiag(diagonal=tf.constant([1, 2], tf.uint32))',
     '<tf.Tensor: shape=(2, 2), dtype=uint32, numpy=\narray([[1, 0],\n       [0, 2]], dtype=uint32)>'),
    ('tf.raw_ops.MatrixDiag(diagonal=tf.constant([1 + 2j, 2], tf.complex64))',
     '<tf.Tensor: shape=(2, 2), dtype=complex64, numpy=\narray([[1.+2.j, 0.+0.j],\n       [0.+0.j, 2.+0.j]], dtype=complex64)>'),
    ('tf.raw_ops.MatrixDiag(diagonal=tf.constant([1.5, 2], tf.bfloat16))',
     '<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[1.5, 0],\n       [0, 2]], dtype=bfloat16)>'),
    ('tf.raw_ops.MatrixDiag(diagonal=tf.zeros([2, 0]))',
     '<tf.Tensor: shape=(2, 0, 0), dtype=float32, numpy=array([], shape=(2, 0, 0), dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagPart(input=tf.reshape(tf.range(1., 13.), [3, 4]))',
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 1.,  6., 11.], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagPart(input=tf.reshape(tf.range(12), [2, 3, 2]))',
     '<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[0, 3],\n       [6, 9]], dtype=int32)>'),
    ('tf.raw_ops.MatrixDiagPart(input=[[True, False], [False, True]])',
     '<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True,  True])>'),
    ('tf.raw_ops.MatrixDiagPart(input=tf.zeros([2, 0, 3]))',
     '<tf.Tensor: shape=(2, 0), dtype=float32, numpy=array([], shape=(2, 0), dtype=float32)>'),
    ('tf.raw_ops.MatrixSetDiag(input=tf.reshape(tf.range(1., 13.), [3, 4]), diagonal=[9., 8., 7.])',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[ 9.,  2.,  3.,  4.],\n       [ 5.,  8.,  7.,  8.],\n       [ 9., 10.,  7., 12.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixSetDiag(input=tf.zeros([2, 2], tf.float16), diagonal=tf.ones([2], tf.float16))',
     '<tf.Tensor: shape=(2, 2), dtype=float16, numpy=\narray([[1., 0.],\n       [0., 1.]], dtype=float16)>'),
    ('tf.raw_ops.MatrixDiagV2(diagonal=[[1., 2.], [3., 4.]], k=[-1, 0], num_rows=-1, num_cols=-1, padding_value=0.)',
     '<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1., 0.],\n       [3., 2.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagV2(diagonal=[[1., 2., 3.], [4., 5., 0.]], k=[0, 1], num_rows=-1, num_cols=-1, padding_value=9.)',
     '<tf.Tensor: shape=(3, 3), dtype=float32, numpy=\narray([[4., 1., 9.],\n       [9., 5., 2.],\n       [9., 9., 0.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagPartV2(input=tf.reshape(tf.range(1., 13.), [3, 4]), k=[-1, 1], padding_value=-1.)',
     '<tf.Tensor: shape=(3, 3), dtype=float32, numpy=\narray([[ 2.,  7., 12.],\n       [ 1.,  6., 11.],\n       [ 5., 10., -1.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagPartV2(input=tf.reshape(tf.range(1., 13.), [4, 3]), k=[-2, 1], padding_value=-1.)',
     '<tf.Tensor: shape=(4, 3), dtype=float32, numpy=\narray([[ 2.,  6., -1.],\n       [ 1.,  5.,  9.],\n       [ 4.,  8., 12.],\n       [ 7., 11., -1.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixDiagPartV3(input=tf.reshape(tf.range(1., 13.), [4, 3]), k=[-2, 1], padding_value=-1.)',
     '<tf.Tensor: shape=(4, 3), dtype=float32, numpy=\narray([[-1.,  2.,  6.],\n       [ 1.,  5.,  9.],\n       [ 4.,  8., 12.],\n       [ 7., 11., -1.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixSetDiagV2(input=tf.reshape(tf.range(1., 13.), [3, 4]), diagonal=[[1., 2., 3.], [4., 5., 0.]], k=[-1, 0])',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[ 1.,  2.,  3.,  4.],\n       [ 4.,  2.,  7.,  8.],\n       [ 9.,  5.,  3., 12.]], dtype=float32)>'),
    ('tf.raw_ops.MatrixSetDiagV2(input=tf.zeros([4, 3]), diagonal=[[1., 2., 0.], [4., 5., 6.], [7., 8., 0.]], k=[-1, 1])',
     '<tf.Tensor: shape=(4, 3), dtype=float32, numpy=\narray([[4., 1., 0.],\n       [7., 5., 2.],\n       [0., 8., 6.],\n       [0., 0., 0.]], dtype=float32)>'),
]

ERRORS = [
    ('tf.raw_ops.MatrixDiagV2(diagonal=[1, 2], k=1, num_rows=3, num_cols=4, padding_value=7)', tf.errors.InvalidArgumentError,
     'The number of rows or columns is not consistent with the specified d_lower, d_upper, and diagonal.'),
    ('tf.raw_ops.MatrixDiag(diagonal=tf.constant(1.))', tf.errors.InvalidArgumentError,
     'diagonal must be at least 1-dim, received shape: []'),
    ('tf.raw_ops.MatrixDiagPart(input=[1., 2.])', tf.errors.InvalidArgumentError,
     'input must be at least 2-dim, received shape: [2]'),
    ('tf.raw_ops.MatrixSetDiag(input=tf.reshape(tf.range(1., 13.), [3, 4]), diagonal=[9., 8.])', tf.errors.InvalidArgumentError,
     "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to the longests diagonal in range [lower_diag_index:upper_diag_index]."),
    ('tf.raw_ops.MatrixSetDiag(input=tf.zeros([3, 3]), diagonal=tf.constant(1.))', tf.errors.InvalidArgumentError,
     'diagonal must be at least 1-dim, received shape: []'),
    ('tf.raw_ops.MatrixSetDiag(input=tf.zeros([3]), diagonal=tf.zeros([3]))', tf.errors.InvalidArgumentError,
     'input must be at least 2-dim, received shape: [3]'),
    ('tf.raw_ops.MatrixSetDiag(input=tf.zeros([2, 3, 3]), diagonal=tf.zeros([3, 3]))', tf.errors.InvalidArgumentError,
     "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to the longests diagonal in range [lower_diag_index:upper_diag_index]."),
    ('tf.raw_ops.MatrixDiagV2(diagonal=[[1., 2.], [3., 4.]], k=[1, 0], num_rows=-1, num_cols=-1, padding_value=0.)', tf.errors.InvalidArgumentError,
     'lower_diag_index must not be larger than upper_diag_index: 1 > 0'),
    ('tf.raw_ops.MatrixDiagV2(diagonal=tf.zeros([2, 2]), k=[0, 3], num_rows=-1, num_cols=-1, padding_value=0.)', tf.errors.InvalidArgumentError,
     'The number of diagonals provided in the input does not match the lower_diag_index and upper_diag_index range.'),
    ('tf.raw_ops.MatrixDiagV2(diagonal=tf.zeros([2]), k=0, num_rows=1, num_cols=-1, padding_value=0.)', tf.errors.InvalidArgumentError,
     'The number of rows is too small.'),
    ('tf.raw_ops.MatrixDiagPartV2(input=tf.zeros([2, 2]), k=3, padding_value=0.)', tf.errors.InvalidArgumentError,
     'lower_diag_index is out of bound: 3. It must be between -2 and 2'),
    ('tf.raw_ops.MatrixSetDiagV2(input=tf.zeros([3, 3]), diagonal=tf.zeros([2]), k=0)', tf.errors.InvalidArgumentError,
     "Either first dimensions of diagonal don't match input.shape[:-2], or diagonal.shape[:-1] is not equal to the longests diagonal in range [lower_diag_index:upper_diag_index]."),
    ('tf.raw_ops.MatrixDiag(diagonal=["a", "b"])', tf.errors.NotFoundError,
     '= MatrixDiag[T=DT_STRING]'),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)

R = tf.raw_ops
S = tf.TensorSpec

# (input specs, op, TF 2.21's static output shape or its ValueError's text)
GRAPH_SHAPES = [
    ([S([])], lambda a: R.MatrixDiag(diagonal=a), "Shape must be at least rank 1 but is rank 0"),
    ([S(None)], lambda a: R.MatrixDiag(diagonal=a), None),
    ([S([None, 4])], lambda a: R.MatrixDiag(diagonal=a), [None, 4, 4]),
    ([S([3])], lambda a: R.MatrixDiagPart(input=a), "Shape must be at least rank 2 but is rank 1"),
    ([S([2, 3, None])], lambda a: R.MatrixDiagPart(input=a), [2, None]),
    ([S([2, 3, 5])], lambda a: R.MatrixDiagPart(input=a), [2, 3]),
    ([S(None)], lambda a: R.MatrixDiagPart(input=a), None),
    ([S([3, 4]), S([2])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), "Dimensions must be equal, but are 3 and 2"),
    ([S([3, 4]), S([3])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), [3, 4]),
    ([S([3, 4]), S([None])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), [3, 4]),
    ([S([None, None]), S([5])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), [None, None]),
    ([S([3]), S([3])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), "Shape must be at least rank 2 but is rank 1"),
    ([S([3, 3]), S([])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), "Shape must be at least rank 1 but is rank 0"),
    ([S(None), S([3])], lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), [None, None]),
    ([S([3, 4]), S([2, 3])], lambda a, b: R.MatrixSetDiagV2(input=a, diagonal=b, k=[-1, 0]), [3, 4]),
    ([S([2, 3])], lambda a: R.MatrixDiagV2(diagonal=a, k=[-1, 0], num_rows=-1, num_cols=-1, padding_value=0.), [3, 3]),
    ([S([3, 4])], lambda a: R.MatrixDiagPartV2(input=a, k=[-1, 0], padding_value=0.), [2, 3]),
]


@pytest.mark.parametrize("specs, fn, expected", GRAPH_SHAPES)
def test_graph_shapes_match_tensorflow(specs, fn, expected):
    traced = tf.function(fn, input_signature=specs)
    if isinstance(expected, str):
        with pytest.raises(ValueError, match=expected):
            traced.get_concrete_function()
        return
    shape = traced.get_concrete_function().structured_outputs.shape
    assert (shape.as_list() if shape.rank is not None else None) == expected


def _weighted_sum(y):
    return tf.reduce_sum(y * tf.cast(tf.reshape(tf.range(tf.size(y)), tf.shape(y)), y.dtype))


M = np.arange(1., 13., dtype=np.float32).reshape(3, 4)

# (op, inputs, TF 2.21's gradients of sum(y * index) with respect to the inputs)
GRADIENTS = [
    (lambda a: R.MatrixDiag(diagonal=a), [[[1., 2., 3.], [4., 5., 6.]]], [[[0., 4., 8.], [9., 13., 17.]]]),
    (lambda a: R.MatrixDiagPart(input=a), [M], [[[0., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 2., 0.]]]),
    (lambda a, b: R.MatrixSetDiag(input=a, diagonal=b), [M, [9., 8., 7.]],
     [[[0., 1., 2., 3.], [4., 0., 6., 7.], [8., 9., 0., 11.]], [0., 5., 10.]]),
    # TF's V2 gradients call the V3 ops with their default RIGHT_LEFT packing: the superdiagonal's
    # gradient comes right-aligned although V2 packed it left-aligned.
    (lambda a: R.MatrixDiagV2(diagonal=a, k=[0, 1], num_rows=-1, num_cols=-1, padding_value=9.),
     [[[1., 2., 3.], [4., 5., 0.]]], [[[0., 1., 5.], [0., 4., 8.]]]),
    (lambda a: R.MatrixDiagPartV2(input=a, k=[-1, 1], padding_value=-1.), [M],
     [[[3., 0., 0., 0.], [6., 4., 1., 0.], [0., 7., 5., 2.]]]),
    (lambda a, b: R.MatrixSetDiagV2(input=a, diagonal=b, k=[-1, 0]), [M, [[1., 2., 3.], [4., 5., 0.]]],
     [[[0., 1., 2., 3.], [0., 0., 6., 7.], [8., 0., 0., 11.]], [[0., 5., 10.], [4., 9., 0.]]]),
]


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("fn, inputs, expected", GRADIENTS)
def test_gradients_match_tensorflow(fn, inputs, expected, traced):
    def grads(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            loss = _weighted_sum(fn(*xs))
        return tape.gradient(loss, list(xs))

    run = tf.function(grads) if traced else grads
    got = run(*[tf.constant(np.asarray(x, np.float32)) for x in inputs])
    for g, want in zip(got, expected):
        np.testing.assert_array_equal(g.numpy(), np.asarray(want, np.float32))


def test_v1_and_v2_ops_in_function_match_eager():
    @tf.function
    def f(m, d):
        return (R.MatrixDiag(diagonal=d), R.MatrixDiagPart(input=m), R.MatrixSetDiag(input=m, diagonal=d[:3]),
                R.MatrixDiagPartV2(input=m, k=[-1, 1], padding_value=-1.))

    m = tf.constant(M)
    d = tf.constant([9., 8., 7., 6.])
    for got, want in zip(f(m, d), (R.MatrixDiag(diagonal=d), R.MatrixDiagPart(input=m),
                                   R.MatrixSetDiag(input=m, diagonal=d[:3]),
                                   R.MatrixDiagPartV2(input=m, k=[-1, 1], padding_value=-1.))):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
