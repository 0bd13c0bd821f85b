"""Cases of the convolution and pooling tests, shared by the tests and by make_expected.py (which
runs them under real TensorFlow 2.21 and writes expected_tf.json).

VALUE_CASES: name -> (source of `lambda tf, *xs: ...`, input shapes); inputs are
inputs(shapes) (seeded, rounded to 1/16 so that float32 and float64 hold them exactly); the
result's values, dtype and shape are recorded, and the gradients of sum(result * weights) with
respect to every input (GRAD_CASES lists which cases are differentiated).

ERROR_CASES: name -> source of an expression (over tf and np) that TF rejects; its exception
type and message are recorded.

SHAPE_CASES: name -> (source of `lambda tf, *xs: ...`, input signature shapes with None): the
static output shape TF infers inside tf.function with that input_signature."""

import numpy as np


def inputs(shapes, dtype="float32", seed=0):
    rng = np.random.RandomState(seed)
    return [np.round(rng.randn(*s) * 16) .astype(dtype) / 16 for s in shapes]


def weights(shape, dtype="float32"):
    """Fixed output weights, so that gradients see every output position differently."""
    n = int(np.prod(shape))
    return (np.cos(np.arange(n) * 0.7) + 0.25).reshape(shape).astype(dtype)


X = (2, 6, 7, 3)
F = (3, 2, 3, 4)
X3 = (2, 4, 5, 3, 2)
F3 = (2, 3, 2, 2, 3)
DW = (3, 3, 3, 2)

