"""Zero-size, odd and huge dims for issue 19's threaded kernels (GEMM, convolutions, pooling,
batch norm, softmax, reductions, casts), from the sanitizer check of their C++: empty results
where TF gives them (a convolution with 0 output channels included), TF's errors for bad
attrs, and TF's ResourceExhaustedError, not a Python MemoryError, when an output that the shape
allows cannot be allocated. Every expected repr, error type and message was recorded from
TensorFlow 2.21 with the same expression."""

import numpy as np

import graphfn as tf
from tf_goldens import golden_tests

R = tf.raw_ops
NAMESPACE = {"tf": tf, "np": np, "R": R, "c": tf.constant}

# (expression, TF's repr)
RESULTS = [
    ('tf.matmul(tf.zeros([0, 5]), tf.zeros([5, 0]))',
     '<tf.Tensor: shape=(0, 0), dtype=float32, numpy=array([], shape=(0, 0), dtype=float32)>'),
    ('tf.matmul(tf.zeros([3, 0]), tf.zeros([0, 4]))',
     '<tf.Tensor: shape=(3, 4), dtype=float32, numpy=\narray([[0., 0., 0., 0.],\n       [0., 0., 0., 0.],\n       [0., 0., 0., 0.]], dtype=float32)>'),
    ('tf.matmul(tf.zeros([2, 0, 5]), tf.zeros([1, 5, 3])).shape',
     'TensorShape([2, 0, 3])'),
    ("tf.nn.conv2d(tf.zeros([0, 5, 5, 3]), tf.zeros([3, 3, 3, 4]), 1, 'SAME').shape",
     'TensorShape([0, 5, 5, 4])'),
    ("tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 0]), 1, 'SAME').shape",
     'TensorShape([1, 5, 5, 0])'),
    ("tf.nn.conv2d(tf.zeros([1, 5, 5, 6]), tf.zeros([3, 3, 3, 0]), 1, 'SAME').shape",
     'TensorShape([1, 5, 5, 0])'),
    ("tf.function(lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 6]), tf.zeros([3, 3, 3, 0]), 1, 'SAME'))().shape",
     'TensorShape([1, 5, 5, 0])'),
    ("R.Conv2DBackpropInput(input_sizes=c([1, 5, 5, 3]), filter=tf.zeros([3, 3, 3, 0]), out_backprop=tf.zeros([1, 5, 5, 0]), strides=[1, 1, 1, 1], padding='SAME')",
     '<tf.Tensor: shape=(1, 5, 5, 3), dtype=float32, numpy=\narray([[[[0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.]],\n\n        [[0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.]],\n\n        [[0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.]],\n\n        [[0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.]],\n\n        [[0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.],\n         [0., 0., 0.]]]], dtype=float32)>'),
    ("R.Conv2DBackpropFilter(input=tf.ones([1, 5, 5, 3]), filter_sizes=c([3, 3, 3, 0]), out_backprop=tf.zeros([1, 5, 5, 0]), strides=[1, 1, 1, 1], padding='SAME')",
     '<tf.Tensor: shape=(3, 3, 3, 0), dtype=float32, numpy=array([], shape=(3, 3, 3, 0), dtype=float32)>'),
    ("tf.nn.conv2d(tf.zeros([1, 2, 2, 3]), tf.zeros([3, 3, 3, 4]), 1, 'VALID').shape",
     'TensorShape([1, 0, 0, 4])'),
    ("tf.nn.max_pool2d(tf.zeros([1, 5, 5, 3]), 2**31 - 1, 1, 'SAME').shape",
     'TensorShape([1, 5, 5, 3])'),
    ("tf.nn.max_pool2d(tf.zeros([0, 5, 5, 3]), 2, 2, 'SAME').shape",
     'TensorShape([0, 3, 3, 3])'),
    ("tf.nn.avg_pool2d(tf.zeros([1, 5, 5, 0]), 2, 2, 'SAME').shape",
     'TensorShape([1, 3, 3, 0])'),
    ('R.FusedBatchNormV3(x=tf.zeros([0, 3, 3, 2]), scale=tf.ones([2]), offset=tf.ones([2]), mean=tf.ones([2]), variance=tf.ones([2]), is_training=True)[0].shape',
     'TensorShape([0, 3, 3, 2])'),
    ('tf.nn.softmax(tf.zeros([5, 0]))',
     '<tf.Tensor: shape=(5, 0), dtype=float32, numpy=array([], shape=(5, 0), dtype=float32)>'),
    ('tf.reduce_sum(tf.zeros([0, 2**20]), axis=0).shape',
     'TensorShape([1048576])'),
    ('tf.cast(tf.zeros([0, 2**62]), tf.int32).shape',
     'TensorShape([0, 4611686018427387904])'),
]

