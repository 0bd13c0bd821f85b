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
