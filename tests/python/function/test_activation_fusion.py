"""The remapping pass (passes/activation_fusion.h): Conv2D + BiasAdd (or AddV2 of a channel bias)
+ Relu becomes one GraphfnFusedConv2D in a function's plan, and ReluGrad(MaxPoolGrad(x, ...), x)
one MaxPoolGrad. The fused plans must give the unfused ops' bits (the fusion's contract: each
result is compared with the same function traced with remapping off, and with the ops run
eagerly), on every convolution path (direct one-channel windows, Winograd, register tiles,
1x1, im2col, a non-finite filter, inf and NaN inputs) and on -0, NaN and inf. ReluGrad's own
values were printed by TensorFlow 2.21."""

import numpy as np
import pytest

import graphfn as tf
from graphfn.function import optimizer_options


pytestmark = pytest.mark.usefixtures("verified_passes")  # conftest.py: invariants checked after each pass


def traced(python_function, *args, remapping=True):
    """A fresh function traced with remapping on or off: (its results, its plan's ops)."""
    optimizer_options._options["remapping"] = remapping
    concrete = tf.function(python_function).get_concrete_function(*args)
    return concrete(*args), concrete._plan.step_ops()


def assert_bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


def rng_tensor(seed, shape, scale=1.0):
    return tf.constant(np.random.default_rng(seed).standard_normal(shape).astype(np.float32) * scale)


# (input shape, filter shape, strides, padding): the convolution paths of kernels/nn_conv.cc.
CONV_PATHS = {
    "direct, one input channel": ((4, 15, 13, 1), (3, 3, 1, 32), 1, "SAME"),
    "direct, odd output channels": ((3, 9, 11, 2), (3, 3, 2, 19), 1, "VALID"),
    "Winograd": ((3, 14, 14, 32), (3, 3, 32, 64), 1, "SAME"),
    "Winograd, odd sizes": ((2, 13, 11, 9), (3, 3, 9, 21), 1, "SAME"),
    "register tiles, 5x5": ((2, 12, 12, 16), (5, 5, 16, 24), 1, "SAME"),
    "register tiles, strided": ((2, 13, 13, 16), (3, 3, 16, 32), 2, "VALID"),
    "pointwise 1x1": ((2, 7, 7, 24), (1, 1, 24, 40), 1, "VALID"),
    "im2col, strided one channel": ((2, 9, 9, 3), (2, 2, 3, 5), 2, "SAME"),
}


@pytest.mark.parametrize("path", sorted(CONV_PATHS))
@pytest.mark.parametrize("bias_form", ["bias_add", "add", "add [1,1,1,C]", "bias first"])
def test_conv_bias_relu_is_one_op_with_the_unfused_bits(path, bias_form):
    x_shape, w_shape, stride, padding = CONV_PATHS[path]
    x, w = rng_tensor(1, x_shape), rng_tensor(2, w_shape, 0.3)
    b = rng_tensor(3, w_shape[-1:])

    def f(x, w, b):
        y = tf.nn.conv2d(x, w, stride, padding)
        if bias_form == "bias_add":
            y = tf.nn.bias_add(y, b)
        elif bias_form == "add":
            y = y + b
        elif bias_form == "add [1,1,1,C]":
            y = y + tf.reshape(b, [1, 1, 1, -1])
        else:
            y = b + y
        return tf.nn.relu(y)

    fused, ops = traced(f, x, w, b)
    unfused, unfused_ops = traced(f, x, w, b, remapping=False)
    assert "GraphfnFusedConv2D" in ops and "Relu" not in ops and "Conv2D" not in ops
    assert "Relu" in unfused_ops and "GraphfnFusedConv2D" not in unfused_ops
    assert_bits_equal(fused, unfused)
    assert_bits_equal(fused, f(x, w, b))  # eagerly
    assert np.count_nonzero(fused.numpy() == 0) > 0 and np.count_nonzero(fused.numpy() > 0) > 0


@pytest.mark.parametrize("path", ["direct, one input channel", "Winograd", "register tiles, 5x5"])
def test_conv_bias_without_relu(path):
    x_shape, w_shape, stride, padding = CONV_PATHS[path]
    x, w, b = rng_tensor(4, x_shape), rng_tensor(5, w_shape, 0.3), rng_tensor(6, w_shape[-1:])

    def f(x, w, b):
        return tf.nn.bias_add(tf.nn.conv2d(x, w, stride, padding), b) * 2.0

    fused, ops = traced(f, x, w, b)
    assert "GraphfnFusedConv2D" in ops and "BiasAdd" not in ops
    assert_bits_equal(fused, traced(f, x, w, b, remapping=False)[0])
    assert_bits_equal(fused, f(x, w, b))


