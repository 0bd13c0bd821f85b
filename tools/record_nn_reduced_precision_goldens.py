"""Records tests/python/test_nn_reduced_precision.py from TensorFlow 2.21: the neural-network ops
on float16 and bfloat16 (convolutions, pooling, fused batch norm, the activations and their
gradient ops, softmax and the cross-entropies, LRN, L2Loss), eagerly, in tf.function and through
gradients, and the errors for the dtypes TF's CPU kernels refuse.

Two tables:
  - EXACT: each expression's repr (so every bit of the values, the dtype and the shape). Inputs
    are small dyadic numbers where TF accumulates in the reduced type, so that every partial sum
    is exact and TF's result is the exact value rounded once; the activations run on arbitrary
    values, as graphfn repeats TF's rounding step by step.
  - CLOSE: TF's values, dtype and shape for random inputs where TF accumulates in float16/
    bfloat16 (its sums round at every step, in an order of its own): graphfn's values, rounded
    once, must lie within 8 units of the type's epsilon times the largest |value|.

    ~/tf/bin/python tools/record_nn_reduced_precision_goldens.py tests/python/test_nn_reduced_precision.py
"""
import re
import sys

import ml_dtypes
import numpy as np
import tensorflow as tf

HELPERS = '''
def q(shape, seed, dtype, k=3, denom=4):
    """Small dyadic values k_i / denom, |k_i| <= k, as a tensor of dtype (deterministic)."""
    v = np.random.default_rng(seed).integers(-k, k + 1, size=shape) / denom
    return tf.constant(v.astype(np.float32), dtype)


def r(shape, seed, dtype=tf.float32, scale=1.0):
    """Standard normal values times scale as a tensor of dtype (deterministic)."""
    v = np.random.default_rng(seed).standard_normal(shape) * scale
    return tf.constant(v.astype(np.float32), dtype)


def grad(f, *xs):
    """The gradients of sum(f(*xs) * w) with respect to xs, w fixed small dyadic weights (so a
    gradient of dyadic inputs stays exact)."""
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
        n = int(np.prod(y.shape))
        w = tf.cast(tf.reshape(tf.constant(((np.arange(n) % 7 - 3) / 4).astype(np.float32)), y.shape), y.dtype)
        loss = tf.reduce_sum(y * w)
    return tape.gradient(loss, list(xs))


def in_function(f, *args):
    """f traced with tf.function (graph mode), called on args."""
    return tf.function(f)(*args)
'''

H = ["tf.float16", "tf.bfloat16"]
S4 = "[1, 1, 1, 1]"
GRID = ("[float('-inf'), -20.0, -7.5, -4.0, -2.5, -1.0, -0.3, -0.0, 0.0, 1e-3, 0.25, 1.0, 2.75, 3.5, 5.0, 6.0, 6.5, 11.0, "
        "70000.0, float('inf'), float('nan')]")


