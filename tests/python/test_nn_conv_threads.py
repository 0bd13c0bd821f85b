"""Convolutions, pooling and batch norm on the shared pool (issue 19): the same results with one
thread as with several (bitwise: the kernels split work into pieces chosen from the sizes, not
the thread count), and values against float64 NumPy references for odd sizes (batch 3, 13x11
images, 5 channels, strides 2, VALID/SAME, dilation), within TF's float32 tolerances."""

import os
import textwrap

import numpy as np
import pytest

import graphfn as tf
from thread_count_runs import run_with_threads

HERE = os.path.dirname(os.path.abspath(__file__))

# Sizes large enough that every kernel splits its work (several column blocks, several images,
# batch norm above its 2^18-element threshold), and odd.
_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import graphfn as tf
    raw = tf.raw_ops
    rng = np.random.default_rng(7)
    def r(*shape):
        return tf.constant(rng.standard_normal(shape).astype(np.float32))
    out = {}
    x, w = r(5, 37, 29, 37), r(3, 3, 37, 19)
    for name, strides, padding, dil in [("s1_same", 1, "SAME", 1), ("s2_valid", 2, "VALID", 1),
                                        ("s2_same", 2, "SAME", 1), ("d2_valid", 1, "VALID", 2)]:
        st, dl = [1, strides, strides, 1], [1, dil, dil, 1]
        y = raw.Conv2D(input=x, filter=w, strides=st, padding=padding, dilations=dl)
        dy = r(*y.shape)
        out["conv_" + name] = y
        if dil > 1:
            continue  # TF's CPU backprops take no dilation (InvalidArgumentError)
        out["dx_" + name] = raw.Conv2DBackpropInput(input_sizes=tf.constant(x.shape.as_list()), filter=w,
                                                    out_backprop=dy, strides=st, padding=padding, dilations=dl)
        out["dw_" + name] = raw.Conv2DBackpropFilter(input=x, filter_sizes=tf.constant(w.shape.as_list()),
                                                     out_backprop=dy, strides=st, padding=padding, dilations=dl)
    x1 = r(9, 31, 27, 1)
    w1 = r(3, 3, 1, 32)
    y1 = raw.Conv2D(input=x1, filter=w1, strides=[1, 1, 1, 1], padding="SAME")
    out["conv_one_channel"] = y1
    out["dw_one_channel"] = raw.Conv2DBackpropFilter(input=x1, filter_sizes=tf.constant([3, 3, 1, 32]),
                                                     out_backprop=r(*y1.shape), strides=[1, 1, 1, 1], padding="SAME")
    x3, w3 = r(3, 9, 11, 13, 7), r(3, 2, 3, 7, 5)
    y3 = raw.Conv3D(input=x3, filter=w3, strides=[1, 1, 2, 1, 1], padding="SAME")
    out["conv3d"] = y3
    dy3 = r(*y3.shape)
    out["conv3d_dx"] = raw.Conv3DBackpropInputV2(input_sizes=tf.constant(x3.shape.as_list()), filter=w3,
                                                 out_backprop=dy3, strides=[1, 1, 2, 1, 1], padding="SAME")
    out["conv3d_dw"] = raw.Conv3DBackpropFilterV2(input=x3, filter_sizes=tf.constant(w3.shape.as_list()),
                                                  out_backprop=dy3, strides=[1, 1, 2, 1, 1], padding="SAME")
    for name, k, s, padding in [("max_2_valid", 2, 2, "VALID"), ("max_3_same", 3, 2, "SAME")]:
        p = raw.MaxPool(input=x, ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
        g = r(*p.shape)
        out["pool_" + name] = p
        out["pool_grad_" + name] = raw.MaxPoolGrad(orig_input=x, orig_output=p, grad=g, ksize=[1, k, k, 1],
                                                   strides=[1, s, s, 1], padding=padding)
        a = raw.AvgPool(value=x, ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
        out["avg_" + name] = a
        out["avg_grad_" + name] = raw.AvgPoolGrad(orig_input_shape=tf.constant(x.shape.as_list()), grad=g,
                                                  ksize=[1, k, k, 1], strides=[1, s, s, 1], padding=padding)
    xe = r(5, 36, 28, 37)  # 2x2 stride 2 windows covering the input exactly
    pe = raw.MaxPool(input=xe, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    out["pool_grad_covered"] = raw.MaxPoolGrad(orig_input=xe, orig_output=pe, grad=r(*pe.shape),
                                               ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    xb = r(9, 37, 29, 33)
    scale, offset = r(33), r(33)
    bn = raw.FusedBatchNormV3(x=xb, scale=scale, offset=offset, mean=tf.zeros([33]), variance=tf.ones([33]),
                              is_training=True)
    out["bn_y"], out["bn_mean"], out["bn_var"] = bn.y, bn.batch_mean, bn.batch_variance
    bg = raw.FusedBatchNormGradV3(y_backprop=r(9, 37, 29, 33), x=xb, scale=scale, reserve_space_1=bn.reserve_space_1,
                                  reserve_space_2=bn.reserve_space_2, reserve_space_3=bn.reserve_space_3,
                                  is_training=True)
    out["bn_dx"], out["bn_dscale"], out["bn_doffset"] = bg.x_backprop, bg.scale_backprop, bg.offset_backprop
    np.savez(sys.argv[1], **{k: v.numpy() for k, v in out.items()})
""")


def _run(tmp_path, threads):
    return run_with_threads(_SCRIPT, tmp_path, threads)


def test_one_thread_and_three_threads_give_the_same_bits(tmp_path):
    one, three = _run(tmp_path, 1), _run(tmp_path, 3)
    assert sorted(one.files) == sorted(three.files)
    for name in one.files:
        assert one[name].shape == three[name].shape, name
        np.testing.assert_array_equal(one[name], three[name], err_msg=name)


# float64 references ------------------------------------------------------------------------------

def _same_pads(size, k, stride, dilation):
    out = -(-size // stride)
    total = max((out - 1) * stride + (k - 1) * dilation + 1 - size, 0)
    return out, total // 2


def _geometry(shape_in, shape_w, stride, padding, dilation):
    _, h, w, _ = shape_in
    kh, kw = shape_w[:2]
    if padding == "SAME":
        oh, ph = _same_pads(h, kh, stride, dilation)
        ow, pw = _same_pads(w, kw, stride, dilation)
    else:
        oh, ph = (h - (kh - 1) * dilation - 1) // stride + 1, 0
        ow, pw = (w - (kw - 1) * dilation - 1) // stride + 1, 0
    return oh, ow, ph, pw


def _taps(shape_in, shape_w, stride, padding, dilation):
    """(fy, fx, output slice rows/cols, input rows/cols) of every filter tap."""
    _, h, w, _ = shape_in
    kh, kw = shape_w[:2]
    oh, ow, ph, pw = _geometry(shape_in, shape_w, stride, padding, dilation)
    for fy in range(kh):
        for fx in range(kw):
            ys = np.arange(oh) * stride - ph + fy * dilation
            xs = np.arange(ow) * stride - pw + fx * dilation
            oy, ox = np.nonzero((ys >= 0) & (ys < h))[0], np.nonzero((xs >= 0) & (xs < w))[0]
            yield fy, fx, oy, ox, ys[oy], xs[ox]


def _conv_ref(x, w, stride, padding, dilation):
    oh, ow, _, _ = _geometry(x.shape, w.shape, stride, padding, dilation)
    y = np.zeros((x.shape[0], oh, ow, w.shape[3]))
    for fy, fx, oy, ox, iy, ix in _taps(x.shape, w.shape, stride, padding, dilation):
        y[:, oy[:, None], ox[None, :], :] += x[:, iy[:, None], ix[None, :], :] @ w[fy, fx]
    return y


def _conv_grads_ref(x, w, dy, stride, padding, dilation):
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for fy, fx, oy, ox, iy, ix in _taps(x.shape, w.shape, stride, padding, dilation):
        d = dy[:, oy[:, None], ox[None, :], :]
        dx[:, iy[:, None], ix[None, :], :] += d @ w[fy, fx].T
        dw[fy, fx] += np.einsum("nhwc,nhwk->ck", x[:, iy[:, None], ix[None, :], :], d)
    return dx, dw


CASES = [(1, "SAME", 1), (2, "SAME", 1), (2, "VALID", 1), (1, "VALID", 2), (1, "SAME", 2), (3, "SAME", 1)]


@pytest.mark.parametrize("stride,padding,dilation", CASES)
def test_conv2d_and_backprops_match_float64(stride, padding, dilation):
    rng = np.random.default_rng(stride * 10 + dilation)
    x = rng.standard_normal((3, 13, 11, 5))
    w = rng.standard_normal((3, 3, 5, 4))
    st, dl = [1, stride, stride, 1], [1, dilation, dilation, 1]
    y = tf.raw_ops.Conv2D(input=tf.constant(x, tf.float32), filter=tf.constant(w, tf.float32), strides=st,
                          padding=padding, dilations=dl)
    expected = _conv_ref(x, w, stride, padding, dilation)
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)
    # float64 runs the same path through the double GEMM.
    y64 = tf.raw_ops.Conv2D(input=tf.constant(x), filter=tf.constant(w), strides=st, padding=padding, dilations=dl)
    np.testing.assert_allclose(y64.numpy(), expected, rtol=1e-12, atol=1e-12)
    if dilation > 1:
        return  # TF's CPU backprops take no dilation
    dy = rng.standard_normal(expected.shape)
    dx_ref, dw_ref = _conv_grads_ref(x, w, dy, stride, padding, dilation)
    dx = tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant([3, 13, 11, 5]), filter=tf.constant(w, tf.float32),
                                        out_backprop=tf.constant(dy, tf.float32), strides=st, padding=padding,
                                        dilations=dl)
    dw = tf.raw_ops.Conv2DBackpropFilter(input=tf.constant(x, tf.float32), filter_sizes=tf.constant([3, 3, 5, 4]),
                                         out_backprop=tf.constant(dy, tf.float32), strides=st, padding=padding,
                                         dilations=dl)
    np.testing.assert_allclose(dx.numpy(), dx_ref, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(dw.numpy(), dw_ref, rtol=1e-5, atol=1e-4)


def test_one_input_channel_matches_float64():
    # The first layer of a convnet: one channel, the column matrix built a window line per copy.
    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((3, 13, 11, 1)), rng.standard_normal((3, 3, 1, 8))
    y = tf.nn.conv2d(tf.constant(x, tf.float32), tf.constant(w, tf.float32), 1, "SAME")
    np.testing.assert_allclose(y.numpy(), _conv_ref(x, w, 1, "SAME", 1), rtol=1e-5, atol=1e-5)


def test_int32_conv2d_stays_exact():
    # int32 does not go through OpenBLAS: exact integer products.
    x = np.arange(3 * 13 * 11 * 5, dtype=np.int64).reshape(3, 13, 11, 5) % 7 - 3
    w = np.arange(3 * 3 * 5 * 4, dtype=np.int64).reshape(3, 3, 5, 4) % 5 - 2
    y = tf.raw_ops.Conv2D(input=tf.constant(x, tf.int32), filter=tf.constant(w, tf.int32), strides=[1, 2, 2, 1],
                          padding="SAME")
    np.testing.assert_array_equal(y.numpy(), _conv_ref(x.astype(float), w.astype(float), 2, "SAME", 1).astype(np.int64))


def test_max_pool_grad_tiling_windows_route_to_the_first_maximum():
    # 2x2 stride 2 VALID windows tile the input (the kernel writes each pixel once); ties go to
    # the first maximum in window order, uncovered pixels (the odd row and column) get zeros.
    # Expected values recorded from TF 2.21.
    x = tf.constant(np.array([[1, 3, 3, 0], [3, 2, -1, -1], [0, 0, 5, 5], [0, 0, 5, 5]], np.float32).reshape(1, 4, 4, 1))
    p = tf.nn.max_pool2d(x, 2, 2, "VALID")
    dx = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=p, grad=tf.constant([[[[1.0], [2.0]], [[3.0], [4.0]]]]),
                                ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    assert dx.numpy().reshape(4, 4).tolist() == [[0, 1, 2, 0], [0, 0, 0, 0], [3, 0, 4, 0], [0, 0, 0, 0]]
    y = tf.constant(np.array([[7, -2, 4], [0, 0, 0], [1, 2, 3]], np.float32).reshape(1, 3, 3, 1))
    p = tf.nn.max_pool2d(y, 2, 2, "VALID")
    dy = tf.raw_ops.MaxPoolGrad(orig_input=y, orig_output=p, grad=tf.constant([[[[10.0]]]]), ksize=[1, 2, 2, 1],
                                strides=[1, 2, 2, 1], padding="VALID")
    assert dy.numpy().reshape(3, 3).tolist() == [[10, 0, 0], [0, 0, 0], [0, 0, 0]]