VALUE_CASES = {
    "conv2d_same": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'SAME')", [X, F]),
    "conv2d_valid_strides": ("lambda tf, x, w: tf.nn.conv2d(x, w, [2, 3], 'VALID')", [X, F]),
    "conv2d_same_strides": ("lambda tf, x, w: tf.nn.conv2d(x, w, (1, 2, 2, 1), 'SAME')", [X, F]),
    "conv2d_dilated": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'SAME', dilations=[2, 1])", [X, F]),
    "conv2d_explicit": ("lambda tf, x, w: tf.nn.conv2d(x, w, 2, [[0, 0], [2, 1], [0, 3], [0, 0]])", [X, F]),
    "conv2d_grouped": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'VALID')", [(1, 5, 5, 4), (3, 3, 2, 6)]),
    "conv2d_batch_dims": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'SAME')", [(2, 1, 5, 4, 3), F]),
    "conv2d_1x1": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'VALID')", [X, (1, 1, 3, 5)]),
    "conv2d_float64": ("lambda tf, x, w: tf.nn.conv2d(tf.cast(x, tf.float64), tf.cast(w, tf.float64), 2, 'SAME')",
                       [X, F]),
    "conv2d_int32": ("lambda tf, x, w: tf.nn.conv2d(tf.cast(x * 16, tf.int32), tf.cast(w * 16, tf.int32), 1, 'SAME')",
                     [X, F]),
    "conv2d_empty_batch": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'SAME')", [(0, 4, 4, 3), F]),
    "conv1d": ("lambda tf, x, w: tf.nn.conv1d(x, w, 2, 'SAME')", [(2, 9, 3), (3, 3, 4)]),
    "conv1d_dilated": ("lambda tf, x, w: tf.nn.conv1d(x, w, 1, 'VALID', dilations=2)", [(2, 9, 3), (3, 3, 4)]),
    "conv3d": ("lambda tf, x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], 'SAME')", [X3, F3]),
    "conv3d_valid": ("lambda tf, x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], 'VALID')", [X3, F3]),
    "convolution_2d": ("lambda tf, x, w: tf.nn.convolution(x, w, strides=2, padding='SAME')", [X, F]),
    "convolution_1d": ("lambda tf, x, w: tf.nn.convolution(x, w)", [(2, 9, 3), (3, 3, 4)]),
    "convolution_3d_dilated": ("lambda tf, x, w: tf.nn.convolution(x, w, padding='SAME', dilations=[2, 1, 2])",
                               [X3, F3]),
    "conv2d_transpose": ("lambda tf, y, w: tf.nn.conv2d_transpose(y, w, [2, 6, 7, 3], 2, 'SAME')", [(2, 3, 4, 4), F]),
    "conv2d_transpose_valid": ("lambda tf, y, w: tf.nn.conv2d_transpose(y, w, [2, 7, 8, 3], [2, 1], 'VALID')",
                               [(2, 3, 7, 4), F]),
    # TF 2.21's default x86 build (oneDNN kernels) runs these; its stock CPU kernels raise.
    "conv3d_dilated": ("lambda tf, x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], 'SAME', dilations=[1, 2, 1, 2, 1])",
                       [X3, F3]),
    "conv2d_transpose_dilated": ("lambda tf, y, w: tf.nn.conv2d_transpose(y, w, [2, 6, 7, 3], 1, 'SAME', "
                                 "dilations=2)", [(2, 6, 7, 4), F]),
    "conv1d_transpose": ("lambda tf, y, w: tf.nn.conv1d_transpose(y, w, [2, 9, 3], 2)", [(2, 5, 4), (3, 3, 4)]),
    "conv3d_transpose": ("lambda tf, y, w: tf.nn.conv3d_transpose(y, w, [2, 4, 5, 3, 2], [1, 1, 2, 1, 1], 'SAME')",
                         [(2, 4, 3, 3, 3), F3]),
    "depthwise": ("lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'SAME')", [X, DW]),
    "depthwise_strides": ("lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], 'VALID')", [X, DW]),
    "depthwise_dilated": ("lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'VALID', dilations=[2, 1])",
                          [X, DW]),
    "separable": ("lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], 'SAME')", [X, DW, (1, 1, 6, 5)]),
    "max_pool2d_same": ("lambda tf, x: tf.nn.max_pool2d(x, 3, 2, 'SAME')", [X]),
    "max_pool2d_valid": ("lambda tf, x: tf.nn.max_pool2d(x, (2, 3), (1, 2), 'VALID')", [X]),
    "max_pool2d_explicit": ("lambda tf, x: tf.nn.max_pool2d(x, 3, 2, [[0, 0], [1, 2], [2, 0], [0, 0]])", [X]),
    "max_pool_depth": ("lambda tf, x: tf.nn.max_pool(x, [1, 1, 1, 3], [1, 1, 1, 3], 'VALID')", [(1, 3, 3, 6)]),
    "max_pool1d": ("lambda tf, x: tf.nn.max_pool1d(x, 3, 2, 'SAME')", [(2, 9, 3)]),
    "max_pool3d": ("lambda tf, x: tf.nn.max_pool3d(x, 2, [1, 2, 2, 1, 1], 'SAME')", [X3]),
    "max_pool_3d_generic": ("lambda tf, x: tf.nn.max_pool(x, [2, 2, 1], 2, 'VALID')", [X3]),
    "max_pool_ties": ("lambda tf, x: tf.nn.max_pool2d(tf.maximum(x, 0.0), 2, 1, 'SAME')", [X]),
    "max_pool3d_ties": ("lambda tf, x: tf.nn.max_pool3d(tf.maximum(x, 0.0), 2, 1, 'SAME')", [X3]),
    "max_pool_int32": ("lambda tf, x: tf.nn.max_pool2d(tf.cast(x * 16, tf.int32), 2, 2, 'SAME')", [X]),
    "max_pool_neg_inf": ("lambda tf, x: tf.nn.max_pool2d(x * 0 - np.inf, 2, 2, 'SAME')", [(1, 3, 3, 1)]),
    "avg_pool2d_same": ("lambda tf, x: tf.nn.avg_pool2d(x, 3, 2, 'SAME')", [X]),
    "avg_pool2d_valid": ("lambda tf, x: tf.nn.avg_pool2d(x, [2, 3], [2, 1], 'VALID')", [X]),
    "avg_pool1d": ("lambda tf, x: tf.nn.avg_pool1d(x, 3, 1, 'SAME')", [(2, 9, 3)]),
    "avg_pool3d": ("lambda tf, x: tf.nn.avg_pool3d(x, 3, 2, 'SAME')", [X3]),
    "avg_pool_float64": ("lambda tf, x: tf.nn.avg_pool(tf.cast(x, tf.float64), 2, 2, 'SAME')", [X]),
    "pool_max": ("lambda tf, x: tf.nn.pool(x, [2, 2], 'MAX', strides=[2, 2], padding='SAME')", [X]),
    "pool_avg_1d": ("lambda tf, x: tf.nn.pool(x, [3], 'AVG', padding='VALID')", [(2, 9, 3)]),
    "pool_avg_3d": ("lambda tf, x: tf.nn.pool(x, [2, 2, 2], 'AVG', strides=[1, 2, 1], padding='SAME')", [X3]),
}

