"""tf.math.betainc (raw op Betainc): values, dtypes, TF's shape rule (non-scalar inputs share one
shape, scalars repeat), errors, the gradient with respect to x (a and b get none, as in TF) and
graph-mode shape inference. Expected values and messages were recorded from TensorFlow 2.21."""

import numpy as np
import pytest

import graphfn as tf
from tf_goldens import golden_tests

RESULTS = [
    ('tf.math.betainc(0.5, 2.0, [0.1, 0.5, 0.9])',
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.45853028, 0.88388336, 0.9961175 ], dtype=float32)>'),
    ('tf.math.betainc(tf.constant([1., 2.], tf.float64), 3., 0.5)',
     '<tf.Tensor: shape=(2,), dtype=float64, numpy=array([0.875 , 0.6875])>'),
    ('tf.math.betainc(tf.constant([0.5, 1e-3, 100., 1000.], tf.float64), tf.constant([0.5, 2., 50., 900.], tf.float64), tf.constant([0.2, 0.9, 0.7, 0.52], tf.float64))',
     '<tf.Tensor: shape=(4,), dtype=float64, numpy=array([0.29516724, 0.99999463, 0.80544817, 0.2905178 ])>'),
    ('tf.math.betainc(tf.constant([0.5, 1e-3, 100., 1000.]), tf.constant([0.5, 2., 50., 900.]), tf.constant([0.2, 0.9, 0.7, 0.52]))',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0.29516724, 0.99999464, 0.8054563 , 0.29036316], dtype=float32)>'),
    ('tf.math.betainc([-1., 0., 1., 2.], 2., 0.5)',
     '<tf.Tensor: shape=(4,), dtype=float32, numpy=array([ nan,  nan, 0.75, 0.5 ], dtype=float32)>'),
    ("tf.math.betainc(2., 2., [-0.1, 0., 1., 1.1, float('nan')])",
     '<tf.Tensor: shape=(5,), dtype=float32, numpy=array([nan,  0.,  1., nan, nan], dtype=float32)>'),
    ("tf.math.betainc(2., [0., -1., float('inf')], 0.5)",
     '<tf.Tensor: shape=(3,), dtype=float32, numpy=array([nan, nan, nan], dtype=float32)>'),
    ("tf.math.betainc(float('inf'), 2., 0.5)",
     '<tf.Tensor: shape=(), dtype=float32, numpy=nan>'),
    ('tf.math.betainc([[1., 2.], [3., 4.]], [[2., 2.], [1., 5.]], 0.25)',
     '<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[0.4375    , 0.15625001],\n       [0.015625  , 0.11381526]], dtype=float32)>'),
    ('tf.math.betainc(3., 4., [[0.1, 0.2], [0.3, 0.4]])',
     '<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[0.01584999, 0.09888   ],\n       [0.25568998, 0.45568022]], dtype=float32)>'),
    ('tf.math.betainc(3., 4., 0.3)',
     '<tf.Tensor: shape=(), dtype=float32, numpy=0.25568997859954834>'),
    ('tf.math.betainc(tf.zeros([0]), 1., 0.5)',
     '<tf.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>'),
    ('tf.raw_ops.Betainc(a=[1., 2.], b=3., x=[0.5, 0.6])',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.875     , 0.82079995], dtype=float32)>'),
    ('tf.raw_ops.Betainc(a=1., b=3., x=[0.5, 0.6])',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.875     , 0.93599993], dtype=float32)>'),
    ('tf.raw_ops.Betainc(a=[1., 2.], b=[3., 4.], x=0.5)',
     '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.875 , 0.8125], dtype=float32)>'),
]

ERRORS = [
    ('tf.math.betainc([[1., 2.]], [[3.], [4.]], 0.5)', tf.errors.InvalidArgumentError,
     'Shapes of a and b are inconsistent: [1,2] vs. [2,1]'),
    ('tf.math.betainc([1., 2.], [3., 4., 5.], 0.5)', tf.errors.InvalidArgumentError,
     'Shapes of a and b are inconsistent: [2] vs. [3]'),
    ('tf.math.betainc([[1., 2.]], [[3., 4.]], [0.5, 0.6])', tf.errors.InvalidArgumentError,
     'Shapes of a and x are inconsistent: [1,2] vs. [2]'),
    ('tf.math.betainc(1., [[3., 4.]], [0.5, 0.6])', tf.errors.InvalidArgumentError,
     'Shapes of b and x are inconsistent: [1,2] vs. [2]'),
    ('tf.math.betainc(tf.constant([1., 2.], tf.float16), tf.constant(3., tf.float16), tf.constant(.5, tf.float16))', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of half is not in the list of allowed values: float, double"),
    ('tf.math.betainc(1, 2, 3)', tf.errors.InvalidArgumentError,
     "Value for attr 'T' of int32 is not in the list of allowed values: float, double"),
    ('tf.math.betainc(tf.constant(1.), tf.constant(2., tf.float64), 0.5)', tf.errors.InvalidArgumentError,
     'cannot compute Betainc as input #1(zero-based) was expected to be a float tensor but is a double tensor'),
]

test_result_matches_tensorflow, test_error_matches_tensorflow = golden_tests(RESULTS, ERRORS)


def _betainc_gradients(a, b, x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b, x])
        y = tf.math.betainc(a, b, x)
    return tape.gradient(y, a), tape.gradient(y, b), tape.gradient(y, x)