def exact():
    e = []
    for d in H:
        x, w, dy = "q([2, 5, 5, 3], 1, %s)" % d, "q([3, 3, 3, 2], 2, %s)" % d, "q([2, 5, 5, 2], 3, %s)" % d
        wide_x, wide_w = "q([1, 6, 6, 8], 4, %s, k=31, denom=16)" % d, "q([3, 3, 8, 4], 5, %s, k=31, denom=16)" % d
        e += ["tf.nn.conv2d(%s, %s, 1, 'SAME')" % (x, w),
              # products of 5-bit numbers summed exactly in float, rounded once to the type
              "tf.nn.conv2d(%s, %s, [1, 2, 2, 1], 'VALID')" % (wide_x, wide_w),
              "in_function(lambda x, w: tf.nn.conv2d(x, w, 2, 'SAME'), %s, %s)" % (wide_x, wide_w),
              "tf.raw_ops.Conv2DBackpropInput(input_sizes=[2, 5, 5, 3], filter=%s, out_backprop=%s, strides=%s, padding='SAME')" % (w, dy, S4),
              "tf.raw_ops.Conv2DBackpropFilter(input=%s, filter_sizes=[3, 3, 3, 2], out_backprop=%s, strides=%s, padding='SAME')" % (x, dy, S4),
              "grad(lambda x, w: tf.nn.conv2d(x, w, 1, 'VALID'), q([1, 4, 4, 2], 6, %s), q([2, 2, 2, 2], 7, %s))" % (d, d),
              "tf.nn.conv3d(q([1, 3, 4, 4, 2], 8, %s), q([2, 2, 2, 2, 2], 9, %s), [1, 1, 1, 1, 1], 'VALID')" % (d, d),
              "grad(lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], 'SAME'), q([1, 3, 3, 3, 2], 10, %s), q([2, 2, 2, 2, 1], 11, %s))" % (d, d),
              "tf.nn.depthwise_conv2d(%s, q([2, 2, 3, 2], 12, %s), [1, 1, 1, 1], 'SAME')" % (x, d),
              "grad(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'VALID'), q([1, 4, 4, 2], 13, %s), q([2, 2, 2, 2], 14, %s))" % (d, d),
              "tf.nn.max_pool2d(r([1, 4, 6, 2], 15, %s), 2, 2, 'VALID')" % d,
              "tf.nn.max_pool2d(r([1, 5, 5, 2], 16, %s), 3, 2, 'SAME')" % d,
              "grad(lambda x: tf.nn.max_pool2d(x, 2, 2, 'VALID'), r([1, 4, 4, 2], 17, %s))" % d,
              "tf.nn.avg_pool2d(q([1, 4, 6, 2], 18, %s), 2, 2, 'VALID')" % d,
              "grad(lambda x: tf.nn.avg_pool2d(x, 2, 2, 'VALID'), q([1, 4, 4, 2], 19, %s))" % d,
              "tf.raw_ops.MaxPoolGradGrad(orig_input=r([1, 4, 4, 1], 20, %s), orig_output=tf.nn.max_pool2d(r([1, 4, 4, 1], 20, %s), 2, 2, 'VALID'), "
              "grad=r([1, 4, 4, 1], 21, %s), ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='VALID')" % (d, d, d),
              # batch norm: TF computes float16/bfloat16 x in float and rounds once
              "tf.raw_ops.FusedBatchNormV3(x=q([2, 2, 2, 3], 26, %s), scale=[1.0, 2.0, 0.5], offset=[0.0, 1.0, -1.0], mean=[], variance=[], "
              "epsilon=0.0, is_training=True)[:3]" % d,
              "tf.raw_ops.FusedBatchNormV3(x=q([2, 2, 2, 3], 27, %s), scale=[1.0, 2.0, 0.5], offset=[0.0, 1.0, -1.0], mean=[0.5, 0.0, -1.0], "
              "variance=[4.0, 1.0, 0.25], epsilon=0.0, is_training=False)[:3]" % d,
              "tf.raw_ops.FusedBatchNormGradV3(y_backprop=q([2, 2, 2, 3], 28, %s), x=q([2, 2, 2, 3], 29, %s), scale=[1.0, 2.0, 0.5], "
              "reserve_space_1=[0.5, 0.0, -1.0], reserve_space_2=[4.0, 1.0, 0.25], reserve_space_3=[0.0], epsilon=0.0, is_training=False)[:3]" % (d, d),
              "in_function(lambda x: tf.raw_ops.FusedBatchNormV3(x=x, scale=[1.0, 2.0], offset=[0.5, 0.0], mean=[], variance=[], epsilon=0.0, "
              "is_training=True)[0], q([4, 1, 1, 2], 30, %s))" % d,
              "tf.nn.l2_loss(q([3, 4], 31, %s))" % d,
              "tf.nn.softmax(tf.constant([[0.0, 0.0], [1.0, 1.0], [-3.0, -3.0]], %s))" % d,
              "tf.nn.log_softmax(tf.constant([[0.0, 0.0, 0.0, 0.0], [-3.0, -3.0, -3.0, -3.0]], %s))" % d,
              "tf.nn.softmax(tf.fill([1, 1, 1, 1, 2, 1, 2], tf.constant(0.5, %s)))" % d,
              "tf.nn.softmax(tf.constant(3.0, %s))" % d,
              "tf.nn.log_softmax(tf.constant(3.0, %s))" % d,
              "tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=tf.constant([[0.0, 0.0], [5.0, 5.0]], %s))" % d,
              ]
        if d == "tf.bfloat16":  # TF's 3-D pooling kernels take bfloat16, not float16
            e += ["tf.nn.max_pool3d(r([1, 2, 4, 4, 1], 22, %s), 2, 2, 'VALID')" % d,
                  "grad(lambda x: tf.nn.max_pool3d(x, 2, 2, 'VALID'), r([1, 2, 4, 4, 1], 23, %s))" % d,
                  "tf.nn.avg_pool3d(q([1, 2, 4, 4, 1], 24, %s), 2, 2, 'VALID')" % d,
                  "grad(lambda x: tf.nn.avg_pool3d(x, 2, 2, 'VALID'), q([1, 2, 4, 4, 1], 25, %s))" % d]
        for op in ["relu6", "elu", "selu", "leaky_relu", "softplus", "softsign"]:
            e += ["tf.nn.%s(tf.constant(%s, %s))" % (op, GRID, d),
                  "tf.nn.%s(r([40], 40, %s, 4.0))" % (op, d),
                  "in_function(tf.nn.%s, r([6], 42, %s, 3.0))" % (op, d)]
            if op != "softplus":  # softplus's gradient is g * sigmoid(x): see close()
                e += ["grad(tf.nn.%s, r([12], 41, %s, 3.0))" % (op, d)]
        e += ["tf.nn.leaky_relu(r([8], 43, %s, 3.0), alpha=0.3)" % d,
              "tf.nn.leaky_relu(r([8], 43, %s, 3.0), alpha=1.7)" % d]
        g = "r([21], 44, %s, 2.0)" % d
        for op, arg in [("ReluGrad", "features"), ("Relu6Grad", "features"), ("EluGrad", "outputs"), ("SeluGrad", "outputs"),
                        ("LeakyReluGrad", "features"), ("SoftplusGrad", "features"), ("SoftsignGrad", "features")]:
            e += ["tf.raw_ops.%s(gradients=%s, %s=tf.constant(%s, %s))" % (op, g, arg, GRID, d),
                  "tf.raw_ops.%s(gradients=r([30], 45, %s, 2.0), %s=r([30], 46, %s, 4.0))" % (op, d, arg, d)]
    return e


