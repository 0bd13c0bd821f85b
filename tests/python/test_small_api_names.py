"""Small TF names: tf.type_spec_from_value, tf.version, tf.saved_model constants and
SaveOptions. Expected values recorded from TF 2.21."""

import numpy as np
import pytest

import graphfn as tf


@pytest.mark.parametrize("value, expected", [
    (lambda: tf.constant([1, 2]), "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"),
    (lambda: tf.Variable(1.0), "VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=None)"),
    (lambda: np.array([1.0, 2.0]), "TensorSpec(shape=(2,), dtype=tf.float64, name=None)"),
    (lambda: [1, 2], "TensorSpec(shape=(2,), dtype=tf.int32, name=None)"),
    (lambda: 3, "TensorSpec(shape=(), dtype=tf.int32, name=None)"),
    (lambda: "x", "TensorSpec(shape=(), dtype=tf.string, name=None)"),
    (lambda: tf.constant([[1.0]]), "TensorSpec(shape=(1, 1), dtype=tf.float32, name=None)"),
])
def test_type_spec_from_value(value, expected):
    assert repr(tf.type_spec_from_value(value())) == expected


def test_type_spec_from_value_errors():
    with pytest.raises(TypeError) as info:
        tf.type_spec_from_value([[1], [2, 3]])
    assert str(info.value) == "Could not build a TypeSpec for [[1], [2, 3]] of unsupported type <class 'list'>."


def test_version_and_saved_model_names():
    assert tf.version.VERSION == tf.__version__
    assert tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    options = tf.saved_model.SaveOptions(function_aliases={"f": None})
    assert options.function_aliases == {"f": None} and options.save_debug_info is False
    assert tf.saved_model.SaveOptions().function_aliases == {}


def test_save_takes_save_options(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return x + 1

    tf.saved_model.save(M(), str(tmp_path), options=tf.saved_model.SaveOptions(save_debug_info=True))
    assert tf.saved_model.load(str(tmp_path)).f(tf.constant(1.0)).numpy() == 2.0


def test_variable_creator_scope_runs_creators_innermost_first():
    seen = []

    def not_trainable(next_creator, **kwargs):
        seen.append(sorted(kwargs))
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    with tf.variable_creator_scope(not_trainable):
        v = tf.Variable(1.0, name="a")
    # As TF 2.21: every argument, by keyword, plus experimental_enable_variable_lifting.
    assert seen == [["aggregation", "caching_device", "constraint", "dtype", "experimental_enable_variable_lifting",
                     "import_scope", "initial_value", "name", "shape", "synchronization", "trainable",
                     "validate_shape", "variable_def"]]
    assert (v.trainable, v.name) == (False, "a:0")
    order = []

    def outer(next_creator, **kwargs):
        order.append("outer")
        return next_creator(**kwargs)

    def inner(next_creator, **kwargs):
        order.append("inner")
        return next_creator(**kwargs)

    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            tf.Variable(2.0)
    assert order == ["inner", "outer"]
    with tf.variable_creator_scope(lambda next_creator, **kwargs: next_creator(initial_value=5.0)):
        assert tf.Variable(1.0).numpy() == 5.0
    with tf.variable_creator_scope(lambda next_creator, **kwargs: "x"):
        assert tf.Variable(1.0) == "x"
    assert tf.Variable(1.0).trainable  # the scope is closed
    with pytest.raises(TypeError, match="'int' object is not callable"):
        with tf.variable_creator_scope(5):
            tf.Variable(1.0)


def test_initializers():
    # Values and messages as TF 2.21 gives them.
    assert tf.random_normal_initializer(mean=1.0, stddev=2.0, seed=3).get_config() == \
        {"mean": 1.0, "stddev": 2.0, "seed": 3}
    assert repr(tf.zeros_initializer()([2], tf.int32)) == \
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 0], dtype=int32)>"
    assert repr(tf.ones_initializer()([2])) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>"
    assert tf.constant_initializer([1, 2])([2]).numpy().tolist() == [1, 2]
    with pytest.raises(ValueError) as info:
        tf.random_normal_initializer()([2], tf.int32)
    assert str(info.value) == "Argument `dtype` is expected to be floating point. Received: <dtype: 'int32'>."
    assert tf.random_uniform_initializer(0, 5)([3], tf.int32).dtype == tf.int32
    # A seed gives the same values on every call; the distribution is the one asked for.
    first = tf.random_normal_initializer(seed=1)([2]).numpy().tolist()
    assert tf.random_normal_initializer(seed=1)([2]).numpy().tolist() == first
    draws = tf.random_normal_initializer(mean=1.0, stddev=2.0, seed=5)([20000]).numpy()
    assert abs(draws.mean() - 1.0) < 0.1 and abs(draws.std() - 2.0) < 0.1
    uniform = tf.random_uniform_initializer(-1.0, 3.0, seed=7)([20000]).numpy()
    assert uniform.min() >= -1.0 and uniform.max() < 3.0 and abs(uniform.mean() - 1.0) < 0.1


def test_dtypes_cast():
    assert repr(tf.dtypes.cast([1, 2], tf.float32)) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>"