def test_gradient_wrt_x_matches_tensorflow_and_a_b_get_none():
    da, db, dx = _betainc_gradients(tf.constant([1.5, 2.]), tf.constant([3., 4.]), tf.constant([0.3, 0.6]))
    assert da is None and db is None
    np.testing.assert_allclose(dx.numpy(), [1.7612706, 0.76799995], rtol=1e-6)
    assert dx.dtype == tf.float32


def test_gradient_sums_back_to_a_scalar_x():
    a = tf.constant([[3.], [4.]], tf.float64)
    _, _, dx = _betainc_gradients(a, a, tf.constant(0.3, tf.float64))
    assert dx.shape == ()
    np.testing.assert_allclose(dx.numpy(), 2.6195399999999966, rtol=1e-12)  # TF 2.21


def test_gradient_at_the_ends_of_the_interval():
    one = tf.constant(1., tf.float64)
    _, _, dx = _betainc_gradients(one, one, tf.constant([0.0, 1.0, 0.5], tf.float64))
    np.testing.assert_array_equal(dx.numpy(), [1., 1., 1.])  # TF 2.21: xlogy/xlog1py keep the ends finite


def test_gradient_matches_finite_differences():
    a, b = tf.constant([0.7, 2.5, 5.], tf.float64), tf.constant([1.5, 0.8, 3.], tf.float64)
    x = np.array([0.2, 0.45, 0.8])
    _, _, dx = _betainc_gradients(a, b, tf.constant(x))
    h = 1e-6
    numeric = (tf.math.betainc(a, b, x + h).numpy() - tf.math.betainc(a, b, x - h).numpy()) / (2 * h)
    np.testing.assert_allclose(dx.numpy(), numeric, rtol=1e-6)


def test_gradient_inside_function():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.betainc(tf.constant([1.5, 2.]), tf.constant([3., 4.]), x)
        return tape.gradient(y, x)

    np.testing.assert_allclose(grad(tf.constant([0.3, 0.6])).numpy(), [1.7612706, 0.76799995], rtol=1e-6)


SPEC = tf.TensorSpec


@pytest.mark.parametrize("shapes, expected", [
    (([], [], []), []),
    (([None], [None], []), [None]),
    (([2, None], [], [None, 3]), [2, 3]),
    ((None, [], []), None),
])
def test_graph_shapes(shapes, expected):
    f = tf.function(lambda a, b, x: tf.math.betainc(a, b, x))
    concrete = f.get_concrete_function(*[SPEC(s, tf.float32) for s in shapes])
    shape = concrete.outputs[0].shape
    assert (shape.rank is None and expected is None) or shape.as_list() == expected


@pytest.mark.parametrize("shapes, message", [
    (([None], [], [None, 1]), "Shapes must be equal rank, but are 1 and 2"),
    (([2], [3], [3]), "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]."),
    (([2], [], [3]), "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]."),
    (([2, 1], [], [None]), "Shapes must be equal rank, but are 2 and 1"),
])
def test_graph_shape_errors(shapes, message):
    f = tf.function(lambda a, b, x: tf.math.betainc(a, b, x))
    with pytest.raises(ValueError) as info:
        f.get_concrete_function(*[SPEC(s, tf.float32) for s in shapes])
    assert message in str(info.value)


def test_graph_values_match_eager():
    f = tf.function(lambda a, b, x: tf.math.betainc(a, b, x))
    got = f(tf.constant([0.5, 1e-3, 100., 1000.]), tf.constant([0.5, 2., 50., 900.]), tf.constant([0.2, 0.9, 0.7, 0.52]))
    np.testing.assert_array_equal(got.numpy(), np.array([0.29516724, 0.99999464, 0.8054563, 0.29036316], np.float32))
