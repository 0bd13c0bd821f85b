"""Gradients through float16, bfloat16 and complex computations, with TF's conjugate convention
(the gradient of a real loss with respect to z = x + iy is dL/dx + i dL/dy). Expected values
recorded from TensorFlow 2.21; reduced precision results are compared to the rounding of their
dtype (graphfn rounds after each op of a gradient, TF's fused gradient kernels once)."""

import numpy as np
import pytest

import graphfn as tf

TOLERANCE = {"complex64": 1e-5, "complex128": 1e-12, "float32": 1e-6, "float16": 1e-2, "bfloat16": 2e-2}

CASES = [
    ('mul_complex', 'lambda x, y: tf.abs(x * y)',
     ['tf.constant([1+2j, -0.5j], tf.complex64)', 'tf.constant([3-1j, 2+2j], tf.complex64)'],
     [('complex64', [(1.4142134189605713+2.8284270763397217j), -2.8284270763397217j]), ('complex64', [(2.1213202476501465-0.7071067690849304j), (0.3535533845424652+0.3535533845424652j)])]),
    ('exp_complex', 'lambda x: tf.math.real(tf.exp(x))',
     ['tf.constant([1+2j, -0.5j], tf.complex128)'],
     [('complex128', [(-1.1312043837568135-2.4717266720048188j), (0.8775825618903728+0.479425538604203j)])]),
    ('square_complex', 'lambda x: tf.math.imag(tf.square(x))',
     ['tf.constant([1+2j, -0.5j], tf.complex64)'],
     [('complex64', [(4+2j), (-1+0j)])]),
    ('div_complex', 'lambda x, y: tf.math.real(x / y)',
     ['tf.constant([1+2j, -0.5j], tf.complex64)', 'tf.constant([3-1j, 2+2j], tf.complex64)'],
     [('complex64', [(0.30000001192092896-0.10000000894069672j), (0.25+0.25j)]), ('complex64', [(0.04000000283122063+0.2200000137090683j), (0.0625+0j)])]),
    ('matmul_complex', 'lambda a, b: tf.reduce_sum(tf.abs(tf.matmul(a, b)))',
     ['tf.constant([[1+2j, 1], [0.5j, 2]], tf.complex64)', 'tf.constant([[3-1j, 1j], [2, 1+1j]], tf.complex64)'],
     [('complex64', [[(2.7543892860412598+3.0046615600585938j), (2.0746803283691406+2.504117250442505j)], [(3.329822301864624+1.2973666191101074j), (3.2973666191101074+0.8324555158615112j)]]), ('complex64', [[(2.1343235969543457-1.5205702781677246j), (1.7416408061981201+1.4888544082641602j)], [(2.7111001014709473+1.2136937379837036j), (0.7527864575386047+2.49442720413208j)]])]),
    ('complex_parts', 'lambda re, im: tf.abs(tf.complex(re, im)) + tf.math.angle(tf.complex(re, im))',
     ['tf.constant([3.0, -1.0])', 'tf.constant([4.0, 2.0])'],
     [('float32', [0.4400000274181366, -0.847213625907898]), ('float32', [0.9200000166893005, 0.6944271922111511])]),
    ('real_imag_conj', 'lambda z: tf.math.real(z) * 2 + tf.math.imag(tf.math.conj(z)) * 3',
     ['tf.constant([1+2j], tf.complex64)'],
     [('complex64', [(2-3j)])]),
    ('sqrt_log_complex', 'lambda z: tf.abs(tf.sqrt(z) + tf.math.log(z))',
     ['tf.constant([1+2j, -3+0.5j], tf.complex128)'],
     [('complex128', [(-0.02992696278511485+0.7518721338607128j), (-0.4057405343912707-0.20305848650321473j)])]),
    ('half_mul', 'lambda x, y: tf.reduce_sum(x * y + tf.tanh(x))',
     ['tf.constant([0.1, 1.5, -2.25], tf.float16)', 'tf.constant([0.3, -1.5, 2.0], tf.float16)'],
     [('float16', [1.2900390625, -1.3193359375, 2.04296875]), ('float16', [0.0999755859375, 1.5, -2.25])]),
    ('bf16_exp', 'lambda x: tf.reduce_sum(tf.exp(x) * x)',
     ['tf.constant([0.1, 1.5, -2.25], tf.bfloat16)'],
     [('bfloat16', [1.2109375, 11.125, -0.1318359375])]),
    ('half_matmul', 'lambda a, b: tf.reduce_sum(tf.matmul(a, b))',
     ['tf.constant([[0.1, 1.5], [-2.25, 3.0]], tf.float16)', 'tf.constant([[0.3, -1.5], [2.0, 0.7]], tf.float16)'],
     [('float16', [[-1.2001953125, 2.69921875], [-1.2001953125, 2.69921875]]), ('float16', [[-2.150390625, -2.150390625], [4.5, 4.5]])]),
    ('bf16_mean_sigmoid', 'lambda x: tf.reduce_mean(tf.sigmoid(x))',
     ['tf.constant([0.1, 1.5, -2.25], tf.bfloat16)'],
     [('bfloat16', [0.0830078125, 0.05029296875, 0.02880859375])]),
]


@pytest.mark.parametrize("name, fn, args, expected", CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_tensorflow(name, fn, args, expected):
    xs = [eval(a) for a in args]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = eval(fn)(*xs)
    grads = tape.gradient(y, xs)
    for got, (dtype, values) in zip(grads, expected):
        assert got.dtype.name == dtype
        np.testing.assert_allclose(np.asarray(got.numpy(), np.complex128), np.asarray(values, np.complex128),
                                   rtol=TOLERANCE[dtype], atol=TOLERANCE[dtype])


def test_complex_variables_are_trainable():
    v = tf.Variable([1 + 2j, 3 - 1j])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(v) ** 2)
    # d|z|^2 = 2z in TF's convention (recorded: [2+4j, 6-2j]).
    np.testing.assert_allclose(tape.gradient(loss, v).numpy(), [2 + 4j, 6 - 2j], rtol=1e-12)
