"""Winograd's F(2x2, 3x3) for float 3x3 convolutions with unit strides (kernels/nn_conv_winograd.h:
forward pass, input gradient, filter gradient through F(3x3, 2x2)) and the AVX-512 variants of the
convolution tiles (kernels/nn_conv_avx512.cc): values against float64 references within TF's
float32 tolerances on odd sizes (odd images, 9 to 37 input channels, output depths around the 16-,
32- and 64-channel panels, SAME, VALID and explicit padding); inf, NaN and overflow give TF 2.21's
values (recorded with TF 2.21); the AVX2 path (GRAPHFN_MAX_CPU_ISA=avx2) gives the same bits as the
AVX-512 one. (One thread against three, bitwise: test_nn_conv_threads.py.)"""

import numpy as np
import pytest

import fresh_interpreter
import graphfn as tf
from test_nn_conv_threads import _conv_grads_ref
from test_nn_conv_threads import _conv_ref

INF, NAN = np.inf, np.nan
ONES = [1, 1, 1, 1]

# (input shape, filter shape, padding)
CASES = [
    ((2, 9, 11, 9), (3, 3, 9, 8), "SAME"),
    ((1, 7, 8, 17), (3, 3, 17, 19), "VALID"),
    ((3, 6, 5, 16), (3, 3, 16, 33), "SAME"),
    ((2, 13, 10, 32), (3, 3, 32, 64), "SAME"),
    ((1, 5, 9, 37), (3, 3, 37, 70), "VALID"),
    ((2, 10, 7, 12), (3, 3, 12, 40), [[0, 0], [2, 0], [1, 2], [0, 0]]),
]


def _padded(x, padding):
    if isinstance(padding, list):
        return np.pad(x, padding), "VALID"
    return x, padding


@pytest.mark.parametrize("xs,ws,padding", CASES)
def test_winograd_matches_float64(xs, ws, padding):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    x32, w32 = tf.constant(x, tf.float32), tf.constant(w, tf.float32)
    y = tf.nn.conv2d(x32, w32, 1, padding).numpy()
    xp, pad = _padded(x, padding)
    expected = _conv_ref(xp, w, 1, pad, 1)
    scale = np.sqrt(ws[0] * ws[1] * ws[2])  # the sums' typical size
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5 * scale)
    if isinstance(padding, list):
        return  # the references below take SAME or VALID
    dy = rng.standard_normal(expected.shape)
    dx_ref, dw_ref = _conv_grads_ref(x, w, dy, 1, padding, 1)
    dx = tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant(list(xs)), filter=w32,
                                        out_backprop=tf.constant(dy, tf.float32), strides=ONES, padding=padding)
    dw = tf.raw_ops.Conv2DBackpropFilter(input=x32, filter_sizes=tf.constant(list(ws)),
                                         out_backprop=tf.constant(dy, tf.float32), strides=ONES, padding=padding)
    np.testing.assert_allclose(dx.numpy(), dx_ref, rtol=1e-5, atol=1e-5 * np.sqrt(9 * ws[3]))
    rows = np.sqrt(np.prod(expected.shape[:3]))
    np.testing.assert_allclose(dw.numpy(), dw_ref, rtol=1e-5, atol=1e-5 * rows)


def test_inf_and_nan_in_the_input_give_tf_values():
    x = np.zeros((1, 4, 5, 8), np.float32)
    x[0, 0, 0, 0] = INF
    x[0, 3, 4, 5] = NAN
    x[0, 2, 1, 2] = 1.0
    w = (np.arange(3 * 3 * 8 * 8).reshape(3, 3, 8, 8) % 5 - 1).astype(np.float32)
    y = tf.nn.conv2d(tf.constant(x), tf.constant(w), 1, "SAME").numpy()
    # recorded with TF 2.21
    np.testing.assert_array_equal(y[0, :, :, 0], [[NAN, INF, 0, 0, 0], [INF, -INF, -1, 0, 0], [0, 1, 2, NAN, NAN],
                                                  [3, -1, 0, NAN, NAN]])
    np.testing.assert_array_equal(y[0, :, :, 3], [[INF, -INF, 0, 0, 0], [INF, INF, 2, 0, 0], [3, -1, 0, NAN, NAN],
                                                  [1, 2, 3, NAN, NAN]])


