"""graphfn.saved_model.save / load: the API as TF 2.21 shapes it (restored functions that
dispatch on their saved signatures, signatures returning dicts named output_0..., variables
with their values), checked on the seed functions. Expected values: NumPy arithmetic; API
shapes and messages: printed by TF 2.21."""

import inspect
import os

import numpy as np
import pytest

import graphfn as tf
from saved_cases import Scaler, halve_until_small, halve_until_small_np, make_module, simple_relu


@pytest.fixture
def loaded(tmp_path):
    tf.saved_model.save(make_module(), str(tmp_path))
    return tf.saved_model.load(str(tmp_path))


def test_simple_relu_with_cond_round_trips(loaded):
    assert loaded.relu(tf.constant(5)).numpy() == 5
    assert loaded.relu(tf.constant(-3)).numpy() == 0
    assert loaded.relu(7).numpy() == 7  # Python values convert to the saved TensorSpec, as in TF


def test_while_loop_round_trips(loaded):
    for x in ([3.0, 5.0], [0.25], [100.0, -20.0, 7.0]):
        np.testing.assert_array_equal(loaded.halve(tf.constant(x)).numpy(), halve_until_small_np(x))


def test_module_variables_and_method(loaded):
    x = np.array([[1.0, 1.0], [2.0, -1.0]], np.float32)
    np.testing.assert_array_equal(loaded(tf.constant(x)).numpy(), x * np.array([1.0, 2.0], np.float32) + 0.5)
    assert repr(loaded.v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    assert loaded.calls.numpy() == 1  # saving traced nothing that ran; this call ran once
    assert loaded.calls.trainable is False
    assert [v.name for v in loaded.trainable_variables] == ["b:0", "v:0"]  # graphfn: Module's walk (sorted)
    loaded.v.assign([10.0, 0.0])
    np.testing.assert_array_equal(loaded(tf.constant(x)).numpy(), x * np.array([10.0, 0.0], np.float32) + 0.5)


def test_saved_values_are_the_values_at_save_time(tmp_path):
    m = Scaler()
    m.v.assign([3.0, 4.0])
    tf.saved_model.save(m, str(tmp_path))
    m.v.assign([0.0, 0.0])
    np.testing.assert_array_equal(tf.saved_model.load(str(tmp_path)).v.numpy(), [3.0, 4.0])


def _missing_keyword_text(name):
    signature = inspect.Signature([inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY)])
    try:
        signature.bind()
    except TypeError as e:
        return str(e)


