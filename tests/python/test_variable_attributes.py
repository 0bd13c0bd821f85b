"""tf.Variable's creation arguments it keeps (constraint, synchronization, aggregation) and its
smaller reading methods, as TF 2.21 gives them (recorded with TF 2.21 eagerly and in a
tf.function; Keras's optimizers read `variable.constraint` of every variable they update)."""

import numpy as np
import pytest

import graphfn as tf


def test_creation_arguments_are_kept():
    constraint = lambda x: x  # noqa: E731
    v = tf.Variable([[1.0, 2], [3, 4]], constraint=constraint, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)
    assert v.constraint is constraint
    assert v.synchronization == tf.VariableSynchronization.ON_READ
    assert v.aggregation == tf.VariableAggregation.SUM
    assert v.trainable is False  # TF: ON_READ variables are not trainable unless asked


def test_defaults():
    w = tf.Variable(1.0)
    assert w.constraint is None
    assert w.synchronization == tf.VariableSynchronization.AUTO
    assert w.aggregation.name == "NONE"
    assert tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ, trainable=True).trainable is True


@pytest.mark.parametrize("kwargs, text", [
    (dict(constraint=3), "Argument `constraint` must be None or a callable. a callable. Got a <class 'int'>:  3"),
    (dict(aggregation="x"), "Invalid variable aggregation mode: x for variable: None"),
    (dict(synchronization="x"), "Invalid variable synchronization mode: x for variable: None"),
])
def test_bad_creation_arguments(kwargs, text):
    with pytest.raises(ValueError) as info:
        tf.Variable(1.0, **kwargs)
    assert str(info.value) == text


def test_reading_methods():
    v = tf.Variable([[1.0, 2], [3, 4]])
    rows = v.sparse_read([1])
    assert rows.dtype == tf.float32 and rows.shape == (1, 2)
    np.testing.assert_array_equal(rows.numpy(), [[3.0, 4.0]])
    picked = v.gather_nd([[0, 1]])
    assert picked.shape == (1,)
    np.testing.assert_array_equal(picked.numpy(), [2.0])
    initialized = v.is_initialized()
    assert initialized.dtype == tf.bool and bool(initialized.numpy()) is True
    assert v.experimental_ref() == v.ref()
    assert v.initializer is None


@pytest.mark.parametrize("attribute, error, text", [
    ("initial_value", RuntimeError, "This property is not supported when eager execution is enabled."),
    ("op", AttributeError, "Tensor.op is undefined when eager execution is enabled."),
    ("graph", AttributeError, "Tensor.graph is undefined when eager execution is enabled."),
])
def test_eager_only_errors(attribute, error, text):
    v = tf.Variable(1.0)
    with pytest.raises(error) as info:
        getattr(v, attribute)
    assert str(info.value) == text


def test_arguments_of_a_function_keep_them():
    @tf.function
    def f(v):
        return tf.constant(v.constraint is None), v.synchronization == tf.VariableSynchronization.AUTO

    first, second = f(tf.Variable(1.0))  # TF returns both as bool tensors
    assert bool(first.numpy()) is True and second.dtype == tf.bool and bool(second.numpy()) is True