def special_values_input(shape, seed):
    """Random values with -0, zeros and a few inf/NaN where the test asks for them."""
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    values.flat[::7] = -0.0
    return values


def input_and_filter(x_shape, w_shape, special, seed):
    """NumPy input and filter, with an inf or NaN in the input or a -inf in the filter."""
    x = special_values_input(x_shape, seed)
    w = np.random.default_rng(seed + 1).standard_normal(w_shape).astype(np.float32) * 0.3
    if special == "inf":
        x[0, 2, 3, 0] = np.inf
    elif special == "nan":
        x[-1, 1, 1, -1] = np.nan
    elif special == "-inf filter":
        w[0, 0, 0, 1] = -np.inf
    return x, w


@pytest.mark.parametrize("path", ["direct, one input channel", "Winograd", "register tiles, 5x5"])
@pytest.mark.parametrize("special", ["inf", "nan", "-inf filter", "-0 bias"])
def test_special_values_keep_the_unfused_bits(path, special):
    """inf/NaN in the input: Winograd's fallback recomputes the output with the direct sums and the
    epilogue must run again there; a non-finite filter takes the row loops; zero inputs with a bias
    of -0 and -1 give sums of +0 and Relu's zeros."""
    x_shape, w_shape, stride, padding = CONV_PATHS[path]
    x, w = input_and_filter(x_shape, w_shape, special, 7)
    b = np.random.default_rng(9).standard_normal(w_shape[-1]).astype(np.float32)
    if special == "-0 bias":
        x[:] = 0.0
        b[:] = -0.0
        b[::2] = -1.0
    args = tf.constant(x), tf.constant(w), tf.constant(b)

    def f(x, w, b):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, stride, padding), b))

    fused, ops = traced(f, *args)
    assert "GraphfnFusedConv2D" in ops
    assert_bits_equal(fused, traced(f, *args, remapping=False)[0])
    assert_bits_equal(fused, f(*args))


def test_no_fusion_when_an_intermediate_is_used_elsewhere():
    x, w, b = rng_tensor(10, (2, 8, 8, 4)), rng_tensor(11, (3, 3, 4, 8)), rng_tensor(12, (8,))

    def conv_used_twice(x, w, b):
        y = tf.nn.conv2d(x, w, 1, "SAME")
        return tf.nn.relu(tf.nn.bias_add(y, b)), y

    def nchw_bias(x, w, b):  # BiasAdd over channels-first data is another sum: left alone
        y = tf.nn.conv2d(x, w, 1, "SAME")
        return tf.nn.relu(tf.nn.bias_add(y, tf.ones([8]), data_format="NCHW"))

    def wide_bias(x, w, b):  # a bias of another shape broadcasts to more than the convolution
        return tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + tf.ones([2, 1, 1, 8]))

    for f in (conv_used_twice, nchw_bias, wide_bias):
        results, ops = traced(f, x, w, b)
        assert "GraphfnFusedConv2D" not in ops and "Conv2D" in ops and "Relu" in ops, f.__name__
        for got, want in zip(tf.nest.flatten(results), tf.nest.flatten(f(x, w, b))):
            assert_bits_equal(got, want)


def test_bias_used_twice_fuses_the_bias_only():
    x, w, b = rng_tensor(10, (2, 8, 8, 4)), rng_tensor(11, (3, 3, 4, 8)), rng_tensor(12, (8,))

    def f(x, w, b):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)
        return tf.nn.relu(y), y

    results, ops = traced(f, x, w, b)
    assert "GraphfnFusedConv2D" in ops and "Relu" in ops and "Conv2D" not in ops and "BiasAdd" not in ops
    for got, want in zip(results, f(x, w, b)):
        assert_bits_equal(got, want)


def test_float64_is_not_fused():
    x = tf.cast(rng_tensor(13, (2, 6, 6, 3)), tf.float64)
    w = tf.cast(rng_tensor(14, (3, 3, 3, 4)), tf.float64)
    b = tf.cast(rng_tensor(15, (4,)), tf.float64)

    def f(x, w, b):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))

    result, ops = traced(f, x, w, b)
    assert "GraphfnFusedConv2D" not in ops and "Relu" in ops
    np.testing.assert_array_equal(result.numpy(), f(x, w, b).numpy())