# (expression, TF's error type, a part of its message)
ERRORS = [
    ('R.MatMul(a=tf.zeros([0, 3]), b=tf.zeros([3, 2**62])).shape',
     tf.errors.InvalidArgumentError, 'Shape [3,4611686018427387904] would have more than 2**63 - 1 elements'),
    ("tf.nn.conv2d(tf.zeros([1, 5, 5, 6]), tf.zeros([3, 3, 3, 1]), 1, 'SAME')",
     tf.errors.InvalidArgumentError, 'output depth must be evenly divisible by number of groups: 1 vs 2'),
    ("tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 4]), 2**31, 'SAME').shape",
     tf.errors.InvalidArgumentError, 'Attr strides has value 2147483648 out of range for an int32'),
    ('tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 4]), 1, [[0, 0], [2**40, 2**40], [0, 0], [0, 0]])',
     tf.errors.ResourceExhaustedError, 'OOM when allocating tensor with shape[1,2199023255555,3,4] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu'),
    ('tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 4]), 1, [[0, 0], [2**20, 2**20], [2**20, 2**20], [0, 0]])',
     tf.errors.ResourceExhaustedError, 'OOM when allocating tensor with shape[1,2097155,2097155,4] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu'),
    ('tf.function(lambda: tf.nn.conv2d(tf.zeros([1, 5, 5, 3]), tf.zeros([3, 3, 3, 4]), 1, [[0, 0], [2**20, 2**20], [2**20, 2**20], [0, 0]]))()',
     tf.errors.ResourceExhaustedError, 'OOM when allocating tensor with shape[1,2097155,2097155,4] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu'),
    ('R.BatchMatMulV2(x=tf.zeros([1, 2**20, 0]), y=tf.zeros([1, 0, 2**20]))',
     tf.errors.ResourceExhaustedError, 'OOM when allocating tensor with shape[1,1048576,1048576] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu'),
    ("R.Conv2DBackpropInput(input_sizes=c([1, 2**20, 2**20, 3]), filter=tf.zeros([3, 3, 3, 4]), out_backprop=tf.zeros([1, 5, 5, 4]), strides=[1, 1, 1, 1], padding='SAME')",
     tf.errors.InvalidArgumentError, "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 5, computed = 1048576 spatial_dim: 1 input: 1048576 filter: 3 output: 5 stride: 1 dilation: 1"),
    ('R.FusedBatchNormV3(x=tf.zeros([1, 3, 3, 2]), scale=tf.ones([3]), offset=tf.ones([2]), mean=tf.ones([2]), variance=tf.ones([2]), is_training=True)',
     tf.errors.InvalidArgumentError, 'scale must have the same number of elements as the channels of x, got 3 and 2'),
    ("tf.einsum('ij,jk->ik', tf.zeros([0, 3]), tf.zeros([3, 2**62])).shape",
     tf.errors.InvalidArgumentError, 'Shape [3,4611686018427387904] would have more than 2**63 - 1 elements'),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS, NAMESPACE)
