"""graphfn.Variable eagerly and inside functions. Expected text printed by TensorFlow 2.21."""

import re

import pytest

import graphfn as tf


def test_variable_repr_and_properties():
    v = tf.Variable(4)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=4>"
    assert str(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=4>"
    assert repr(tf.Variable(1.5, name="w")) == "<tf.Variable 'w:0' shape=() dtype=float32, numpy=1.5>"
    assert repr(tf.Variable([1., 2.], trainable=False)) == (
        "<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>")
    assert (v.numpy(), v.dtype, v.shape, v.name, v.trainable) == (4, tf.int32, (), "Variable:0", True)


def test_assignments_return_the_variable_unread():
    v = tf.Variable(4)
    assert repr(v.assign(5)) == "<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=5>"
    assert repr(v.assign_add(1)) == "<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=6>"
    assert repr(v.assign_sub(2)) == "<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=4>"
    assert repr(v.read_value()) == "<tf.Tensor: shape=(), dtype=int32, numpy=4>"


def test_variables_work_as_tensors():
    v = tf.Variable(4)
    assert repr(v + 1) == "<tf.Tensor: shape=(), dtype=int32, numpy=5>"
    assert repr(v * v) == "<tf.Tensor: shape=(), dtype=int32, numpy=16>"
    assert repr(tf.add(v, 2)) == "<tf.Tensor: shape=(), dtype=int32, numpy=6>"
    assert (bool(tf.Variable(True)), int(tf.Variable(3)), float(tf.Variable(2.5))) == (True, 3, 2.5)
    assert repr(tf.Variable(3) == 3) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"


def test_assignment_errors():
    v = tf.Variable(4)
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        v.assign(1.5)
    with pytest.raises(ValueError, match=re.escape(
            "Cannot assign value to variable ' Variable:0': Shape mismatch.The variable shape (), and the "
            "assigned value shape (2,) are incompatible.")):
        v.assign([1, 2])


def test_reads_see_writes_made_outside_between_calls():
    v = tf.Variable(1)

    @tf.function
    def read():
        return v.read_value()

    assert read().numpy() == 1
    v.assign(7)
    assert read().numpy() == 7


def test_variables_print_without_values_while_tracing(capsys):
    a = tf.Variable(1.0)

    @tf.function
    def g():
        print(a, repr(a))
        return a.read_value()

    g()
    assert capsys.readouterr().out == (
        "<tf.Variable 'Variable:0' shape=() dtype=float32> <tf.Variable 'Variable:0' shape=() dtype=float32>\n")


def test_creating_a_variable_on_every_call_is_rejected():
    @tf.function
    def h(x):
        v = tf.Variable(1.0)
        return v + x

    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables created on the first "
                                         "call. Make sure the tf.Variable is only created once or created outside "
                                         "tf.function."):
        h(1.0)


def test_variable_arguments_share_a_trace_by_shape_and_dtype():
    @tf.function
    def k(v):
        return v.assign_add(1)

    assert str(k(tf.Variable(1))) == "tf.Tensor(2, shape=(), dtype=int32)"
    assert str(k(tf.Variable(2))) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert k.experimental_get_tracing_count() == 1
    assert k.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n"
        "  v (POSITIONAL_OR_KEYWORD): VariableSpec(shape=(), dtype=tf.int32, trainable=True, alias_id=0)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=tf.int32, name=None)\n"
        "Captures:\n"
        "  None")


def test_aliased_variable_arguments_are_a_different_trace():
    @tf.function
    def add_both(v, w):
        v.assign_add(1)
        w.assign_add(10)
        return v.read_value() + w.read_value()

    v1, v2 = tf.Variable(0), tf.Variable(0)
    assert add_both(v1, v2).numpy() == 11
    assert add_both(v1, v1).numpy() == 24  # v1: 1 + 1 + 10 = 12, read twice
    assert add_both.experimental_get_tracing_count() == 2


def test_captured_variables_are_listed_as_captures():
    a = tf.Variable(1.0)

    @tf.function
    def cap():
        return a + 1

    cap()
    text = cap.pretty_printed_concrete_signatures()
    assert re.fullmatch(r"Input Parameters:\nOutput Type:\n  TensorSpec\(shape=\(\), dtype=tf.float32, name=None\)\n"
                        r"Captures:\n  \d+: TensorSpec\(shape=\(\), dtype=tf.resource, name=None\)", text)
