"""The fast paths of the convnet kernels (issue 19): direct convolution loops for windows of few
values (window * input channels <= 32: no column matrix), max pooling over tiling windows
(windows listed without divisions), and ReLU's, BiasAdd's and BiasAddGrad's loops on the pool.
Values against float64 NumPy references within TF's float32 tolerances, and the same bits with
one thread as with three."""

import textwrap

import numpy as np
import pytest

import graphfn as tf
from test_nn_conv_threads import _conv_grads_ref
from test_nn_conv_threads import _conv_ref
from thread_count_runs import run_with_threads

# (input shape, filter shape, stride, padding, dilation): windows of 9, 18, 27 and 32 values;
# output channels in whole register blocks (32 floats, 16 doubles), blocks and a rest, or a rest.
DIRECT_CASES = [
    ((2, 9, 8, 1), (3, 3, 1, 40), 1, "SAME", 1),
    ((2, 9, 8, 2), (2, 2, 2, 64), 2, "VALID", 1),
    ((3, 13, 11, 1), (3, 3, 1, 8), 1, "SAME", 1),
    ((2, 17, 9, 2), (3, 3, 2, 5), 2, "SAME", 1),
    ((2, 16, 15, 3), (3, 3, 3, 7), 2, "VALID", 1),
    ((2, 15, 14, 2), (4, 4, 2, 3), 1, "SAME", 1),
    ((2, 15, 14, 1), (3, 3, 1, 4), 1, "SAME", 2),
    ((1, 6, 5, 1), (5, 5, 1, 3), 3, "SAME", 1),
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation", DIRECT_CASES)
@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float64, 1e-12)])
def test_direct_convolution_matches_float64(xs, ws, stride, padding, dilation, dtype, tol):
    rng = np.random.default_rng(sum(xs) + sum(ws))
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    st, dl = [1, stride, stride, 1], [1, dilation, dilation, 1]
    y = tf.raw_ops.Conv2D(input=tf.constant(x.astype(dtype)), filter=tf.constant(w.astype(dtype)), strides=st,
                          padding=padding, dilations=dl)
    expected = _conv_ref(x, w, stride, padding, dilation)
    assert y.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(y.numpy(), expected, rtol=tol, atol=tol)
    if dilation > 1:
        return  # TF's CPU backprops take no dilation
    dy = rng.standard_normal(expected.shape)
    _, dw_ref = _conv_grads_ref(x, w, dy, stride, padding, dilation)
    dw = tf.raw_ops.Conv2DBackpropFilter(input=tf.constant(x.astype(dtype)), filter_sizes=tf.constant(list(ws)),
                                         out_backprop=tf.constant(dy.astype(dtype)), strides=st, padding=padding,
                                         dilations=dl)
    np.testing.assert_allclose(dw.numpy(), dw_ref, rtol=tol, atol=10 * tol)


def test_direct_convolution_of_a_window_outside_the_input_is_zero():
    # A 5x5 window with stride 4 over a 1x1 image: SAME pads 2 on each side, so every output
    # pixel's window holds the one input pixel at its centre tap (TF 2.21: [[[[6.]]]]).
    x = tf.constant([[[[2.0]]]])
    w = tf.constant(np.arange(25, dtype=np.float32).reshape(5, 5, 1, 1) / 4)
    y = tf.nn.conv2d(x, w, 4, "SAME")
    np.testing.assert_array_equal(y.numpy(), [[[[6.0]]]])


def _max_pool_ref(x, k, s, padding):
    n, h, w, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // s), -(-w // s)
        ph = max((oh - 1) * s + k - h, 0) // 2
        pw = max((ow - 1) * s + k - w, 0) // 2
    else:
        oh, ow, ph, pw = (h - k) // s + 1, (w - k) // s + 1, 0, 0
    y = np.full((n, oh, ow, c), -np.inf)
    for i in range(oh):
        for j in range(ow):
            y0, x0 = max(i * s - ph, 0), max(j * s - pw, 0)
            y1, x1 = min(i * s - ph + k, h), min(j * s - pw + k, w)
            y[:, i, j] = x[:, y0:y1, x0:x1].max(axis=(1, 2))
    return y


@pytest.mark.parametrize("shape,k,padding", [((2, 9, 7, 5), 2, "VALID"), ((2, 9, 7, 5), 2, "SAME"),
                                             ((3, 12, 12, 33), 3, "VALID"), ((1, 5, 5, 1), 2, "SAME")])
def test_max_pool_matches_reference(shape, k, padding):
    # SAME with stride == window pads only after: the last window hangs over the edge, so it
    # takes the general path; VALID windows tile the input (the fast path).
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    y = tf.nn.max_pool2d(tf.constant(x), k, k, padding)
    np.testing.assert_array_equal(y.numpy(), _max_pool_ref(x, k, k, padding))