def test_default_signature_is_the_one_function_with_an_input_signature(tmp_path):
    # Scaler has one (__call__); TF 2.21 makes it "serving_default", named output_0.
    tf.saved_model.save(Scaler(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert list(loaded.signatures) == ["serving_default"]
    sig = loaded.signatures["serving_default"]
    assert repr(sig.structured_outputs) == \
        "{'output_0': TensorSpec(shape=(None, 2), dtype=tf.float32, name='output_0')}"
    assert repr(sig.structured_input_signature) == \
        "((), {'x': TensorSpec(shape=(None, 2), dtype=tf.float32, name='x')})"
    out = sig(x=tf.constant([[1.0, 3.0]]))
    assert list(out) == ["output_0"]
    np.testing.assert_array_equal(out["output_0"].numpy(), [[1.5, 6.5]])
    with pytest.raises(TypeError, match=r"(?s)Binding inputs to tf.function failed due to `too many positional "
                       r"arguments`.*Fallback to flat signature also failed due to: signature_wrapper\(x\) takes "
                       r"0 positional arguments, got 1."):
        sig(tf.constant([[1.0, 3.0]]))
    with pytest.raises(TypeError) as e:
        sig(y=tf.constant([[1.0, 3.0]]))
    # The reason in backquotes is Python's own inspect text (TF shows the same), which Python 3.12+
    # words as "missing a required keyword-only argument".
    assert str(e.value) == (
        "Binding inputs to tf.function failed due to `%s`. Received args: () and " % _missing_keyword_text("x") +
        "kwargs: {'y': <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 3.]], dtype=float32)>} for "
        "signature: (*, x: TensorSpec(shape=(None, 2), dtype=tf.float32, name='x')) -> Dict[['output_0', "
        "TensorSpec(shape=(None, 2), dtype=tf.float32, name='output_0')]].\nFallback to flat signature also failed "
        "due to: signature_wrapper(x) missing required arguments: x.")


def test_two_functions_with_input_signatures_make_no_default_signature(tmp_path):
    # As TF 2.21: signatures=None picks a default only when exactly one candidate exists.
    tf.saved_model.save(make_module(), str(tmp_path))  # __call__ and halve
    assert list(tf.saved_model.load(str(tmp_path)).signatures) == []


class TwoOutputs(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def named(self, x):
        return {"z": x, "y": x + 1}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([2], tf.int32, name="foo")])
    def pair(self, x, y):
        return x, y


def test_signature_outputs_and_inputs_are_named_as_tf_names_them(tmp_path):
    m = TwoOutputs()
    tf.saved_model.save(m, str(tmp_path), signatures={"sa": m.named, "sb": m.pair.get_concrete_function()})
    sigs = tf.saved_model.load(str(tmp_path)).signatures
    assert list(sigs) == ["sa", "sb"]
    assert repr(sigs["sa"].structured_outputs) == ("{'y': TensorSpec(shape=(), dtype=tf.float32, name='y'), "
                                                  "'z': TensorSpec(shape=(), dtype=tf.float32, name='z')}")
    assert repr(sigs["sb"].structured_input_signature) == (
        "((), {'foo': TensorSpec(shape=(2,), dtype=tf.int32, name='foo'), "
        "'x': TensorSpec(shape=(), dtype=tf.float32, name='x')})")
    out = sigs["sb"](x=tf.constant(1.0), foo=tf.constant([1, 2]))
    assert sorted(out) == ["output_0", "output_1"]
    assert out["output_0"].numpy() == 1.0 and out["output_1"].numpy().tolist() == [1, 2]
    out = sigs["sa"](x=tf.constant(2.0))
    assert (out["y"].numpy(), out["z"].numpy()) == (3.0, 2.0)


def test_single_function_as_signatures(tmp_path):
    m = TwoOutputs()
    tf.saved_model.save(m, str(tmp_path), signatures=m.pair)
    sigs = tf.saved_model.load(str(tmp_path)).signatures
    assert list(sigs) == ["serving_default"]
    assert sorted(sigs["serving_default"].structured_outputs) == ["output_0", "output_1"]


def test_restored_function_dispatches_on_python_arguments(tmp_path):
    class M(tf.Module):
        @tf.function
        def g(self, x, training=False, scale=2):
            return x * scale if training else x

    m = M()
    m.g(tf.constant(1.0))
    m.g(tf.constant(1.0), training=True)
    m.g(tf.constant([1.0, 2.0]), True, 3)
    tf.saved_model.save(m, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert r.g(tf.constant(5.0)).numpy() == 5.0
    assert r.g(tf.constant(5.0), training=True).numpy() == 10.0
    assert r.g(tf.constant([5.0, 1.0]), True, 3).numpy().tolist() == [15.0, 3.0]
    assert r.g(5.0).numpy() == 5.0
    # TF 2.21's text for a call that matches no saved trace.
    with pytest.raises(ValueError) as e:
        r.g(tf.constant([5.0, 1.0]), True, 4)
    assert str(e.value) == (
        "Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
        "  Positional arguments (3 total):\n    * <tf.Tensor 'x:0' shape=(2,) dtype=float32>\n    * True\n    * 4\n"
        "  Keyword arguments: {}\n\n Expected these arguments to match one of the following 3 option(s):\n\n"
        "Option 1:\n  Positional arguments (3 total):\n    * TensorSpec(shape=(), dtype=tf.float32, name='x')\n"
        "    * False\n    * 2\n  Keyword arguments: {}\n\n"
        "Option 2:\n  Positional arguments (3 total):\n    * TensorSpec(shape=(), dtype=tf.float32, name='x')\n"
        "    * True\n    * 2\n  Keyword arguments: {}\n\n"
        "Option 3:\n  Positional arguments (3 total):\n    * TensorSpec(shape=(2,), dtype=tf.float32, name='x')\n"
        "    * True\n    * 3\n  Keyword arguments: {}")


def test_restored_function_with_input_signature_casts_like_tf(loaded):
    np.testing.assert_array_equal(loaded([[1.0, 2.0]]).numpy(), [[1.5, 4.5]])
    with pytest.raises(TypeError, match=r"Binding inputs to tf.function failed due to `Can not cast "
                       r"TensorSpec\(shape=\(2, 2\), dtype=tf.int32, name=None\) to TensorSpec\(shape=\(None, 2\), "
                       r"dtype=tf.float32, name=None\)`"):
        loaded(tf.constant([[1, 2], [3, 4]]))


def test_untraced_function_is_saved_without_traces(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x: x + 1)
    tf.saved_model.save(m, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert list(r.signatures) == []
    with pytest.raises(ValueError, match=r"^Found zero restored functions for caller function.$"):
        r.f(tf.constant(1))


def test_root_function_and_concrete_function(tmp_path):
    # TF 2.21 fails to save a tf.function root (AttributeError inside TF); graphfn saves it, with
    # its input signature as the default signature.
    tf.saved_model.save(halve_until_small, str(tmp_path / "fn"))
    r = tf.saved_model.load(str(tmp_path / "fn"))
    np.testing.assert_array_equal(r(tf.constant([4.0])).numpy(), halve_until_small_np([4.0]))
    np.testing.assert_array_equal(r.signatures["serving_default"](x=tf.constant([4.0]))["output_0"].numpy(), [1.0])
    relu = tf.function(simple_relu)
    tf.saved_model.save(relu.get_concrete_function(tf.TensorSpec([], tf.int32)), str(tmp_path / "cf"))
    r = tf.saved_model.load(str(tmp_path / "cf"))
    assert list(r.signatures) == []  # as TF 2.21
    assert r(tf.constant(-4)).numpy() == 0


def test_shared_objects_stay_shared(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.alias = m.v
    m.items = [m.v, {"k": tf.Variable(2)}]
    m.sub = tf.Module()
    m.sub.parent = m
    tf.saved_model.save(m, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert r.alias is r.v and r.items[0] is r.v and r.sub.parent is r
    assert r.items[1]["k"].numpy() == 2


def test_paths_may_be_pathlike(tmp_path):
    tf.saved_model.save(Scaler(), tmp_path / "m")
    assert os.listdir(tmp_path / "m") == ["saved_graph.gfn"]
    assert tf.saved_model.load(tmp_path / "m").b.numpy() == 0.5


def test_loaded_functions_can_be_called_inside_a_tf_function(loaded, tmp_path):
    # TF calls them through a function-call op; graphfn copies their nodes into the traced graph.
    tf.saved_model.save(Scaler(), str(tmp_path / "scaler"))
    scaler = tf.saved_model.load(str(tmp_path / "scaler"))

    @tf.function
    def use(x, n):
        y = loaded.halve(x)
        return y * 2.0, loaded.relu(n), scaler.signatures["serving_default"](x=tf.reshape(x[:2], [1, 2]))["output_0"]

    x = np.array([3.0, 5.0], np.float32)
    y, r, s = use(tf.constant(x), tf.constant(-2))
    np.testing.assert_array_equal(y.numpy(), halve_until_small_np(x) * 2)
    assert r.numpy() == 0
    np.testing.assert_array_equal(s.numpy(), [[3.0 * 1.0 + 0.5, 5.0 * 2.0 + 0.5]])  # x * v + b

    @tf.function
    def twice(x):
        return loaded(x) + loaded(x)

    np.testing.assert_array_equal(twice(tf.constant([[1.0, 1.0]])).numpy(), [[3.0, 5.0]])  # 2 * ([1, 2] + 0.5)
    assert loaded.calls.numpy() == 2  # both inlined assign_adds ran, once each
