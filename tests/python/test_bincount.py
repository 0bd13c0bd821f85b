"""The bincount family: raw ops Bincount, DenseBincount, SparseBincount and RaggedBincount,
tf.math.bincount on Tensor, RaggedTensor and SparseTensor inputs (weights, minlength, maxlength,
dtype, axis=-1, binary_output) and tf.sparse.bincount: values, dtypes and errors recorded from
TensorFlow 2.21, and graph mode."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

NAMESPACE = {"tf": tf, "np": np, "R": tf.raw_ops,
             "st": tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 1, 4], [2, 3]),
             "rt": tf.ragged.constant([[1, 1], [3]])}

RESULTS = [
    ('R.Bincount(arr=[1, 1, 3], size=5, weights=[])',
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0., 2., 0., 1., 0.], dtype=float32)>'),
    ('R.Bincount(arr=[1, 1, 3], size=5, weights=[0.5, 1., 2.])',
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0. , 1.5, 0. , 2. , 0. ], dtype=float32)>'),
    ('R.Bincount(arr=[1, 1, 7], size=5, weights=tf.constant([1, 2, 3]))',
     '<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 3, 0, 0, 0], dtype=int32)>'),
    ('R.Bincount(arr=[[1, 1], [3, 0]], size=5, weights=[])',
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([1., 2., 0., 1., 0.], dtype=float32)>'),
    ('R.Bincount(arr=5, size=6, weights=[])',
     '<tf.Tensor: shape=(6,), dtype=float32, numpy=array([0., 0., 0., 0., 0., 1.], dtype=float32)>'),
    ('R.Bincount(arr=[1, 2], size=3, weights=[[1., 2.]])',
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 1., 2.], dtype=float32)>'),
    ('R.Bincount(arr=[1, 2], size=3, weights=tf.constant([1, 2], tf.int64))',
     '<tf.Tensor: shape=(3,), dtype=int64, numpy=array([0, 1, 2])>'),
    ('R.DenseBincount(input=[1, 1, 3], size=5, weights=[], binary_output=True)',
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0., 1., 0., 1., 0.], dtype=float32)>'),
    ('R.DenseBincount(input=[[1, 1, 3], [0, 0, 9]], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 2., 0., 1., 0.],\n       [2., 0., 0., 0., 0.]], dtype=float32)>'),
    ('R.DenseBincount(input=[[1, 1, 3], [0, 0, 9]], size=5, weights=[[1., 2, 3], [4, 5, 6]])',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 3., 0., 3., 0.],\n       [9., 0., 0., 0., 0.]], dtype=float32)>'),
    ('R.DenseBincount(input=5, size=6, weights=[])',
     '<tf.Tensor: shape=(6,), dtype=float32, numpy=array([0., 0., 0., 0., 0., 1.], dtype=float32)>'),
    ('R.DenseBincount(input=[1, 2], size=3, weights=[1, 2], binary_output=True)',
     '<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 1], dtype=int32)>'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [1, 1]], values=[1, 1, 4], dense_shape=[2, 3], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 2., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0], [2], [3]], values=[1, 1, 4], dense_shape=[4], size=5, weights=[0.5, 1.5, 2.], binary_output=False)',
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([0., 2., 0., 0., 2.], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [1, 1]], values=[1, 1, 4], dense_shape=[2, 3], size=5, weights=[], binary_output=True)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [1, 1]], values=[1, -1, 4], dense_shape=[2, 3], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [1, 1]], values=[1, 9, 4], dense_shape=[2, 3], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0, 0, 0]], values=[1], dense_shape=[2, 3, 3], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 0.]], dtype=float32)>'),
    ('R.SparseBincount(indices=np.zeros([0, 2], np.int64), values=tf.zeros([0], tf.int32), dense_shape=[2, 3], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 0., 0., 0., 0.],\n       [0., 0., 0., 0., 0.]], dtype=float32)>'),
    ('R.SparseBincount(indices=[[0, 0], [1, 2]], values=tf.constant([1, 3], tf.int64), dense_shape=[2, 3], size=tf.constant(5, tf.int64), weights=tf.constant([2., 3.], tf.float64), binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float64, numpy=\narray([[0., 2., 0., 0., 0.],\n       [0., 0., 0., 3., 0.]])>'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 1, 4], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 2., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 1, 4], size=5, weights=[1., 2., 3.], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 3., 0., 0., 0.],\n       [0., 0., 0., 0., 3.]], dtype=float32)>'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 1, 4], size=5, weights=[], binary_output=True)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.RaggedBincount(splits=[0, 3, 1, 3], values=[1, 1, 4], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(3, 5), dtype=float32, numpy=\narray([[0., 2., 0., 0., 1.],\n       [0., 0., 0., 0., 0.],\n       [0., 0., 0., 0., 0.]], dtype=float32)>'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 7, 4], size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 1., 0., 0., 0.],\n       [0., 0., 0., 0., 1.]], dtype=float32)>'),
    ('R.RaggedBincount(splits=[0], values=tf.zeros([0], tf.int32), size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(0, 5), dtype=float32, numpy=array([], shape=(0, 5), dtype=float32)>'),
    ('R.RaggedBincount(splits=[0, 0, 0], values=tf.zeros([0], tf.int32), size=5, weights=[], binary_output=False)',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 0., 0., 0., 0.],\n       [0., 0., 0., 0., 0.]], dtype=float32)>'),
    ('tf.math.bincount([1, 1, 3])',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 2, 0, 1], dtype=int32)>'),
    ('tf.math.bincount([1, 1, 3], minlength=6)',
     '<tf.Tensor: shape=(6,), dtype=int32, numpy=array([0, 2, 0, 1, 0, 0], dtype=int32)>'),
    ('tf.math.bincount([1, 1, 3], maxlength=2)',
     '<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>'),
    ('tf.math.bincount([1, 1, 3], weights=[0.5, 1, 2])',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0. , 1.5, 0. , 2. ], dtype=float32)>'),
    ('tf.math.bincount([1, 1, 3], weights=[0.5, 1, 2], dtype=tf.float64)',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0. , 1.5, 0. , 2. ], dtype=float32)>'),
    ('tf.math.bincount([1, 1, 3], dtype=tf.float32)',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0., 2., 0., 1.], dtype=float32)>'),
    ('tf.math.bincount([1, 1, 3], dtype=tf.int64)',
     '<tf.Tensor: shape=(4,), dtype=int64, numpy=array([0, 2, 0, 1])>'),
    ('tf.math.bincount([1, 1, 3], binary_output=True)',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 0, 1], dtype=int32)>'),
    ('tf.math.bincount([[1, 1, 3], [2, 2, 0]], axis=-1)',
     '<tf.Tensor: shape=(2, 4), dtype=int32, numpy=\narray([[0, 2, 0, 1],\n       [1, 0, 2, 0]], dtype=int32)>'),
    ('tf.math.bincount([[1, 1, 3], [2, 2, 0]], axis=-1, binary_output=True, minlength=5)',
     '<tf.Tensor: shape=(2, 5), dtype=int32, numpy=\narray([[0, 1, 0, 1, 0],\n       [1, 0, 1, 0, 0]], dtype=int32)>'),
    ('tf.math.bincount([[1, 2]], axis=-1, weights=[[1., 2]])',
     '<tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0., 1., 2.]], dtype=float32)>'),
    ('tf.math.bincount([[1, 2]], axis=0, weights=[[1., 2]])',
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 1., 2.], dtype=float32)>'),
    ('tf.math.bincount([])',
     '<tf.Tensor: shape=(0,), dtype=int32, numpy=array([], dtype=int32)>'),
    ('tf.math.bincount([1.5, 2.5])',
     '<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 1], dtype=int32)>'),
    ('tf.math.bincount(tf.constant([1, 2], tf.int64), minlength=4)',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 1, 0], dtype=int32)>'),
    ('tf.math.bincount([1, 2], weights=[1, 2])',
     '<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>'),
    ('tf.math.bincount([1, 2], minlength=-1)',
     '<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 1], dtype=int32)>'),
    ('tf.math.bincount(5)',
     '<tf.Tensor: shape=(6,), dtype=int32, numpy=array([0, 0, 0, 0, 0, 1], dtype=int32)>'),
    ('tf.math.bincount(rt)',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 2, 0, 1], dtype=int32)>'),
    ('tf.math.bincount(rt, axis=-1)',
     '<tf.Tensor: shape=(2, 4), dtype=int32, numpy=\narray([[0, 2, 0, 0],\n       [0, 0, 0, 1]], dtype=int32)>'),
    ('tf.math.bincount(rt, axis=-1, weights=tf.ragged.constant([[1., 2.], [3.]]))',
     '<tf.Tensor: shape=(2, 4), dtype=float32, numpy=\narray([[0., 3., 0., 0.],\n       [0., 0., 0., 3.]], dtype=float32)>'),
    ('tf.math.bincount(rt, weights=tf.ragged.constant([[1., 2.], [3.]]))',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0., 3., 0., 3.], dtype=float32)>'),
    ('tf.math.bincount(rt, axis=-1, binary_output=True, minlength=6)',
     '<tf.Tensor: shape=(2, 6), dtype=int32, numpy=\narray([[0, 1, 0, 0, 0, 0],\n       [0, 0, 0, 1, 0, 0]], dtype=int32)>'),
    ('tf.math.bincount(tf.ragged.constant([[[1, 2]], [[3]]]))',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 1, 1], dtype=int32)>'),
    ('tf.math.bincount(tf.ragged.constant([[1.5, 1], [3]]))',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 2, 0, 1], dtype=int32)>'),
    ('tf.math.bincount(tf.ragged.constant([[1, 1], [3]], dtype=tf.int64), axis=-1, dtype=tf.float64)',
     '<tf.Tensor: shape=(2, 4), dtype=float64, numpy=\narray([[0., 2., 0., 0.],\n       [0., 0., 0., 1.]])>'),
    ('tf.math.bincount(st)',
     '<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 2, 0, 0, 1], dtype=int32)>'),
    ('tf.math.bincount(st, axis=-1)',
     '<tf.Tensor: shape=(2, 5), dtype=int32, numpy=\narray([[0, 2, 0, 0, 0],\n       [0, 0, 0, 0, 1]], dtype=int32)>'),
    ('tf.math.bincount(st, axis=-1, weights=tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1., 2., 3.], [2, 3]))',
     '<tf.Tensor: shape=(2, 5), dtype=float32, numpy=\narray([[0., 3., 0., 0., 0.],\n       [0., 0., 0., 0., 3.]], dtype=float32)>'),
    ('tf.math.bincount(tf.sparse.SparseTensor(np.zeros([0, 2], np.int64), tf.zeros([0], tf.int32), [2, 2]))',
     '<tf.Tensor: shape=(0,), dtype=int32, numpy=array([], dtype=int32)>'),
    ('tf.math.bincount(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1, 3], [2, 2]), axis=-1, minlength=2, maxlength=3)',
     '<tf.Tensor: shape=(2, 3), dtype=int32, numpy=\narray([[0, 1, 0],\n       [0, 0, 0]], dtype=int32)>'),
    ('tf.math.bincount(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.5, 3.7], [2, 2]))',
     '<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 0, 1], dtype=int32)>'),
    ('tf.sparse.bincount([1, 1, 3])',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [3]], shape=(2, 1), dtype=int64), values=tf.Tensor([2 1], shape=(2,), dtype=int32), dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount([[1, 1, 3], [2, 2, 0]], axis=-1)',
     'SparseTensor(indices=tf.Tensor(\n[[0 1]\n [0 3]\n [1 0]\n [1 2]], shape=(4, 2), dtype=int64), values=tf.Tensor([2 1 1 2], shape=(4,), dtype=int32), dense_shape=tf.Tensor([2 4], shape=(2,), dtype=int64))'),
    ('tf.sparse.bincount([1, 1, 3], weights=[1., 2, 3], minlength=5)',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [3]], shape=(2, 1), dtype=int64), values=tf.Tensor([3. 3.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([5], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount([1, 1, 3], binary_output=True, maxlength=2)',
     'SparseTensor(indices=tf.Tensor([[1]], shape=(1, 1), dtype=int64), values=tf.Tensor([1], shape=(1,), dtype=int32), dense_shape=tf.Tensor([2], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount(st)',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [4]], shape=(2, 1), dtype=int64), values=tf.Tensor([2 1], shape=(2,), dtype=int32), dense_shape=tf.Tensor([5], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount(st, axis=-1)',
     'SparseTensor(indices=tf.Tensor(\n[[0 1]\n [1 4]], shape=(2, 2), dtype=int64), values=tf.Tensor([2 1], shape=(2,), dtype=int32), dense_shape=tf.Tensor([2 5], shape=(2,), dtype=int64))'),
    ('tf.sparse.bincount(rt, axis=-1)',
     'SparseTensor(indices=tf.Tensor(\n[[0 1]\n [1 3]], shape=(2, 2), dtype=int64), values=tf.Tensor([2 1], shape=(2,), dtype=int32), dense_shape=tf.Tensor([2 4], shape=(2,), dtype=int64))'),
    ('tf.sparse.bincount([1, 1, 3], weights=[1, 2, 3])',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [3]], shape=(2, 1), dtype=int64), values=tf.Tensor([3 3], shape=(2,), dtype=int32), dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount(tf.constant([1, 1, 3], tf.int64))',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [3]], shape=(2, 1), dtype=int64), values=tf.Tensor([2 1], shape=(2,), dtype=int64), dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))'),
    ('tf.sparse.bincount([1, 1, 3], weights=[1., 0., 2.])',
     'SparseTensor(indices=tf.Tensor(\n[[1]\n [3]], shape=(2, 1), dtype=int64), values=tf.Tensor([1. 2.], shape=(2,), dtype=float32), dense_shape=tf.Tensor([4], shape=(1,), dtype=int64))'),
]

ERRORS = [
    ('R.Bincount(arr=[1, -1, 3], size=5, weights=[])', tf.errors.InvalidArgumentError,
     'Input arr must be non-negative!'),
    ('R.Bincount(arr=[1, 1, 3], size=-1, weights=[])', tf.errors.InvalidArgumentError,
     'size (-1) must be non-negative'),
    ('R.Bincount(arr=[1, 1, 3], size=5, weights=[1., 2.])', tf.errors.InvalidArgumentError,
     'Input indices and weights must have the same size.'),
    ('R.Bincount(arr=[1, 1, 3], size=[5], weights=[])', tf.errors.InvalidArgumentError,
     'Shape must be rank 0 but is rank 1'),
    ('R.Bincount(arr=[1, 2], size=3, weights=tf.constant([1, 2], tf.float16))', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of half is not in the list of allowed values: int32, int64, float, double"),
    ('R.DenseBincount(input=[1, -1, 3], size=5, weights=[])', tf.errors.InvalidArgumentError,
     'Input arr must be non-negative!'),
    ('R.DenseBincount(input=[[[1]]], size=5, weights=[])', tf.errors.InvalidArgumentError,
     'Shape must be at most rank 2 but is rank 3'),
    ('R.DenseBincount(input=[1, 2], size=-2, weights=[])', tf.errors.InvalidArgumentError,
     'size (-2) must be non-negative'),
    ('R.DenseBincount(input=[1, 2], size=3, weights=[1.])', tf.errors.InvalidArgumentError,
     '`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all weights equal to 1. Received [1]'),
    ('R.DenseBincount(input=[[1, 2], [3, 4]], size=5, weights=[1., 2, 3, 4])', tf.errors.InvalidArgumentError,
     '`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all weights equal to 1. Received [4]'),
    ('R.DenseBincount(input=[1, 2], size=[5], weights=[])', tf.errors.InvalidArgumentError,
     'Shape must be rank 0 but is rank 1'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [1, 1]], values=[1, 9], dense_shape=[2, 3], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Number of elements in indices (3) and values (2) do not match'),
    ('R.SparseBincount(indices=[[0, 0], [0, 2], [5, 1]], values=[1, 2, 4], dense_shape=[2, 3], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Sparse index tuple indices[2, :] = [5, 1] is out of bounds'),
    ('R.SparseBincount(indices=[[0, 0]], values=[1], dense_shape=[2], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Index rank (2) and shape rank (1) do not match'),
    ('R.SparseBincount(indices=[[0, 0]], values=[1], dense_shape=[2, 3], size=-1, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'size (-1) must be non-negative'),
    ('R.SparseBincount(indices=[[0, 0]], values=[[1]], dense_shape=[2, 3], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Sparse values must be rank 1 but is rank 2'),
    ('R.SparseBincount(indices=[0, 0], values=[1], dense_shape=[2, 3], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Sparse indices must be rank 2 but is rank 1'),
    ('R.SparseBincount(indices=[[0, 0]], values=[1], dense_shape=[2, 3], size=[5], weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Shape must be rank 0 but is rank 1'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, -1, 4], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Input must be non-negative'),
    ('R.RaggedBincount(splits=[1, 2, 3], values=[1, 1, 4], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Splits must start with 0, not with 1'),
    ('R.RaggedBincount(splits=[0, 2, 4], values=[1, 1, 4], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Splits must end with the number of values, got 4 instead of 3'),
    ('R.RaggedBincount(splits=[0, 3, 2], values=[1, 1, 4], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Splits must end with the number of values, got 2 instead of 3'),
    ('R.RaggedBincount(splits=[], values=[1, 1, 4], size=5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Splits must be non-empty'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 1, 4], size=-5, weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'size (-5) must be non-negative'),
    ('R.RaggedBincount(splits=[0, 2, 3], values=[1, 7, 4], size=[5], weights=[], binary_output=False)', tf.errors.InvalidArgumentError,
     'Shape must be rank 0 but is rank 1'),
    ('tf.math.bincount([[1, 1, 3], [2, 2, 0]], axis=1)', ValueError,
     'Unsupported value for argument axis=1. Only 0 and -1 are currently supported.'),
    ('tf.math.bincount([[[1, 1, 3], [2, 2, 0]]], axis=-1)', tf.errors.InvalidArgumentError,
     'Shape must be at most rank 2 but is rank 3'),
    ('tf.math.bincount([1, 1, 3], weights=[1., 2, 3], binary_output=True)', ValueError,
     'Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.'),
    ('tf.math.bincount(st, weights=[1., 2., 3.])', ValueError,
     'Argument `weights` must be a SparseTensor if `values` is a SparseTensor. Received weights=[1.0, 2.0, 3.0] of type: list'),
    ('tf.math.bincount([-1, 2])', tf.errors.InvalidArgumentError,
     'Input arr must be non-negative!'),
    ('tf.math.bincount(tf.constant([1, 2], tf.int8))', tf.errors.InvalidArgumentError,
     "Value for attr 'Tidx' of int8 is not in the list of allowed values: int32, int64"),
    ('tf.math.bincount([1, 2], dtype=tf.int8)', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int8 is not in the list of allowed values: int32, int64, float, double"),
    ('tf.math.bincount([1, 2], weights=tf.constant([1., 2.], tf.float16))', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of half is not in the list of allowed values: int32, int64, float, double"),
    ('tf.math.bincount([1, 2], weights=[1., 2, 3])', tf.errors.InvalidArgumentError,
     '`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all weights equal to 1. Received [3]'),
    ('tf.math.bincount(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1, -3], [2, 2]))', tf.errors.InvalidArgumentError,
     'Input arr must be non-negative!'),
    ('tf.math.bincount(tf.ragged.constant([[1, -1], [3]]))', tf.errors.InvalidArgumentError,
     'Input arr must be non-negative!'),
    ('tf.math.bincount(rt, weights=[1., 2., 3.])', ValueError,
     '`weights` must be a RaggedTensor if `values` is a RaggedTensor. Received argument weights=[1. 2. 3.] of type: EagerTensor.'),
    ('tf.sparse.bincount([[1, 1, 3], [2, 2, 0]], axis=1)', ValueError,
     'Unsupported value for argument axis=1. Only 0 and -1 are currently supported.'),
    ('tf.sparse.bincount([1, 1, 3], weights=[1., 2, 3], binary_output=True)', ValueError,
     'Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.'),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS, NAMESPACE)


@pytest.mark.parametrize("op", ["SparseBincount", "RaggedBincount"])
def test_weights_of_another_length_are_refused(op):
    # TF 2.21 reads past the weights here (its output holds garbage); graphfn refuses them.
    args = dict(values=[1, 9, 4], size=5, weights=[1., 2.], binary_output=False)
    if op == "SparseBincount":
        args.update(indices=[[0, 0], [0, 2], [1, 1]], dense_shape=[2, 3])
    else:
        args.update(splits=[0, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Weights and values must have the same shape"):
        getattr(tf.raw_ops, op)(**args)


def test_bincount_in_function_with_unknown_length():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def count(values):
        return tf.math.bincount(values, minlength=3)

    assert count.get_concrete_function().outputs[0].shape.as_list() == [None]
    np.testing.assert_array_equal(count(tf.constant([4, 0, 4])).numpy(), [1, 0, 0, 0, 2])
    np.testing.assert_array_equal(count(tf.constant([1])).numpy(), [0, 1, 0])


def test_per_row_bincount_in_function():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int64)])
    def count(values):
        return tf.math.bincount(values, axis=-1, binary_output=True, dtype=tf.float32)

    assert count.get_concrete_function().outputs[0].shape.as_list() == [None, None]
    np.testing.assert_array_equal(count(tf.constant([[1, 1, 3], [2, 2, 0]], tf.int64)).numpy(),
                                  [[0, 1, 0, 1], [1, 0, 1, 0]])


def test_ragged_and_sparse_bincount_in_function():
    @tf.function
    def count(rt, st):
        return tf.math.bincount(rt, axis=-1), tf.math.bincount(st, axis=-1)

    ragged, sparse = count(tf.ragged.constant([[1, 1], [3]]), tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 1, 4], [2, 3]))
    np.testing.assert_array_equal(ragged.numpy(), [[0, 2, 0, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(sparse.numpy(), [[0, 2, 0, 0, 0], [0, 0, 0, 0, 1]])


def test_dense_bincount_graph_shapes():
    # TF 2.21: the row count is kept only when the size is known while building.
    f = tf.function(lambda v: tf.math.bincount(v, axis=-1), input_signature=[tf.TensorSpec([4, None], tf.int64)])
    assert f.get_concrete_function().outputs[0].shape.as_list() == [None, None]
    f = tf.function(lambda v: tf.raw_ops.DenseBincount(input=v, size=6, weights=tf.constant([], tf.float32)),
                    input_signature=[tf.TensorSpec([4, None], tf.int32)])
    assert f.get_concrete_function().outputs[0].shape.as_list() == [4, 6]


def test_raw_op_graph_shapes():
    f = tf.function(lambda v: tf.raw_ops.RaggedBincount(splits=tf.constant([0, 2, 3], tf.int64), values=v, size=5,
                                                        weights=tf.constant([], tf.float32)))
    assert f.get_concrete_function(tf.TensorSpec([None], tf.int32)).outputs[0].shape.rank is None  # as TF
    f = tf.function(lambda v: tf.raw_ops.SparseBincount(
        indices=tf.constant([[0, 0], [1, 1]], tf.int64), values=v, dense_shape=tf.constant([2, 3], tf.int64), size=5,
        weights=tf.constant([], tf.float32)))
    assert f.get_concrete_function(tf.TensorSpec([None], tf.int32)).outputs[0].shape.as_list() == [2, 5]
    f = tf.function(lambda v: tf.raw_ops.Bincount(arr=v, size=7, weights=tf.constant([], tf.float64)))
    out = f.get_concrete_function(tf.TensorSpec([None, None], tf.int32)).outputs[0]
    assert out.shape.as_list() == [7] and out.dtype == tf.float64
