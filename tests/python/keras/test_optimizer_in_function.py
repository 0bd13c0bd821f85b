"""A Keras optimizer used inside a function whose variable is passed as an argument: it is built
on first use, during the first trace (slot variables created there, as TF's variable-creation
rule allows), and the second trace and later calls update the same variable. Expected losses,
values, variable counts and trace counts were printed by TensorFlow 2.21 (Keras 3, tf.keras)."""

import numpy as np
import pytest

import graphfn as tf


def _train(optimizer, calls=3, pass_variable=True, two_variables=False):
    v = tf.Variable([1.0, -2.0])
    w = tf.Variable(0.5)

    def loss_and_update(v):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(v * v) + (w * w if two_variables else 0.0)
        variables = [v, w] if two_variables else [v]
        optimizer.apply_gradients(zip(t.gradient(loss, variables), variables))
        return loss

    if pass_variable:
        step = tf.function(loss_and_update)
        losses = [float(step(v)) for _ in range(calls)]
    else:
        step = tf.function(lambda: loss_and_update(v))
        losses = [float(step()) for _ in range(calls)]
    return dict(losses=losses, v=v.numpy().tolist(), w=float(w.numpy()), iterations=int(optimizer.iterations.numpy()),
                variables=len(optimizer.variables), traces=step.experimental_get_tracing_count())


# (optimizer, options, TF's losses, v, w, iterations, optimizer variables, traces)
CASES = [
    ("sgd", lambda: tf.keras.optimizers.SGD(0.1), {}, [5.0, 3.2, 2.048],
     [0.5119999647140503, -1.0239999294281006], 0.5, 3, 2, 1),
    ("sgd_once", lambda: tf.keras.optimizers.SGD(0.1), {"calls": 1}, [5.0],
     [0.800000011920929, -1.600000023841858], 0.5, 1, 2, 1),
    ("sgd_momentum", lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9), {}, [5.0, 3.2, 1.058],
     [0.062000006437301636, -0.12400001287460327], 0.5, 3, 3, 2),
    ("adam", lambda: tf.keras.optimizers.Adam(0.1), {}, [5.0, 4.420004, 3.881269],
     [0.7015886306762695, -1.7006256580352783], 0.5, 3, 4, 2),
    ("adam_two_variables", lambda: tf.keras.optimizers.Adam(0.1), {"two_variables": True}, [5.25, 4.580005, 3.971984],
     [0.7015886306762695, -1.7006256580352783], 0.2048739492893219, 3, 6, 2),
    ("adam_captured", lambda: tf.keras.optimizers.Adam(0.1), {"pass_variable": False}, [5.0, 4.420004, 3.881269],
     [0.7015886306762695, -1.7006256580352783], 0.5, 3, 4, 2),
    ("rmsprop", lambda: tf.keras.optimizers.RMSprop(0.1), {}, [5.0, 3.302633, 2.42118],
     [0.3691805601119995, -1.3087178468704224], 0.5, 3, 3, 2),
]


@pytest.mark.parametrize("make,options,losses,v,w,iterations,variables,traces",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_apply_gradients_on_a_variable_argument(make, options, losses, v, w, iterations, variables, traces):
    result = _train(make(), **options)
    np.testing.assert_allclose(result["losses"], losses, rtol=2e-6)
    np.testing.assert_allclose(result["v"], v, rtol=2e-6)
    np.testing.assert_allclose(result["w"], w, rtol=2e-6)
    assert (result["iterations"], result["variables"], result["traces"]) == (iterations, variables, traces)


def _adam_built_in_a_function():
    optimizer = tf.keras.optimizers.Adam(0.1)
    v = tf.Variable([1.0, -2.0])

    @tf.function
    def step(v):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(v * v)
        optimizer.apply_gradients(zip(t.gradient(loss, [v]), [v]))
        return loss

    assert float(step(v)) == 5.0
    return optimizer, v, step


def test_built_in_a_function_then_used_eagerly():
    optimizer, v, step = _adam_built_in_a_function()
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), v)])
    np.testing.assert_allclose(v.numpy(), [0.80678391456604, -1.8530545234680176], rtol=1e-6)
    iterations, learning_rate, momentum, velocity = [x.numpy() for x in optimizer.variables]
    assert iterations == 2 and learning_rate == np.float32(0.1)
    np.testing.assert_allclose(momentum, [0.2800000011920929, -0.25999999046325684], rtol=1e-6)
    np.testing.assert_allclose(velocity, [0.004996000323444605, 0.0169840008020401], rtol=1e-6)
    assert [x.name for x in optimizer.variables] == ["iteration", "learning_rate", "Variable_0_momentum",
                                                     "Variable_0_velocity"]
    assert step.experimental_get_tracing_count() == 2


@pytest.mark.xfail(strict=True, raises=TypeError, reason=(
    "docs/keras.md: inside a trace, a tf.Variable argument is a stand-in whose handle is the graph's "
    "placeholder (TF captures the variable itself); Keras keeps that stand-in as the variable the optimizer "
    "was built with, so apply(grads) without variables, eagerly afterwards, meets the out-of-scope placeholder"))
def test_apply_without_variables_after_building_in_a_function():
    optimizer, v, _ = _adam_built_in_a_function()
    optimizer.apply([tf.constant([1.0, 1.0])])  # TF 2.21: updates v, as apply_gradients does
    assert int(optimizer.iterations.numpy()) == 2


UNKNOWN = ("Unknown variable: <tf.Variable 'Variable:0' shape=%s dtype=float32>. This optimizer can only be called "
           "for the variables it was originally built with. When working with a new set of variables, you should "
           "recreate a new optimizer instance.")


def test_a_different_variable_in_a_later_trace_is_unknown():
    optimizer = tf.keras.optimizers.Adam(0.1)
    a, b = tf.Variable(1.0), tf.Variable([2.0, 3.0])

    @tf.function
    def step(v):
        optimizer.apply_gradients([(tf.ones_like(v), v)])

    step(a)
    with pytest.raises(ValueError) as e:
        step(b)
    assert (UNKNOWN % "(2,)") in str(e.value)