def convnet_gradients(x, w, b):
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
        h = tf.nn.max_pool2d(h, 2, 2, "VALID")
        loss = tf.reduce_sum(h * h)
    return tape.gradient(loss, [w, b]) + [h]


@pytest.mark.parametrize("x_shape, w_shape", [((4, 16, 16, 1), (3, 3, 1, 32)), ((3, 14, 14, 16), (3, 3, 16, 8)),
                                              ((2, 9, 11, 8), (3, 3, 8, 5))])
def test_train_step_gradients_keep_the_unfused_bits(x_shape, w_shape):
    """Forward: the convolution, bias, Relu and pooling in one op that records the taps; backward:
    the MaxPoolGrad and ReluGrad from the taps (odd sizes leave pixels outside every pooling
    window, which get zero)."""
    x, w, b = rng_tensor(16, x_shape), rng_tensor(17, w_shape, 0.3), rng_tensor(18, w_shape[-1:])
    fused, ops = traced(convnet_gradients, x, w, b)
    unfused, unfused_ops = traced(convnet_gradients, x, w, b, remapping=False)
    assert sorted(set(ops) & {"GraphfnFusedConv2DMaxPool", "GraphfnMaxPoolGradFromTaps", "Relu", "ReluGrad",
                              "MaxPool", "MaxPoolGrad", "Conv2D"}) == ["GraphfnFusedConv2DMaxPool",
                                                                       "GraphfnMaxPoolGradFromTaps"]
    assert "ReluGrad" in unfused_ops
    for got, want, eager in zip(fused, unfused, convnet_gradients(x, w, b)):
        assert_bits_equal(got, want)
        assert_bits_equal(got, eager)


@pytest.mark.parametrize("channels", [8, 5])  # whole 8-float vectors, and the scalar path
@pytest.mark.parametrize("window", [2, 3])  # 4 taps (registers), 9 taps (the general loop)
def test_max_pool_grad_with_relu_grad_keeps_nan_and_negative_zero(channels, window):
    """The product of TF's ReluGrad: a NaN gradient where the pooled value is not positive stays
    NaN, a negative one gives -0; the fused MaxPoolGrad must do the same."""
    rng = np.random.default_rng(19)
    h = np.maximum(rng.standard_normal((2, 6, 6, channels)).astype(np.float32), 0)
    h[0, :window, :window, :] = 0.0  # a window of zeros: its gradient goes to a non-positive pixel
    g_shape = (2, 6 // window, 6 // window, channels)
    g = rng.standard_normal(g_shape).astype(np.float32)
    g[0, 0, 0, 0] = np.nan
    g[0, 0, 0, 1] = -3.0
    g[1, 0, 0, 2] = np.inf
    h_t, g_t = tf.constant(h), tf.constant(g)

    def f(h, g):
        pooled = tf.nn.max_pool2d(h, window, window, "VALID")
        dx = tf.raw_ops.MaxPoolGrad(orig_input=h, orig_output=pooled, grad=g, ksize=[1, window, window, 1],
                                    strides=[1, window, window, 1], padding="VALID")
        return tf.raw_ops.ReluGrad(gradients=dx, features=h)

    fused, ops = traced(f, h_t, g_t)
    assert "ReluGrad" not in ops
    assert_bits_equal(fused, traced(f, h_t, g_t, remapping=False)[0])
    assert_bits_equal(fused, f(h_t, g_t))
    got = fused.numpy()
    assert np.isnan(got[0, 0, 0, 0]) and np.signbit(got[0, 0, 0, 1]) and got[0, 0, 0, 1] == 0


# TF 2.21: tf.raw_ops.ReluGrad(gradients=[nan, 1, -2, inf], features=[-1, -1, -1, -1]) printed
# [nan 0. -0. nan], the same at 1200 elements (TF multiplies by 0 or 1).
@pytest.mark.parametrize("repeat", [1, 300])
@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_relu_grad_multiplies_as_tf(repeat, dtype):
    g = tf.constant([np.nan, 1.0, -2.0, np.inf] * repeat, dtype)
    got = tf.raw_ops.ReluGrad(gradients=g, features=tf.constant([-1.0] * 4 * repeat, dtype)).numpy()[:4]
    assert np.isnan(got[0]) and np.isnan(got[3])
    assert got[1] == 0 and not np.signbit(got[1])
    assert got[2] == 0 and np.signbit(got[2])
    positive = tf.raw_ops.ReluGrad(gradients=g, features=tf.constant([2.0] * 4 * repeat, dtype)).numpy()[:4]
    np.testing.assert_array_equal(positive, [np.nan, 1.0, -2.0, np.inf])


def test_remapping_option_is_reported_as_tf_reports_it():
    tf.config.optimizer.set_experimental_options({"remapping": False})
    assert tf.config.optimizer.get_experimental_options() == {"remapping": False, "disable_model_pruning": False,
                                                              "disable_meta_optimizer": False}


def test_fused_op_called_directly_checks_its_bias():
    x, w = rng_tensor(20, (1, 5, 5, 2)), rng_tensor(21, (3, 3, 2, 4))
    with pytest.raises(tf.errors.InvalidArgumentError, match="bias must hold the filter's 4 output channels"):
        tf.raw_ops.GraphfnFusedConv2D(input=x, filter=w, bias=tf.ones([3]), strides=[1, 1, 1, 1], padding="SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="unknown activation"):
        tf.raw_ops.GraphfnFusedConv2D(input=x, filter=w, bias=tf.ones([4]), strides=[1, 1, 1, 1], padding="SAME",
                                      activation="Tanh")
    fused = tf.raw_ops.GraphfnFusedConv2D(input=x, filter=w, bias=tf.ones([4]), strides=[1, 1, 1, 1],
                                          padding="SAME", activation="Relu")
    assert_bits_equal(fused, tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), tf.ones([4]))))