def test_max_pool_grad_over_the_edge_routes_to_the_window_maximum():
    # in 5, window 2, stride 2, SAME: the third window holds only pixel 4.
    x = tf.constant(np.array([1, 5, 2, 7, 3], np.float32).reshape(1, 1, 5, 1))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, [1, 2], [1, 2], "SAME")
    g = tape.gradient(y, x, output_gradients=tf.constant([[[[10.0], [20.0], [30.0]]]]))
    np.testing.assert_array_equal(y.numpy().ravel(), [5, 7, 3])
    np.testing.assert_array_equal(g.numpy().ravel(), [0, 10, 0, 20, 30])


def test_bias_add_grad_and_relu_grad_match_references():
    rng = np.random.default_rng(9)
    g = rng.standard_normal((37, 29, 31, 33)).astype(np.float32)
    f = rng.standard_normal(g.shape).astype(np.float32)
    db = tf.raw_ops.BiasAddGrad(out_backprop=tf.constant(g))
    np.testing.assert_allclose(db.numpy(), g.astype(np.float64).sum(axis=(0, 1, 2)), rtol=1e-5, atol=1e-3)
    dr = tf.raw_ops.ReluGrad(gradients=tf.constant(g), features=tf.constant(f))
    np.testing.assert_array_equal(dr.numpy(), np.where(f > 0, g, 0))
    b = rng.standard_normal(33).astype(np.float32)
    np.testing.assert_array_equal(tf.nn.bias_add(tf.constant(g), tf.constant(b)).numpy(), g + b)
    ints = rng.integers(-2**31, 2**31, size=(300, 1001), dtype=np.int64).astype(np.int32)
    wrapped = (ints.astype(np.int64).sum(axis=0) + 2**31) % 2**32 - 2**31  # int32 sums wrap, as TF's
    np.testing.assert_array_equal(tf.raw_ops.BiasAddGrad(out_backprop=tf.constant(ints)).numpy(), wrapped)


_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import graphfn as tf
    raw = tf.raw_ops
    rng = np.random.default_rng(11)
    def r(*shape, dtype=np.float32):
        return tf.constant(rng.standard_normal(shape).astype(dtype))
    out = {}
    for dtype in (np.float32, np.float64):
        x, w = r(7, 33, 29, 1, dtype=dtype), r(3, 3, 1, 31, dtype=dtype)
        y = raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME")
        out["direct fwd %s" % dtype.__name__] = y
        out["direct dw %s" % dtype.__name__] = raw.Conv2DBackpropFilter(
            input=x, filter_sizes=tf.constant([3, 3, 1, 31]), out_backprop=r(*y.shape, dtype=dtype),
            strides=[1, 1, 1, 1], padding="SAME")
        x2, w2 = r(5, 31, 27, 3, dtype=dtype), r(3, 3, 3, 9, dtype=dtype)
        y2 = raw.Conv2D(input=x2, filter=w2, strides=[1, 2, 2, 1], padding="VALID")
        out["direct fwd s2 %s" % dtype.__name__] = y2
        out["direct dw s2 %s" % dtype.__name__] = raw.Conv2DBackpropFilter(
            input=x2, filter_sizes=tf.constant([3, 3, 3, 9]), out_backprop=r(*y2.shape, dtype=dtype),
            strides=[1, 2, 2, 1], padding="VALID")
    h = r(9, 30, 26, 37)
    p = raw.MaxPool(input=h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    out["max pool tiled"] = p
    out["max pool grad tiled"] = raw.MaxPoolGrad(orig_input=h, orig_output=p, grad=r(*p.shape),
                                                 ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    h32 = r(9, 30, 26, 32)  # whole 8-channel vectors (the float vector path)
    p32 = raw.MaxPool(input=h32, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    out["max pool grad tiled 32"] = raw.MaxPoolGrad(orig_input=h32, orig_output=p32, grad=r(*p32.shape),
                                                    ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    b = r(37)
    out["bias add"] = raw.BiasAdd(value=h, bias=b)
    out["bias add grad"] = raw.BiasAddGrad(out_backprop=h)
    out["bias add grad 2d"] = raw.BiasAddGrad(out_backprop=r(100003, 3))
    out["relu grad"] = raw.ReluGrad(gradients=r(9, 30, 26, 37), features=h)
    np.savez(sys.argv[1], **{k.replace(" ", "_"): v.numpy() for k, v in out.items()})
""")


def _run(tmp_path, threads):
    return run_with_threads(_SCRIPT, tmp_path, threads)


def test_one_thread_and_three_threads_give_the_same_bits(tmp_path):
    one, three = _run(tmp_path, 1), _run(tmp_path, 3)
    assert sorted(one.files) == sorted(three.files)
    for name in one.files:
        np.testing.assert_array_equal(one[name], three[name], err_msg=name)
