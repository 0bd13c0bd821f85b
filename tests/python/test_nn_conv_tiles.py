"""The convolution paths of issue 19's second pass: the forward float convolution summed from
the input in register tiles (kernels/nn_conv_tiles.h: windows of more than 32 values, at least 8
output channels, any padding, strides, dilations, 3-D), the one-channel filter gradient kept in
registers (kernels/nn_conv_direct.h), and MaxPoolGrad over 2x2 tiles on 8-channel vectors
(kernels/nn_pool.cc) with TF's routing of NaN and -inf windows; values against float64 references
within TF's float32 tolerances, edge cases recorded from TF 2.21.
(One thread against three, bitwise: test_nn_conv_threads.py and test_nn_fast_paths.py.)"""

import numpy as np
import pytest

import graphfn as tf
from test_nn_conv_threads import _conv_grads_ref
from test_nn_conv_threads import _conv_ref

# (input shape, filter shape, stride, padding, dilation): output depths around the 16-channel
# panels (8, 13, 16, 19, 40, 64), windows of 36 to 500 values.
FORWARD_CASES = [
    ((2, 9, 11, 4), (3, 3, 4, 8), 1, "SAME", 1),
    ((3, 10, 7, 5), (3, 3, 5, 13), 2, "VALID", 1),
    ((1, 12, 13, 6), (3, 3, 6, 16), 1, "SAME", 2),
    ((2, 8, 9, 7), (5, 3, 7, 19), 3, "SAME", 1),
    ((1, 11, 11, 20), (5, 5, 20, 40), 1, "VALID", 1),
    ((2, 7, 7, 32), (3, 3, 32, 64), 1, "SAME", 1),
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation", FORWARD_CASES)
def test_tiled_forward_matches_float64(xs, ws, stride, padding, dilation):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    y = tf.nn.conv2d(tf.constant(x, tf.float32), tf.constant(w, tf.float32), stride, padding, dilations=dilation)
    expected = _conv_ref(x, w, stride, padding, dilation)
    assert y.shape == expected.shape
    scale = np.sqrt(ws[0] * ws[1] * ws[2])  # the sums' typical size
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5 * scale)


def test_tiled_forward_3d_matches_float64():
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 5, 6, 7, 6)), rng.standard_normal((3, 2, 3, 6, 17))
    y = tf.nn.conv3d(tf.constant(x, tf.float32), tf.constant(w, tf.float32), [1, 2, 1, 1, 1], "SAME")
    # Reference: the 3-D sum over taps, with SAME padding (out = ceil(in / stride)).
    out = (3, 6, 7)
    pads = [max((o - 1) * s + k - i, 0) // 2 for o, s, k, i in zip(out, (2, 1, 1), (3, 2, 3), (5, 6, 7))]
    expected = np.zeros((2,) + out + (17,))
    for a in range(3):
        for b in range(2):
            for c in range(3):
                for o0 in range(out[0]):
                    i0 = o0 * 2 - pads[0] + a
                    if not 0 <= i0 < 5:
                        continue
                    for o1 in range(out[1]):
                        i1 = o1 - pads[1] + b
                        if not 0 <= i1 < 6:
                            continue
                        for o2 in range(out[2]):
                            i2 = o2 - pads[2] + c
                            if 0 <= i2 < 7:
                                expected[:, o0, o1, o2] += x[:, i0, i1, i2] @ w[a, b, c]
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-4)


def test_padding_taps_follow_the_input_values():
    # A window in the padding reads zeros: an all-ones input and filter count each output's taps
    # inside the input (4 at a corner, 6 on an edge, 9 inside), times the 16 input channels.
    y = tf.nn.conv2d(tf.ones([1, 4, 5, 16]), tf.ones([3, 3, 16, 8]), 1, "SAME").numpy()
    counts = np.array([[4, 6, 6, 6, 4], [6, 9, 9, 9, 6], [6, 9, 9, 9, 6], [4, 6, 6, 6, 4]], np.float32) * 16
    np.testing.assert_array_equal(y, np.broadcast_to(counts[None, :, :, None], (1, 4, 5, 8)))


