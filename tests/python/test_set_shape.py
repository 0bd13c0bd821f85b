"""Tensor.set_shape and the static shapes of full reductions of unknown-rank inputs. Expected
shapes and messages were printed by TensorFlow 2.21 for the same code."""

import pytest

import graphfn as tf


def _trace(fn, spec):
    tf.function(fn, input_signature=[spec], autograph=False).get_concrete_function()


def test_full_reductions_of_unknown_rank_are_scalars():
    seen = {}

    def f(x):
        seen["none"] = [tf.reduce_sum(x).shape, tf.reduce_max(x).shape, tf.reduce_mean(x).shape,
                        tf.reduce_all(x > 0).shape]
        seen["keep"] = tf.reduce_sum(x, keepdims=True).shape
        seen["axis"] = tf.reduce_sum(x, axis=0).shape
        seen["axis_keep"] = tf.reduce_sum(x, axis=0, keepdims=True).shape
        return tf.reduce_sum(x)

    _trace(f, tf.TensorSpec(None, tf.float32))
    assert seen["none"] == [tf.TensorShape([])] * 4
    assert repr(seen["keep"]) == "TensorShape(None)"
    assert repr(seen["axis"]) == "TensorShape(None)"
    assert repr(seen["axis_keep"]) == "TensorShape(None)"


def test_set_shape_refines_and_later_ops_use_it():
    seen = {}

    def f(x):
        y = tf.identity(x)
        y.set_shape([2, None])
        seen["first"] = (repr(y.shape), repr(y.get_shape()))
        y.set_shape([None, 3])
        seen["merged"] = (repr(y.shape), str(y))
        y.set_shape(None)
        seen["none"] = repr(y.shape)
        seen["add"] = repr((y + 1).shape)
        seen["reduce"] = repr(tf.reduce_sum(y, axis=1).shape)
        x.set_shape(tf.TensorShape([2, 3]))
        seen["matmul"] = repr(tf.matmul(x, tf.ones([3, 4])).shape)
        return y

    _trace(f, tf.TensorSpec(None, tf.float32))
    assert seen["first"] == ("TensorShape([2, None])", "TensorShape([2, None])")
    assert seen["merged"] == ("TensorShape([2, 3])", 'Tensor("Identity:0", shape=(2, 3), dtype=float32)')
    assert seen["none"] == "TensorShape([2, 3])"
    assert seen["add"] == "TensorShape([2, 3])"
    assert seen["reduce"] == "TensorShape([2])"
    assert seen["matmul"] == "TensorShape([2, 4])"


@pytest.mark.parametrize("shape, error, message", [
    ([3], ValueError, "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]."),
    ([2, 1], ValueError, "Shapes must be equal rank, but are 1 and 2"),
    ((None,), None, None),
    ([2.5], TypeError, "Dimension value must be integer or None or have an __index__ method, got value '2.5' "
                       "with type '<class 'float'>'"),
    ("a", TypeError, "Failed to convert ''a'' to a shape: ''a''could not be converted to a dimension. A shape "
                     "should either be single dimension (e.g. 10), or an iterable of dimensions (e.g. [1, 10, None])."),
])
def test_set_shape_errors_in_graphs(shape, error, message):
    def f(x):
        x.set_shape(shape)
        return x

    if error is None:
        _trace(f, tf.TensorSpec([2], tf.float32))
        return
    with pytest.raises(error) as info:
        _trace(f, tf.TensorSpec([2], tf.float32))
    assert str(info.value) == message


def test_set_shape_of_two_dims():
    def f(x):
        x.set_shape([3, 3])
        return x

    with pytest.raises(ValueError) as info:
        _trace(f, tf.TensorSpec([2, 3], tf.float32))
    assert str(info.value) == "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2,3] and [3,3]."


def test_set_shape_of_eager_tensors_checks_compatibility():
    t = tf.constant([1.0, 2.0])
    assert t.set_shape([2]) is None
    assert t.set_shape([None]) is None
    with pytest.raises(ValueError) as info:
        t.set_shape([3])
    assert str(info.value) == "Tensor's shape (2,) is not compatible with supplied shape (3,)."


def test_unknown_rank_function_runs():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        return tf.reduce_sum(x)

    assert f(tf.ones([2, 3])).numpy() == 6.0
    assert f(tf.ones([4])).numpy() == 4.0
    assert f.get_concrete_function().structured_outputs.shape == tf.TensorShape([])