def close():
    e = []
    for d in H:
        x, w, dy = "r([2, 7, 7, 5], 50, %s)" % d, "r([3, 3, 5, 4], 51, %s)" % d, "r([2, 7, 7, 4], 52, %s)" % d
        e += ["tf.raw_ops.Conv2DBackpropInput(input_sizes=[2, 7, 7, 5], filter=%s, out_backprop=%s, strides=%s, padding='SAME')" % (w, dy, S4),
              "tf.raw_ops.Conv2DBackpropFilter(input=%s, filter_sizes=[3, 3, 5, 4], out_backprop=%s, strides=%s, padding='SAME')" % (x, dy, S4),
              "tf.nn.conv3d(r([1, 5, 5, 5, 3], 53, %s), r([3, 3, 3, 3, 2], 54, %s), [1, 1, 1, 1, 1], 'SAME')" % (d, d),
              "grad(lambda x, w: tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], 'VALID'), r([1, 4, 4, 4, 2], 55, %s), r([2, 2, 2, 2, 3], 56, %s))" % (d, d),
              "tf.nn.depthwise_conv2d(%s, r([3, 3, 5, 2], 57, %s), [1, 1, 1, 1], 'SAME')" % (x, d),
              "grad(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], 'SAME'), %s, r([3, 3, 5, 2], 58, %s))" % (x, d),
              "grad(lambda x, w: tf.nn.conv2d(x, w, 1, 'SAME'), %s, %s)" % (x, w),
              "tf.nn.avg_pool2d(%s, 3, 1, 'SAME')" % x,
              "grad(lambda x: tf.nn.avg_pool2d(x, 3, 1, 'SAME'), %s)" % x,
              "grad(lambda x: tf.nn.max_pool2d(x, 3, 1, 'SAME'), %s)" % x,
              "tf.raw_ops.FusedBatchNormV3(x=%s, scale=[1.5, 0.5, 1.0, 2.0, 1.0], offset=[0.1, 0.0, -0.5, 1.0, 0.0], mean=[], variance=[], is_training=True)[:3]" % x,
              "grad(lambda x: tf.raw_ops.FusedBatchNormV3(x=x, scale=[1.5, 0.5, 1.0, 2.0, 1.0], offset=[0.1, 0.0, -0.5, 1.0, 0.0], mean=[], variance=[], "
              "is_training=True)[0], %s)" % x,
              "tf.nn.softmax(r([6, 33], 61, %s, 3.0))" % d,
              "tf.nn.log_softmax(r([6, 33], 62, %s, 3.0))" % d,
              "in_function(tf.nn.softmax, r([4, 9], 63, %s, 3.0))" % d,
              "grad(tf.nn.softmax, r([4, 9], 64, %s, 3.0))" % d,
              "grad(tf.nn.log_softmax, r([4, 9], 65, %s, 3.0))" % d,
              "tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(r([6, 10], 66, %s)), logits=r([6, 10], 67, %s, 3.0))" % (d, d),
              "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=r([6, 10], 68, %s, 3.0), labels=tf.nn.softmax(r([6, 10], 69, %s)))" % (d, d),
              "tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=r([6, 10], 70, %s, 3.0), labels=[0, 9, 3, 4, 4, 1])" % d,
              "grad(lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 9, 3, 4], logits=x), r([4, 10], 71, %s, 3.0))" % d,
              "grad(lambda x: tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(r([4, 10], 72, %s)), logits=x), r([4, 10], 73, %s, 3.0))" % (d, d),
              "in_function(lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 2], logits=x), r([2, 5], 74, %s, 3.0))" % d,
              "tf.nn.l2_loss(r([7, 9], 75, %s))" % d,
              # TF's float16/bfloat16 Sigmoid is not the exact value rounded once
              "grad(tf.nn.softplus, r([12], 41, %s, 3.0))" % d,
              "grad(tf.nn.l2_loss, r([7], 76, %s))" % d,
              ]
    e += ["tf.nn.avg_pool3d(r([1, 4, 4, 4, 2], 59, tf.bfloat16), 3, 1, 'SAME')",
          "grad(lambda x: tf.nn.avg_pool3d(x, 3, 1, 'SAME'), r([1, 4, 4, 4, 2], 59, tf.bfloat16))",
          "grad(lambda x: tf.nn.max_pool3d(x, 3, 1, 'SAME'), r([1, 4, 4, 4, 2], 60, tf.bfloat16))",
          "tf.nn.local_response_normalization(r([1, 3, 3, 7], 77, tf.float16))",
          "grad(lambda x: tf.nn.local_response_normalization(x, depth_radius=2), r([1, 2, 2, 6], 78, tf.float16))"]
    return e