@pytest.mark.parametrize("cin,cout", [(1, 32), (1, 13), (2, 9), (3, 40)])
def test_one_channel_filter_gradient_matches_float64(cin, cout):
    rng = np.random.default_rng(cin * 100 + cout)
    x, w = rng.standard_normal((3, 14, 11, cin)), rng.standard_normal((3, 3, cin, cout))
    dy = rng.standard_normal((3, 14, 11, cout))
    _, dw_ref = _conv_grads_ref(x, w, dy, 1, "SAME", 1)
    for dtype, tol in ((tf.float32, 1e-4), (tf.float64, 1e-11)):
        dw = tf.raw_ops.Conv2DBackpropFilter(input=tf.constant(x, dtype), filter_sizes=tf.constant([3, 3, cin, cout]),
                                             out_backprop=tf.constant(dy, dtype), strides=[1, 1, 1, 1],
                                             padding="SAME")
        np.testing.assert_allclose(dw.numpy(), dw_ref, rtol=tol, atol=tol)


def _first_max_grad(x, g):
    """MaxPoolGrad for 2x2 stride 2 VALID windows: the gradient goes to the first maximum of each
    window in row-major order (TF's routing)."""
    dx = np.zeros_like(x)
    n, h, w, c = x.shape
    for i in range(h // 2):
        for j in range(w // 2):
            win = x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :].reshape(n, 4, c)
            first = win.argmax(axis=1)  # argmax returns the first of tied maxima
            for t in range(4):
                sel = first == t
                dx[:, 2 * i + t // 2, 2 * j + t % 2, :][sel] = g[:, i, j, :][sel]
    return dx


@pytest.mark.parametrize("channels", [8, 32, 64])
def test_max_pool_grad_vector_path_routes_to_the_first_maximum(channels):
    rng = np.random.default_rng(channels)
    # Small integers: many tied maxima within a window; odd sizes leave a row and column uncovered.
    x = rng.integers(-2, 3, size=(3, 9, 7, channels)).astype(np.float32)
    g = rng.standard_normal((3, 4, 3, channels)).astype(np.float32)
    p = tf.nn.max_pool2d(tf.constant(x), 2, 2, "VALID")
    dx = tf.raw_ops.MaxPoolGrad(orig_input=tf.constant(x), orig_output=p, grad=tf.constant(g), ksize=[1, 2, 2, 1],
                                strides=[1, 2, 2, 1], padding="VALID")
    np.testing.assert_array_equal(dx.numpy(), _first_max_grad(x, g))


def test_max_pool_grad_windows_of_minus_inf_route_to_their_first_pixel():
    # Nothing exceeds the lowest float: TF 2.21 routes such a window to its first pixel; the
    # lowest float itself and +inf are ordinary maxima. Expected values recorded from TF 2.21.
    x = np.full((1, 2, 2, 8), -np.inf, np.float32)
    x[0, 1, 0, 1] = np.finfo(np.float32).min
    x[0, 0, 1, 2] = np.inf
    g = np.arange(1, 9, dtype=np.float32).reshape(1, 1, 1, 8)
    p = tf.nn.max_pool2d(tf.constant(x), 2, 2, "VALID")
    dx = tf.raw_ops.MaxPoolGrad(orig_input=tf.constant(x), orig_output=p, grad=tf.constant(g), ksize=[1, 2, 2, 1],
                                strides=[1, 2, 2, 1], padding="VALID").numpy()
    assert dx.reshape(4, 8).tolist() == [[1, 0, 0, 4, 5, 6, 7, 8], [0, 0, 3, 0, 0, 0, 0, 0],
                                         [0, 2, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]


NAN = float("nan")
# (window values, MaxPoolGrad's routing of 7.0, MaxPoolGradGrad of arange(channels) per pixel at
# channel 0), recorded from TF 2.21, for 2x2 VALID (the tiled paths) and 3x3 stride 2 SAME (the
# generic path) windows over one 2x2 image.
# (None: MaxPoolGradGrad gives 0, no value exceeding the lowest float.)
EDGE_WINDOWS = [([NAN, 1, 2, 3], [7, 0, 0, 0], 3), ([1, NAN, 2, 0], [0, 0, 7, 0], 2),
                ([NAN] * 4, [7, 0, 0, 0], None), ([-np.inf, NAN, -np.inf, -np.inf], [7, 0, 0, 0], None),
                ([-np.inf] * 4, [7, 0, 0, 0], None)]


@pytest.mark.parametrize("values,routed,gradgrad_pixel", EDGE_WINDOWS)
@pytest.mark.parametrize("channels", [1, 3, 8])
@pytest.mark.parametrize("k,s,padding", [(2, 2, "VALID"), (3, 2, "SAME")])
def test_max_pool_grad_nan_and_minus_inf_windows_as_tf(values, routed, gradgrad_pixel, channels, k, s, padding):
    x = np.repeat(np.array(values, np.float32).reshape(1, 2, 2, 1), channels, axis=3)
    p = tf.nn.max_pool2d(tf.constant(x), k, s, padding)
    attrs = dict(ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
    dx = tf.raw_ops.MaxPoolGrad(orig_input=tf.constant(x), orig_output=p, grad=tf.fill(p.shape, 7.0), **attrs)
    for c in range(channels):
        assert dx.numpy()[..., c].ravel().tolist() == routed
    grad = np.arange(x.size, dtype=np.float32).reshape(x.shape)
    gg = tf.raw_ops.MaxPoolGradGrad(orig_input=tf.constant(x), orig_output=p, grad=tf.constant(grad), **attrs)
    expected = 0.0 if gradgrad_pixel is None else float(gradgrad_pixel * channels)
    assert gg.numpy()[..., 0].ravel().tolist() == [expected]


# An inf in the filter (forward, input gradient) or in dy (filter gradient): TF 2.21 adds nothing
# for a window tap in the padding, so the border outputs stay finite. The register tiles read
# such taps as zeros (0 * inf = NaN), so a non-finite filter takes the row loops and a block of
# rows with a non-finite dy the row-by-row sum. Expected values recorded from TF 2.21 (channel 0).
@pytest.mark.parametrize("cin", [1, 16])
def test_inf_filter_forward_adds_nothing_in_the_padding(cin):
    x = np.ones((1, 3, 3, cin), np.float32)
    w = np.zeros((3, 3, cin, 8), np.float32)
    w[0, 0, 0, :] = np.inf
    y = tf.nn.conv2d(x, w, 1, "SAME").numpy()[0, :, :, 0]
    np.testing.assert_array_equal(y, [[0, 0, 0], [0, np.inf, np.inf], [0, np.inf, np.inf]])


@pytest.mark.parametrize("cin", [1, 16])
def test_inf_dy_filter_gradient_adds_nothing_in_the_padding(cin):
    x = np.ones((1, 3, 3, cin), np.float32)
    dy = np.ones((1, 3, 3, 8), np.float32)
    dy[0, 0, 0, :] = np.inf
    dw = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=[3, 3, cin, 8], out_backprop=dy,
                                         strides=[1, 1, 1, 1], padding="SAME").numpy()
    np.testing.assert_array_equal(dw[:, :, 0, 0], [[4, 6, 4], [6, np.inf, np.inf], [4, np.inf, np.inf]])


def test_inf_filter_input_gradient_adds_nothing_in_the_padding():
    w = np.zeros((3, 3, 8, 16), np.float32)
    w[0, 0, :, 0] = np.inf
    dx = tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 3, 3, 8], filter=w, out_backprop=np.ones((1, 3, 3, 16), np.float32),
                                        strides=[1, 1, 1, 1], padding="SAME").numpy()
    np.testing.assert_array_equal(dx[0, :, :, 0], [[np.inf, np.inf, 0], [np.inf, np.inf, 0], [0, 0, 0]])