GRAD_CASES = [
    "conv2d_same", "conv2d_valid_strides", "conv2d_same_strides", "conv2d_explicit", "conv2d_batch_dims",
    "conv2d_1x1", "conv2d_float64", "conv1d", "conv3d", "conv3d_valid", "convolution_3d_dilated", "conv3d_transpose",
    "conv2d_transpose", "conv2d_dilated", "conv2d_grouped", "conv3d_dilated", "conv2d_transpose_dilated",
    "conv2d_transpose_valid", "conv1d_transpose", "depthwise", "depthwise_strides", "depthwise_dilated", "separable",
    "max_pool2d_same", "max_pool2d_valid", "max_pool2d_explicit", "max_pool1d", "max_pool3d", "max_pool_ties",
    "max_pool3d_ties", "avg_pool2d_same", "avg_pool2d_valid", "avg_pool1d", "avg_pool3d", "avg_pool_float64",
    "pool_max", "pool_avg_3d",
]

# Second derivatives (float64): the gradient of sum(grads * weights), where TF has them.
SECOND_CASES = ["conv2d_same", "conv2d_transpose", "max_pool2d_same", "avg_pool2d_same", "conv3d", "conv3d_transpose",
                "depthwise_strides"]

_x = "np.ones([1, 5, 5, 2], np.float32)"
_w = "np.ones([3, 3, 2, 3], np.float32)"
_R = "tf.raw_ops."
ERROR_CASES = {
    "conv_nchw": "tf.nn.conv2d(np.ones([1, 2, 5, 5], np.float32), " + _w + ", 1, 'SAME', data_format='NCHW')",
    "conv_bad_padding": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'same')",
    "conv_strides_len": "tf.nn.conv2d(" + _x + ", " + _w + ", [1, 1, 1], 'SAME')",
    "conv_raw_strides_len": _R + "Conv2D(input=" + _x + ", filter=" + _w + ", strides=[1, 1, 1, 1, 1], padding='SAME')",
    "conv_zero_stride": "tf.nn.conv2d(" + _x + ", " + _w + ", [1, 0, 1, 1], 'SAME')",
    "conv_batch_stride": "tf.nn.conv2d(" + _x + ", " + _w + ", [2, 1, 1, 1], 'SAME')",
    "conv_dilations_len": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'SAME', dilations=[1, 1, 1])",
    "conv_zero_dilation": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'SAME', dilations=[1, 0, 1, 1])",
    "conv_batch_dilation": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'SAME', dilations=[2, 1, 1, 1])",
    "conv_huge_dilation": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'VALID', dilations=[1, 1000000000, 1, 1])",
    "conv_int64_dilation": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'SAME', dilations=[1, 2**40, 1, 1])",
    "conv_int64_stride": "tf.nn.conv2d(" + _x + ", " + _w + ", [1, 2**40, 1, 1], 'SAME')",
    "conv_filter_too_big": "tf.nn.conv2d(" + _x + ", np.ones([7, 7, 2, 3], np.float32), 1, 'VALID')",
    "conv_depth_mismatch": "tf.nn.conv2d(" + _x + ", np.ones([3, 3, 4, 3], np.float32), 1, 'VALID')",
    "conv_groups_out_depth": "tf.nn.conv2d(np.ones([1, 5, 5, 4], np.float32), np.ones([3, 3, 2, 3], np.float32), 1, "
                             "'VALID')",
    "conv_input_rank": _R + "Conv2D(input=np.ones([5, 5, 2], np.float32), filter=" + _w + ", strides=[1, 1, 1, 1], "
                       "padding='SAME')",
    "conv_filter_rank": "tf.nn.conv2d(" + _x + ", np.ones([3, 2, 3], np.float32), 1, 'SAME')",
    "conv_explicit_len": _R + "Conv2D(input=" + _x + ", filter=" + _w + ", strides=[1, 1, 1, 1], padding='EXPLICIT', "
                         "explicit_paddings=[0, 0, 1, 1])",
    "conv_explicit_negative": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, [[0, 0], [-1, 1], [0, 0], [0, 0]])",
    "conv_explicit_batch": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, [[1, 0], [1, 1], [0, 0], [0, 0]])",
    "conv_explicit_with_same": _R + "Conv2D(input=" + _x + ", filter=" + _w + ", strides=[1, 1, 1, 1], "
                               "padding='SAME', explicit_paddings=[0, 0, 1, 1, 1, 1, 0, 0])",
    "conv_padding_list_len": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, [[1, 1], [2, 2]])",
    "conv_padding_explicit_word": "tf.nn.conv2d(" + _x + ", " + _w + ", 1, 'EXPLICIT')",
    "conv_int64": "tf.nn.conv2d(np.ones([1, 5, 5, 2], np.int64), np.ones([3, 3, 2, 3], np.int64), 1, 'SAME')",
    "conv_zero_filter": "tf.nn.conv2d(" + _x + ", np.ones([0, 3, 2, 3], np.float32), 1, 'VALID')",
    "conv_zero_filter_depth": "tf.nn.conv2d(np.ones([1, 5, 5, 0], np.float32), np.ones([3, 3, 0, 3], np.float32), 1, "
                              "'VALID')",
    "conv1d_format": "tf.nn.conv1d(np.ones([1, 5, 2], np.float32), np.ones([3, 2, 3], np.float32), 1, 'SAME', "
                     "data_format='NHWCX')",
    "conv3d_int_strides": "tf.nn.conv3d(np.ones([1, 4, 4, 4, 2], np.float32), np.ones([2, 2, 2, 2, 3], np.float32), "
                          "1, 'SAME')",
    "conv3d_ncdhw": "tf.nn.conv3d(np.ones([1, 2, 4, 4, 4], np.float32), np.ones([2, 2, 2, 2, 3], np.float32), "
                    "[1, 1, 1, 1, 1], 'SAME', data_format='NCDHW')",
    "conv3d_depth": "tf.nn.conv3d(np.ones([1, 4, 4, 4, 2], np.float32), np.ones([2, 2, 2, 4, 3], np.float32), "
                    "[1, 1, 1, 1, 1], 'SAME')",
    "conv3d_grouped": "tf.nn.conv3d(np.ones([1, 4, 4, 4, 4], np.float32), np.ones([2, 2, 2, 2, 3], np.float32), "
                      "[1, 1, 1, 1, 1], 'SAME')",
    "conv3d_zero_stride": "tf.nn.conv3d(np.ones([1, 4, 4, 4, 2], np.float32), np.ones([2, 2, 2, 2, 3], np.float32), "
                          "[1, 0, 1, 1, 1], 'SAME')",
    "conv3d_rank": "tf.nn.conv3d(np.ones([4, 4, 4, 2], np.float32), np.ones([2, 2, 2, 2, 3], np.float32), "
                   "[1, 1, 1, 1, 1], 'SAME')",
    "conv3d_int32": "tf.nn.conv3d(np.ones([1, 4, 4, 4, 2], np.int32), np.ones([2, 2, 2, 2, 3], np.int32), "
                    "[1, 1, 1, 1, 1], 'SAME')",
    "convolution_rank": "tf.nn.convolution(np.ones([1, 2, 3, 4, 5, 6], np.float32), "
                        "np.ones([1, 1, 1, 1, 6, 2], np.float32))",
    "transpose_wrong_out": "tf.nn.conv2d_transpose(np.ones([1, 4, 5, 3], np.float32), " + _w + ", [1, 5, 5, 2], 1, "
                           "'SAME')",
    "transpose_sizes_len": "tf.nn.conv2d_transpose(np.ones([1, 5, 5, 3], np.float32), " + _w + ", [1, 5, 5], 1, "
                           "'SAME')",
    "transpose_depth": "tf.nn.conv2d_transpose(np.ones([1, 5, 5, 4], np.float32), " + _w + ", [1, 5, 5, 2], 1, "
                       "'SAME')",
    "transpose_negative": "tf.nn.conv2d_transpose(np.ones([1, 5, 5, 3], np.float32), " + _w + ", [1, -5, 5, 2], 1, "
                          "'SAME')",
    "backprop_filter_depth": _R + "Conv2DBackpropFilter(input=" + _x + ", filter_sizes=[3, 3, 2, 4], "
                             "out_backprop=np.ones([1, 5, 5, 3], np.float32), strides=[1, 1, 1, 1], padding='SAME')",
    "depthwise_nchw": "tf.nn.depthwise_conv2d(np.ones([1, 2, 5, 5], np.float32), np.ones([3, 3, 2, 2], np.float32), "
                      "[1, 1, 1, 1], 'SAME', data_format='NCHW')",
    "depthwise_depth": "tf.nn.depthwise_conv2d(" + _x + ", np.ones([3, 3, 3, 2], np.float32), [1, 1, 1, 1], 'SAME')",
    "depthwise_uneven_strides": "tf.nn.depthwise_conv2d(" + _x + ", np.ones([3, 3, 2, 2], np.float32), [1, 1, 2, 1], "
                                "'SAME')",
    "depthwise_batch_stride": "tf.nn.depthwise_conv2d(" + _x + ", np.ones([3, 3, 2, 2], np.float32), [2, 1, 1, 1], "
                              "'SAME')",
    "depthwise_raw_dilations": _R + "DepthwiseConv2dNative(input=" + _x + ", filter=np.ones([3, 3, 2, 2], np.float32), "
                               "strides=[1, 1, 1, 1], padding='SAME', dilations=[1, 2, 2, 1])",
    "depthwise_rank": "tf.nn.depthwise_conv2d(np.ones([5, 5, 2], np.float32), np.ones([3, 3, 2, 2], np.float32), "
                      "[1, 1, 1, 1], 'SAME')",
    "depthwise_too_big": "tf.nn.depthwise_conv2d(" + _x + ", np.ones([7, 3, 2, 2], np.float32), [1, 1, 1, 1], "
                         "'VALID')",
    "max_pool_nchw": "tf.nn.max_pool2d(np.ones([1, 2, 5, 5], np.float32), 2, 2, 'SAME', data_format='NCHW')",
    "max_pool_batch": "tf.nn.max_pool2d(" + _x + ", [2, 2, 2, 1], 2, 'SAME')",
    "max_pool_zero_ksize": "tf.nn.max_pool2d(" + _x + ", [1, 0, 2, 1], 2, 'SAME')",
    "max_pool_zero_stride": "tf.nn.max_pool2d(" + _x + ", 2, [1, 0, 2, 1], 'SAME')",
    "max_pool_ksize_len": "tf.nn.max_pool2d(" + _x + ", [2, 2, 2], 2, 'SAME')",
    "max_pool_raw_ksize_len": _R + "MaxPool(input=" + _x + ", ksize=[1, 2, 2, 1, 1], strides=[1, 2, 2, 1], "
                              "padding='SAME')",
    "max_pool_raw_ksize_short": _R + "MaxPool(input=" + _x + ", ksize=[1, 2, 2], strides=[1, 2, 2, 1], "
                                "padding='SAME')",
    "max_pool_rank": _R + "MaxPool(input=np.ones([5, 5, 2], np.float32), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], "
                     "padding='SAME')",
    "max_pool_mixed_depth": "tf.nn.max_pool(np.ones([1, 5, 5, 4], np.float32), [1, 2, 1, 2], [1, 1, 1, 2], 'VALID')",
    "max_pool_explicit_big": "tf.nn.max_pool2d(" + _x + ", 2, 2, [[0, 0], [2, 2], [1, 1], [0, 0]])",
    "max_pool_huge_ksize": "tf.nn.max_pool2d(" + _x + ", [1, 2**40, 2, 1], 2, 'SAME')",
    "max_pool_window_too_big": "tf.nn.max_pool2d(" + _x + ", 7, 1, 'VALID')",
    "max_pool_rank6": "tf.nn.max_pool(np.ones([1, 2, 3, 4, 5, 6], np.float32), 2, 2, 'SAME')",
    "max_pool3d_explicit": "tf.nn.max_pool(np.ones([1, 4, 4, 4, 2], np.float32), 2, 2, "
                           "[[0, 0], [1, 1], [1, 1], [1, 1], [0, 0]])",
    "max_pool3d_float64": "tf.nn.max_pool3d(np.ones([1, 4, 4, 4, 2]), 2, 2, 'SAME')",
    "max_pool3d_ncdhw": "tf.nn.max_pool3d(np.ones([1, 2, 4, 4, 4], np.float32), 2, 2, 'SAME', data_format='NCDHW')",
    "max_pool3d_depth": "tf.nn.max_pool3d(np.ones([1, 4, 4, 4, 2], np.float32), [1, 1, 2, 2, 2], 1, 'VALID')",
    "max_pool3d_zero_ksize": "tf.nn.max_pool3d(np.ones([1, 4, 4, 4, 2], np.float32), [1, 0, 2, 2, 1], 1, 'VALID')",
    "max_pool3d_rank": _R + "MaxPool3D(input=np.ones([4, 4, 4, 2], np.float32), ksize=[1, 1, 2, 2, 1], "
                       "strides=[1, 1, 2, 2, 1], padding='VALID')",
    "avg_pool_int32": "tf.nn.avg_pool2d(np.ones([1, 5, 5, 2], np.int32), 2, 2, 'SAME')",
    "avg_pool_nchw": "tf.nn.avg_pool2d(np.ones([1, 2, 5, 5], np.float32), 2, 2, 'SAME', data_format='NCHW')",
    "avg_pool_channels": "tf.nn.avg_pool2d(" + _x + ", [1, 1, 1, 2], [1, 1, 1, 2], 'VALID')",
    "avg_pool_zero_ksize": "tf.nn.avg_pool2d(" + _x + ", [1, 0, 2, 1], 1, 'SAME')",
    "avg_pool_explicit": "tf.nn.avg_pool2d(" + _x + ", 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]])",
    "pool_type": "tf.nn.pool(" + _x + ", [2, 2], 'MIN')",
    "pool_window_len": "tf.nn.pool(" + _x + ", [2, 2, 2, 2], 'MAX')",
    "pool_strides_gt_window": "tf.nn.pool(" + _x + ", [2, 2], 'MAX', strides=[3, 3])",
    "avg_pool3d_float64": "tf.nn.avg_pool3d(np.ones([1, 4, 4, 4, 2]), 2, 2, 'SAME')",
    "pool_same_dilated": "tf.nn.pool(" + _x + ", [2, 2], 'MAX', padding='SAME', dilations=[2, 2])",
}