@pytest.mark.parametrize("path", ["direct, one input channel", "Winograd", "Winograd, odd sizes", "register tiles, 5x5",
                                  "pointwise 1x1"])
@pytest.mark.parametrize("special", ["none", "inf", "nan", "-inf filter"])
@pytest.mark.parametrize("window", [2, 3])
def test_conv_relu_pool_with_taps_keeps_the_unfused_bits(path, special, window):
    """GraphfnFusedConv2DMaxPool on every convolution path (the direct tiles band by band, Winograd's
    blocks pooled as written, the others through a temporary), with Winograd's inf/NaN fallback,
    and GraphfnMaxPoolGradFromTaps for the gradient (NaN windows route as TF's MaxPoolGrad)."""
    x_shape, w_shape, stride, padding = CONV_PATHS[path]
    x, w = input_and_filter(x_shape, w_shape, special, 22)
    x, w, b = tf.constant(x), tf.constant(w), rng_tensor(24, w_shape[-1:])

    def f(x, w, b):
        with tf.GradientTape() as tape:
            tape.watch([w, b])
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, stride, padding), b))
            pooled = tf.nn.max_pool2d(h, window, window, "VALID")
            weights = tf.reshape(tf.cast(tf.range(tf.size(pooled)) % 7, tf.float32), tf.shape(pooled))
            loss = tf.reduce_sum(pooled * weights)
        return pooled, tape.gradient(loss, [w, b])

    fused, ops = traced(f, x, w, b)
    assert "GraphfnFusedConv2DMaxPool" in ops and "GraphfnMaxPoolGradFromTaps" in ops and "MaxPool" not in ops
    assert len(tf.nest.flatten(fused)) == 3
    for got, want, eager in zip(tf.nest.flatten(fused), tf.nest.flatten(traced(f, x, w, b, remapping=False)[0]),
                                tf.nest.flatten(f(x, w, b))):
        assert_bits_equal(got, want)
        assert_bits_equal(got, eager)


def test_pool_fusion_needs_every_reader_absorbed():
    """The activation also returned, or pooled with another window: it must still be computed."""
    x, w, b = rng_tensor(25, (2, 8, 8, 3)), rng_tensor(26, (3, 3, 3, 8)), rng_tensor(27, (8,))

    def returned(x, w, b):
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
        return tf.nn.max_pool2d(h, 2, 2, "VALID"), h

    def same_padding(x, w, b):
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
        return tf.nn.max_pool2d(h, 2, 2, "SAME")

    def overlapping(x, w, b):
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
        return tf.nn.max_pool2d(h, 3, 2, "VALID")

    for f in (returned, same_padding, overlapping):
        results, ops = traced(f, x, w, b)
        assert "GraphfnFusedConv2DMaxPool" not in ops and "MaxPool" in ops, f.__name__
        for got, want in zip(tf.nest.flatten(results), tf.nest.flatten(f(x, w, b))):
            assert_bits_equal(got, want)