def refused():
    return ["tf.nn.max_pool3d(r([1, 2, 2, 2, 1], 1, tf.float16), 2, 2, 'VALID')",
            "tf.nn.avg_pool3d(r([1, 2, 2, 2, 1], 1, tf.float16), 2, 2, 'VALID')",
            "tf.raw_ops.AvgPool3DGrad(orig_input_shape=[1, 2, 2, 2, 1], grad=r([1, 1, 1, 1, 1], 1, tf.float16), ksize=[1, 2, 2, 2, 1], "
            "strides=[1, 2, 2, 2, 1], padding='VALID')",
            "tf.raw_ops.MaxPool3DGrad(orig_input=r([1, 2, 2, 2, 1], 1, tf.float16), orig_output=r([1, 1, 1, 1, 1], 2, tf.float16), "
            "grad=r([1, 1, 1, 1, 1], 3, tf.float16), ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='VALID')",
            "tf.raw_ops.MaxPool3DGrad(orig_input=r([1, 2, 2, 2, 1], 1), orig_output=r([1, 1, 1, 1, 1], 2), "
            "grad=r([1, 1, 1, 1, 1], 3, tf.bfloat16), ksize=[1, 2, 2, 2, 1], strides=[1, 2, 2, 2, 1], padding='VALID')",
            "tf.nn.local_response_normalization(r([1, 1, 1, 3], 1, tf.bfloat16))",
            "tf.raw_ops.LRNGrad(input_grads=r([1, 1, 1, 3], 1, tf.bfloat16), input_image=r([1, 1, 1, 3], 2, tf.bfloat16), "
            "output_image=r([1, 1, 1, 3], 3, tf.bfloat16))",
            "tf.raw_ops.FusedBatchNormV3(x=r([1, 1, 1, 2], 1, tf.bfloat16), scale=r([2], 2, tf.bfloat16), offset=r([2], 3, tf.bfloat16), "
            "mean=r([2], 4, tf.bfloat16), variance=tf.ones([2], tf.bfloat16), is_training=False)",
            "tf.raw_ops.FusedBatchNormV3(x=r([1, 1, 1, 2], 1, tf.float16), scale=r([2], 2, tf.bfloat16), offset=r([2], 3, tf.bfloat16), "
            "mean=r([2], 4, tf.bfloat16), variance=tf.ones([2], tf.bfloat16), is_training=False)",
            "tf.raw_ops.FusedBatchNormGradV3(y_backprop=r([1, 1, 1, 2], 1, tf.float16), x=r([1, 1, 1, 2], 2, tf.float16), scale=[1.0, 1.0], "
            "reserve_space_1=[0.0, 0.0], reserve_space_2=[1.0, 1.0], reserve_space_3=r([2], 3, tf.bfloat16), is_training=False)",
            "tf.raw_ops.Conv2D(input=r([1, 2, 2, 1], 1, tf.float16), filter=r([1, 1, 1, 1], 2, tf.bfloat16), strides=[1, 1, 1, 1], "
            "padding='VALID')",
            ]