SHAPE_CASES = {
    "conv2d_unknown_batch": ("lambda tf, x, w: tf.nn.conv2d(x, w, 2, 'SAME')", [(None, 7, 9, 3), (3, 3, 3, 4)]),
    "conv2d_unknown_spatial": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'VALID')", [(2, None, 9, 3), (3, 3, 3, 4)]),
    "conv2d_unknown_filter": ("lambda tf, x, w: tf.nn.conv2d(x, w, 1, 'VALID')", [(2, 7, 9, 3), (None, 3, 3, None)]),
    "conv3d_unknown": ("lambda tf, x, w: tf.nn.conv3d(x, w, [1, 2, 2, 2, 1], 'SAME')",
                       [(None, 5, None, 4, 2), (2, 2, 2, 2, 3)]),
    "depthwise_unknown": ("lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'VALID')",
                          [(None, 6, 7, 3), (3, 3, 3, 2)]),
    "max_pool_unknown": ("lambda tf, x: tf.nn.max_pool2d(x, 2, 2, 'SAME')", [(None, None, 7, 3)]),
    "avg_pool3d_unknown": ("lambda tf, x: tf.nn.avg_pool3d(x, 2, 2, 'VALID')", [(None, 5, 5, None, 2)]),
    "transpose_known": ("lambda tf, y, w: tf.nn.conv2d_transpose(y, w, [2, 6, 7, 3], 2, 'SAME')",
                        [(None, 3, 4, 4), (3, 2, 3, 4)]),
}