def test_pool_ops_called_directly_check_their_inputs():
    x, w, b = rng_tensor(28, (1, 6, 6, 2)), rng_tensor(29, (3, 3, 2, 4)), tf.ones([4])
    conv = dict(input=x, filter=w, bias=b, strides=[1, 1, 1, 1], padding="SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="pool_ksize must be"):
        tf.raw_ops.GraphfnFusedConv2DMaxPool(**conv, pool_ksize=[1, 2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="pool_ksize must be"):
        tf.raw_ops.GraphfnFusedConv2DMaxPool(**conv, pool_ksize=[1, 16, 16, 1])
    pooled, taps = tf.raw_ops.GraphfnFusedConv2DMaxPool(**conv, pool_ksize=[1, 2, 2, 1], activation="Relu")
    assert taps.dtype == tf.uint8 and taps.shape == pooled.shape == [1, 3, 3, 4]
    assert_bits_equal(pooled, tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME") + b), 2, 2, "VALID"))
    message = r"grad must have shape \[1,3,3,4\] \(\[\?,3,3,\?\] from the attrs\), got \[1,3,3,5\]"
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.GraphfnMaxPoolGradFromTaps(taps=taps, grad=tf.ones([1, 3, 3, 5]), input_rows=6, input_columns=6,
                                              pool_ksize=[1, 2, 2, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input_rows and input_columns must be >= 0"):
        tf.raw_ops.GraphfnMaxPoolGradFromTaps(taps=taps, grad=tf.ones([1, 3, 3, 4]), input_rows=-6, input_columns=6,
                                              pool_ksize=[1, 2, 2, 1])
    message = r"taps must have shape \[\?,4,3,\?\] \(\[\?,4,3,\?\] from the attrs\), got \[1,3,3,4\]"
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.raw_ops.GraphfnMaxPoolGradFromTaps(taps=taps, grad=tf.ones([1, 3, 3, 4]), input_rows=8, input_columns=6,
                                              pool_ksize=[1, 2, 2, 1])
    # Taps naming no pixel of the window (made up, not recorded) route nothing: zeros.
    junk = tf.constant(np.full([1, 3, 3, 4], 0x7f, np.uint8))
    dx = tf.raw_ops.GraphfnMaxPoolGradFromTaps(taps=junk, grad=tf.ones([1, 3, 3, 4]), input_rows=7, input_columns=6,
                                               pool_ksize=[1, 2, 2, 1])
    assert dx.shape == [1, 7, 6, 4] and not np.any(dx.numpy())


def test_pool_fusion_with_an_unknown_batch():
    """Keras traces its train step with the batch unknown: the fusion needs only the rows and columns."""
    x, w, b = rng_tensor(30, (5, 12, 12, 3)), rng_tensor(31, (3, 3, 3, 16)), rng_tensor(32, (16,))

    def f(x):
        with tf.GradientTape() as tape:
            tape.watch([w, b])
            h = tf.nn.relu(tf.nn.conv2d(x, w, 1, "VALID") + b)
            loss = tf.reduce_sum(tf.nn.max_pool2d(h, 2, 2, "VALID") ** 2)
        return tape.gradient(loss, [w, b])

    optimizer_options._options["remapping"] = True
    fn = tf.function(f, input_signature=[tf.TensorSpec([None, 12, 12, 3], tf.float32)])
    ops = fn.get_concrete_function()._plan.step_ops()
    assert "GraphfnFusedConv2DMaxPool" in ops and "GraphfnMaxPoolGradFromTaps" in ops
    for batch in (5, 2):
        for got, want in zip(fn(x[:batch]), f(x[:batch])):
            assert_bits_equal(got, want)


def test_small_tensors_give_the_same_bits_wherever_they_are_allocated():
    """Tensors of up to 64 bytes live inside their buffer object; their data must start at the
    same alignment as heap data, or Eigen's vector loops compute a varying head of elements with
    the scalar form (Rsqrt's scalar and vector forms differ in the last bit): batch normalization
    in notebooks/05 gave different gradients from call to call."""
    values = np.random.default_rng(33).random(16).astype(np.float32) + 0.01
    results, keep = [], []
    for i in range(40):
        keep.append(tf.zeros([i % 5 + 1]))  # shifts where the next small buffers land
        results.append(tf.math.rsqrt(tf.constant(values) + 0.0).numpy())
    assert all(np.array_equal(results[0], r) for r in results)
    exact = 1 / np.sqrt(values.astype(np.float64))
    np.testing.assert_allclose(results[0], exact, rtol=3e-7)
