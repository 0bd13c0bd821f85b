"""What errors look like, as TF 2.21 shows them (recorded with tensorflow-cpu 2.21 on the same
programs): tracebacks without the library's own frames, StagingError for runaway recursion while
tracing, the out-of-scope TypeError for a leaked graph tensor, and the variable class name."""

import os
import traceback

import pytest

import graphfn as tf

GRAPHFN_DIR = os.path.dirname(tf.__file__) + os.sep


def _frames(error):
    return [(f.filename, f.name) for f in traceback.extract_tb(error.__traceback__)]


def test_variable_class_is_named_as_tf_names_it():
    v = tf.Variable(1.0)
    assert type(v).__name__ == "ResourceVariable"  # TF 2.21
    assert isinstance(v, tf.Variable)


def test_traceback_of_an_error_in_a_function_keeps_only_the_users_frames():
    @tf.function
    def pyerr(x):
        return x + undefined_name  # noqa: F821

    with pytest.raises(NameError) as info:
        pyerr(tf.constant(1))
    frames = _frames(info.value)
    # TF: the caller, TF's one error-handler frame, then the user's function.
    assert [f for f, _ in frames].count(__file__) == 2
    assert sum(f.startswith(GRAPHFN_DIR) for f, _ in frames) == 1
    assert frames[0][0] == __file__ and frames[-1][0] == __file__
    assert str(info.value).startswith("in user code:")


def test_traceback_of_a_runtime_error_keeps_one_library_frame_below_the_handler():
    @tf.function
    def bad(x, i):
        return tf.gather(x, i)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        bad(tf.constant([1, 2]), tf.constant(5))
    frames = _frames(info.value)
    # TF: the caller, the error handler, and the innermost (library) frame where it was raised.
    assert len(frames) == 3
    assert frames[0][0] == __file__
    assert all(f.startswith(GRAPHFN_DIR) for f, _ in frames[1:])


def test_traceback_filtering_can_be_switched_off():
    @tf.function
    def pyerr(x):
        return x + undefined_name  # noqa: F821

    assert tf.debugging.is_traceback_filtering_enabled() is True
    tf.debugging.disable_traceback_filtering()
    try:
        assert tf.debugging.is_traceback_filtering_enabled() is False
        with pytest.raises(NameError) as info:
            pyerr(tf.constant(1))
        assert sum(f.startswith(GRAPHFN_DIR) for f, _ in _frames(info.value)) > 3
    finally:
        tf.debugging.enable_traceback_filtering()
    assert tf.debugging.is_traceback_filtering_enabled() is True


def test_unbounded_recursion_while_tracing_is_a_staging_error_listing_each_level():
    @tf.function
    def rec(x):
        return rec(x - 1)

    with pytest.raises(Exception) as info:
        rec(tf.constant(3))
    message = str(info.value)
    assert type(info.value).__name__ == "StagingError"
    assert message.startswith("in user code:\n\n")
    # TF 2.21 lists every level it reached (65 there; the depth per level differs here).
    assert message.count(", in rec  *\n        return rec(x - 1)\n") > 20
    assert "    RecursionError: maximum recursion depth exceeded" in message


def _leak():
    leaked = []

    @tf.function
    def leak(x):
        leaked.append(x * 2)
        return x

    leak(tf.constant(1.0))
    return leaked[0]


def _check_out_of_scope(message):
    tensor = "<tf.Tensor 'mul:0' shape=() dtype=float32>"
    assert message.startswith(
        tensor + " is out of scope and cannot be used here. Use return values, explicit Python locals or "
        "TensorFlow collections to access it.\nPlease see https://www.tensorflow.org/guide/function"
        "#all_outputs_of_a_tffunction_must_be_return_values for more information.\n\n" + tensor +
        " was defined here:\n")
    assert ", in leak\n" in message
    assert "\nThe tensor " + tensor + " cannot be accessed from here, because it was defined in FuncGraph(name=leak, id=" in message
    assert message.endswith("), which is out of scope.")


def test_a_leaked_tensor_used_eagerly_raises_tfs_out_of_scope_type_error():
    leaked = _leak()
    with pytest.raises(TypeError) as info:
        leaked + 1
    _check_out_of_scope(str(info.value))


def test_a_leaked_tensor_used_in_another_function_is_not_rewritten_by_autograph():
    leaked = _leak()

    @tf.function
    def use():
        return leaked + 1

    with pytest.raises(TypeError) as info:
        use()
    _check_out_of_scope(str(info.value))  # TF: no "in user code:" block around it