def test_inf_in_dy_gives_tf_gradients():
    x = np.ones((1, 4, 5, 8), np.float32)
    dy = np.ones((1, 4, 5, 8), np.float32)
    dy[0, 0, 0, 1] = INF
    dw = tf.raw_ops.Conv2DBackpropFilter(input=tf.constant(x), filter_sizes=tf.constant([3, 3, 8, 8]),
                                         out_backprop=tf.constant(dy), strides=ONES, padding="SAME").numpy()
    # recorded with TF 2.21: the taps in the padding add nothing (no 0 * inf)
    np.testing.assert_array_equal(dw[:, :, 0, 1], [[12, 15, 12], [16, INF, INF], [12, INF, INF]])
    np.testing.assert_array_equal(dw[:, :, 0, 0], [[12, 15, 12], [16, 20, 16], [12, 15, 12]])
    dx = tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant([1, 4, 5, 8]), filter=tf.ones([3, 3, 8, 8]),
                                        out_backprop=tf.constant(dy), strides=ONES, padding="SAME").numpy()
    np.testing.assert_array_equal(dx[0, :, :, 0], [[INF, INF, 48, 48, 32], [INF, INF, 72, 72, 48],
                                                   [48, 72, 72, 72, 48], [32, 48, 48, 48, 32]])


def test_overflowing_sums_give_tf_infinities():
    x = np.full((1, 3, 3, 8), 3e37, np.float32)
    w = np.ones((3, 3, 8, 8), np.float32)
    w[..., 1] = -1
    y = tf.nn.conv2d(tf.constant(x), tf.constant(w), 1, "SAME").numpy()
    # recorded with TF 2.21
    np.testing.assert_array_equal(y[0, :, :, 0], np.full((3, 3), INF))
    np.testing.assert_array_equal(y[0, :, :, 1], np.full((3, 3), -INF))


_PATHS_SCRIPT = """
import sys
import numpy as np
import graphfn as tf
rng = np.random.default_rng(11)
out = {}
# Winograd (3x3, unit strides), the register tiles (strides, 5x5, dilation) and the narrow direct
# loops, with output depths around the panels of both tile shapes.
for i, (xs, ws, stride, dil) in enumerate([((2, 11, 9, 13), (3, 3, 13, 70), 1, 1), ((3, 9, 10, 32), (3, 3, 32, 33), 1, 1),
                                           ((2, 12, 11, 9), (3, 3, 9, 24), 2, 1), ((1, 13, 12, 7), (5, 5, 7, 65), 1, 1),
                                           ((2, 10, 9, 6), (3, 3, 6, 40), 1, 2), ((2, 9, 9, 1), (3, 3, 1, 32), 1, 1)]):
    x = tf.constant(rng.standard_normal(xs).astype(np.float32))
    w = tf.constant(rng.standard_normal(ws).astype(np.float32))
    st, dl = [1, stride, stride, 1], [1, dil, dil, 1]
    y = tf.raw_ops.Conv2D(input=x, filter=w, strides=st, padding="SAME", dilations=dl)
    out["y%d" % i] = y.numpy()
    if dil > 1:
        continue
    dy = tf.constant(rng.standard_normal(y.shape).astype(np.float32))
    out["dx%d" % i] = tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant(list(xs)), filter=w, out_backprop=dy,
                                                    strides=st, padding="SAME").numpy()
    out["dw%d" % i] = tf.raw_ops.Conv2DBackpropFilter(input=x, filter_sizes=tf.constant(list(ws)), out_backprop=dy,
                                                     strides=st, padding="SAME").numpy()
np.savez(sys.argv[1], **out)
"""


def test_avx2_and_avx512_paths_give_the_same_bits(tmp_path):
    results = {}
    for isa in ("avx2", "native"):
        path = str(tmp_path / (isa + ".npz"))
        proc = fresh_interpreter.run_code(_PATHS_SCRIPT, path, GRAPHFN_MAX_CPU_ISA=isa)
        assert proc.returncode == 0, proc.stderr[-2000:]
        results[isa] = np.load(path)
    avx2, native = results["avx2"], results["native"]
    assert sorted(avx2.files) == sorted(native.files)
    for name in avx2.files:
        np.testing.assert_array_equal(avx2[name], native[name], err_msg=name)
