"""ResizeBilinear on float16, bfloat16 and uint16 images (float32 results) and ResizeBilinearGrad
into float16/bfloat16 images (accumulated in the image's dtype, as TF's kernel does), eagerly, in
a function and through the gradient of tf.image.resize. Values recorded from TensorFlow 2.21."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ('tf.raw_ops.ResizeBilinear(images=tf.reshape(tf.cast(tf.range(12), tf.float16) * tf.constant(0.37, tf.float16), [1, 2, 3, 2]), size=[3, 5])',
     '<tf.Tensor: shape=(1, 3, 5, 2), dtype=float32, numpy=\narray([[[[0.        , 0.3701172 ],\n         [0.44414064, 0.81425786],\n         [0.8882813 , 1.2583985 ],\n         [1.3324219 , 1.7025391 ],\n         [1.4804688 , 1.8505859 ]],\n\n        [[1.4804688 , 1.8499349 ],\n         [1.9246094 , 2.2948568 ],\n         [2.36875   , 2.7392578 ],\n         [2.8128905 , 3.1826172 ],\n         [2.9609375 , 3.3304038 ]],\n\n        [[2.2207031 , 2.5898438 ],\n         [2.6648438 , 3.0351562 ],\n         [3.1089845 , 3.4796875 ],\n         [3.553125  , 3.9226563 ],\n         [3.7011719 , 4.0703125 ]]]], dtype=float32)>'),
    ('tf.raw_ops.ResizeBilinear(images=tf.reshape(tf.cast(tf.range(12), tf.float16) * tf.constant(0.37, tf.float16), [1, 2, 3, 2]), size=[3, 5], half_pixel_centers=True)',
     '<tf.Tensor: shape=(1, 3, 5, 2), dtype=float32, numpy=\narray([[[[0.        , 0.3701172 ],\n         [0.29609376, 0.66621095],\n         [0.7402344 , 1.1103516 ],\n         [1.184375  , 1.5544922 ],\n         [1.4804688 , 1.8505859 ]],\n\n        [[1.1103516 , 1.4799805 ],\n         [1.4064453 , 1.7764649 ],\n         [1.8505859 , 2.2211914 ],\n         [2.2947266 , 2.6647463 ],\n         [2.5908203 , 2.9604492 ]],\n\n        [[2.2207031 , 2.5898438 ],\n         [2.5167968 , 2.8867188 ],\n         [2.9609375 , 3.3320312 ],\n         [3.4050782 , 3.775     ],\n         [3.7011719 , 4.0703125 ]]]], dtype=float32)>'),
    ('tf.raw_ops.ResizeBilinear(images=tf.reshape(tf.cast(tf.range(12), tf.bfloat16), [1, 2, 3, 2]), size=[4, 4], align_corners=True)',
     '<tf.Tensor: shape=(1, 4, 4, 2), dtype=float32, numpy=\narray([[[[ 0.       ,  1.       ],\n         [ 1.3333334,  2.3333335],\n         [ 2.6666667,  3.6666667],\n         [ 4.       ,  5.       ]],\n\n        [[ 2.       ,  3.       ],\n         [ 3.3333335,  4.3333335],\n         [ 4.666667 ,  5.666667 ],\n         [ 6.       ,  7.       ]],\n\n        [[ 4.       ,  5.       ],\n         [ 5.3333335,  6.333333 ],\n         [ 6.666667 ,  7.666667 ],\n         [ 8.       ,  9.       ]],\n\n        [[ 6.       ,  7.       ],\n         [ 7.3333335,  8.333333 ],\n         [ 8.666667 ,  9.666667 ],\n         [10.       , 11.       ]]]], dtype=float32)>'),
    ('tf.raw_ops.ResizeBilinear(images=tf.reshape(tf.cast(tf.range(12), tf.uint16), [1, 2, 3, 2]), size=[3, 3])',
     '<tf.Tensor: shape=(1, 3, 3, 2), dtype=float32, numpy=\narray([[[[ 0.,  1.],\n         [ 2.,  3.],\n         [ 4.,  5.]],\n\n        [[ 4.,  5.],\n         [ 6.,  7.],\n         [ 8.,  9.]],\n\n        [[ 6.,  7.],\n         [ 8.,  9.],\n         [10., 11.]]]], dtype=float32)>'),
    ('tf.raw_ops.ResizeBilinearGrad(grads=tf.reshape(tf.range(30, dtype=tf.float32) * 0.13, [1, 3, 5, 2]), original_image=tf.zeros([1, 2, 3, 2], tf.float16))',
     '<tf.Tensor: shape=(1, 2, 3, 2), dtype=float16, numpy=\narray([[[[ 0.745,  0.988],\n         [ 1.664,  1.941],\n         [ 3.225,  3.57 ]],\n\n        [[ 5.027,  5.33 ],\n         [ 6.76 ,  7.105],\n         [ 9.88 , 10.31 ]]]], dtype=float16)>'),
    ('tf.raw_ops.ResizeBilinearGrad(grads=tf.reshape(tf.range(30, dtype=tf.float32) * 0.13, [1, 3, 5, 2]), original_image=tf.zeros([1, 2, 3, 2], tf.float16), half_pixel_centers=True)',
     '<tf.Tensor: shape=(1, 2, 3, 2), dtype=float16, numpy=\narray([[[[1.274, 1.586],\n         [2.574, 2.926],\n         [3.303, 3.613]],\n\n        [[5.434, 5.746],\n         [7.254, 7.605],\n         [7.46 , 7.773]]]], dtype=float16)>'),
    ('tf.raw_ops.ResizeBilinearGrad(grads=tf.reshape(tf.range(30, dtype=tf.float32) * 0.13, [1, 3, 5, 2]), original_image=tf.zeros([1, 2, 3, 2], tf.bfloat16))',
     '<tf.Tensor: shape=(1, 2, 3, 2), dtype=bfloat16, numpy=\narray([[[[0.746094, 0.988281],\n         [1.66406, 1.9375],\n         [3.21875, 3.57812]],\n\n        [[5.03125, 5.34375],\n         [6.75, 7.09375],\n         [9.875, 10.3125]]]], dtype=bfloat16)>'),
    ('tf.image.resize(tf.reshape(tf.cast(tf.range(12), tf.float16), [2, 3, 2]), [3, 4])',
     '<tf.Tensor: shape=(3, 4, 2), dtype=float32, numpy=\narray([[[ 0.  ,  1.  ],\n        [ 1.25,  2.25],\n        [ 2.75,  3.75],\n        [ 4.  ,  5.  ]],\n\n       [[ 3.  ,  4.  ],\n        [ 4.25,  5.25],\n        [ 5.75,  6.75],\n        [ 7.  ,  8.  ]],\n\n       [[ 6.  ,  7.  ],\n        [ 7.25,  8.25],\n        [ 8.75,  9.75],\n        [10.  , 11.  ]]], dtype=float32)>'),
]

ERRORS = [
    ('tf.raw_ops.ResizeBilinear(images=tf.zeros([1, 2, 2, 1], tf.uint32), size=[3, 3])', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of uint32 is not in the list of allowed values: int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double, bfloat16"),
    ('tf.raw_ops.ResizeBilinearGrad(grads=tf.zeros([1, 3, 3, 1]), original_image=tf.zeros([1, 2, 2, 1], tf.int32))', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: float, bfloat16, half, double"),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16])
def test_resize_gradient_through_tape_and_function(dtype):
    image = tf.cast(tf.reshape(tf.range(12), [1, 2, 3, 2]), dtype)
    weights = tf.reshape(tf.range(30, dtype=tf.float32) * 0.13, [1, 3, 5, 2])

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.raw_ops.ResizeBilinear(images=x, size=[3, 5])
            loss = tf.reduce_sum(y * weights)
        return tape.gradient(loss, x)

    want = tf.raw_ops.ResizeBilinearGrad(grads=weights, original_image=image)
    for run in (grad, tf.function(grad)):
        got = run(image)
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy().astype(np.float32), want.numpy().astype(np.float32))
