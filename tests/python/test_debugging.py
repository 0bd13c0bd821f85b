"""tf.debugging.check_numerics (op CheckNumerics) and tf.test.gpu_device_name, against what
TensorFlow 2.21 printed and raised for the same calls (recorded with ~/tf/bin/python)."""

import numpy as np
import pytest

import graphfn as tf

# (values, eager message, in-function message): TF 2.21's texts.
_FAILURES = [
    ([1.0, np.nan], "my msg : Tensor had NaN values [Op:CheckNumerics] name: ", "fmsg : Tensor had NaN values"),
    ([1.0, np.inf], "my msg : Tensor had Inf values [Op:CheckNumerics] name: ", "fmsg : Tensor had Inf values"),
    ([np.nan, np.inf], "my msg : Tensor had Inf and NaN values [Op:CheckNumerics] name: ",
     "fmsg : Tensor had Inf and NaN values"),
    ([1.0, -np.inf], "my msg : Tensor had Inf values [Op:CheckNumerics] name: ", "fmsg : Tensor had Inf values"),
]


@pytest.mark.parametrize("values, eager_message, graph_message", _FAILURES)
def test_bad_values_raise_tensorflow_error(values, eager_message, graph_message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.check_numerics(tf.constant(values), "my msg")
    assert str(info.value).endswith(eager_message)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(lambda x: tf.debugging.check_numerics(x, "fmsg"))(tf.constant(values))
    assert graph_message + "\n\t [[{{node CheckNumerics}}]]" in str(info.value)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_finite_values_pass_through(dtype):
    out = tf.debugging.check_numerics(tf.constant([1.0, 2.0], dtype), "ok")
    assert repr(out) == "<tf.Tensor: shape=(2,), dtype=%s, numpy=array([1., 2.]%s)>" % (
        dtype.name, ", dtype=float32" if dtype == tf.float32 else "")


def test_integer_input_is_refused_as_tensorflow_does():
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.debugging.check_numerics(tf.constant([1, 2]), "int")
    assert str(info.value) == (
        "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double\n\t; "
        "NodeDef: {{node CheckNumerics}}; Op<name=CheckNumerics; signature=tensor:T -> output:T; "
        "attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE]; attr=message:string; is_stateful=true> "
        "[Op:CheckNumerics] name: ")


def test_graph_keeps_the_check_and_its_output_shape():
    graph = tf.function(lambda x: tf.debugging.check_numerics(x, "fmsg")).get_concrete_function(
        tf.TensorSpec([None, 3])).graph
    check = [op for op in graph.get_operations() if op.type == "CheckNumerics"]
    assert len(check) == 1 and 's: "fmsg"' in check[0].node_def
    assert check[0].outputs[0].shape.as_list() == [None, 3]
    # Stateful: the function's control output waits for it, as in TF's graph.
    noop = [op for op in graph.get_operations() if op.type == "NoOp"][0]
    assert check[0] in noop.control_inputs


def test_gradient_passes_through():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.debugging.check_numerics(x * x, "m")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 4.0])
    x = tf.constant([0.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.debugging.check_numerics(tf.sqrt(x), "m")
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [np.inf, 0.35355338])  # checks dy, not sqrt's grad


def test_gradient_checks_the_incoming_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.debugging.check_numerics(x, "m")
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tape.gradient(y, x, output_gradients=tf.constant([np.nan, 1.0]))
    assert str(info.value).endswith("Not a number (NaN) or infinity (Inf) values detected in gradient. b'm' : "
                                    "Tensor had NaN values [Op:CheckNumerics] name: ")


def test_gradient_in_function():
    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.debugging.check_numerics(tf.square(x), "m")
        return tape.gradient(y, x)
    np.testing.assert_array_equal(grad(tf.constant([3.0])).numpy(), [6.0])


def test_vectorized_map_batches_it():
    out = tf.vectorized_map(lambda v: tf.debugging.check_numerics(v * 2.0, "v"), tf.constant([[1.0], [2.0]]))
    np.testing.assert_array_equal(out.numpy(), [[2.0], [4.0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="v : Tensor had NaN values"):
        tf.vectorized_map(lambda v: tf.debugging.check_numerics(v, "v"), tf.constant([[1.0], [np.nan]]))


def test_gpu_device_name_is_empty_on_cpu():
    assert tf.test.gpu_device_name() == ""