def error_row(e, ex):
    name = type(ex).__name__
    cls = ("tf.errors." + name if name.endswith("Error") and hasattr(tf.errors, name)
           and name not in ("TypeError", "ValueError") else name)
    msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(ex))
    msg = msg.split(" [Op:")[0].split("\n")[0]
    if msg.startswith("Could not find device for node"):  # the NodeDef's other attrs vary
        msg = msg.split(",")[0].rstrip("]")
    return (e, cls, msg)


def close_values(v):
    """(values as a flat float list, dtype name, shape) of a tensor or a list of them."""
    if isinstance(v, (list, tuple)):
        return [close_values(t) for t in v]
    return (np.asarray(v.numpy(), np.float64).ravel().tolist(), v.dtype.name, list(v.shape))


def record(out_path):
    ns = {"tf": tf, "np": np, "ml_dtypes": ml_dtypes}
    exec(HELPERS, ns)
    results, closes, errors = [], [], []
    for e in exact():
        try:
            results.append((e, repr(eval(e, ns))))
        except Exception as ex:
            errors.append(error_row(e, ex))
    for e in close():
        try:
            closes.append((e, close_values(eval(e, ns))))
        except Exception as ex:
            errors.append(error_row(e, ex))
    for e in refused():
        try:
            raise AssertionError("TF accepted %s: %r" % (e, eval(e, ns)))
        except AssertionError:
            raise
        except Exception as ex:
            errors.append(error_row(e, ex))
    with open(out_path, "w") as f:
        f.write('"""float16 and bfloat16 in the neural-network ops: convolutions, pooling, fused batch norm,\n'
                'the activations and their gradient ops, softmax and the cross-entropies, LRN and L2Loss, eagerly,\n'
                'in tf.function and through gradients; TF\'s errors for the dtypes its CPU kernels refuse.\n\n'
                'EXACT holds reprs (every bit); CLOSE holds TF\'s values where TF accumulates in the reduced type\n'
                '(graphfn rounds once): within 8 epsilons of the largest |value|.\n\n'
                'Expected values recorded from TensorFlow 2.21 (tools/record_nn_reduced_precision_goldens.py)."""\n\n')
        f.write("import ml_dtypes  # noqa: F401\nimport numpy as np\nimport pytest\n\nimport graphfn as tf\n"
                "from tf_goldens import golden_tests\n\n")
        f.write("NAMESPACE = {\"tf\": tf, \"np\": np, \"ml_dtypes\": ml_dtypes}\n")
        f.write("HELPERS = '''%s'''\nexec(HELPERS, NAMESPACE)\n\n" % HELPERS)
        f.write("EXACT = [\n")
        for e, r in results:
            f.write("    (%r,\n     %r),\n" % (e, r))
        f.write("]\n\nCLOSE = [\n")
        for e, v in closes:
            f.write("    (%r,\n     %r),\n" % (e, v))
        f.write("]\n\nERRORS = [\n")
        for e, c, m in errors:
            f.write("    (%r, %s,\n     %r),\n" % (e, c, m))
        f.write("]\n\ntest_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(EXACT, ERRORS, NAMESPACE)\n")
        f.write(CLOSE_TEST)
    print(len(results), "exact", len(closes), "close", len(errors), "errors ->", out_path)


CLOSE_TEST = '''

EPSILON = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23}


def assert_close(actual, expected):
    if isinstance(expected, list):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            assert_close(a, e)
        return
    values, dtype, shape = expected
    assert actual.dtype.name == dtype
    assert list(actual.shape) == shape
    got = np.asarray(actual.numpy(), np.float64).ravel()
    want = np.asarray(values)
    scale = np.max(np.abs(want)) if want.size else 0.0
    np.testing.assert_allclose(got, want, rtol=0, atol=8 * EPSILON[dtype] * scale)


@pytest.mark.parametrize("expr, expected", CLOSE)
def test_close_to_tensorflow(expr, expected):
    assert_close(eval(expr, NAMESPACE), expected)
'''

if __name__ == "__main__":
    record(sys.argv[1])
