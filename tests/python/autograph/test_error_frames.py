"""Which frames TF's "in user code" message lists (checked against TF 2.21 with the same
functions): per conversion only its innermost frame, so a lambda or nested function replaces
the line that called it; a converted lambda shows as `None` with the lambda's own text."""

import re

import pytest

import graphfn as tf


def frames(error):
    """(function, source text) of each frame in the message."""
    return re.findall(r'    File "[^"]+", line \d+, in (\S+)  \*\n        (.*)\n', str(error))


def _reshape_to_seven(y):
    return tf.reshape(y, [7])


def test_lambda_called_in_function_replaces_the_call_line():
    @tf.function
    def f(x):
        g = lambda y: tf.reshape(y, [7])  # noqa: E731
        return g(x)

    with pytest.raises(Exception) as e:
        f(tf.constant([1, 2, 3]))
    assert frames(e.value) == [("f", "g = lambda y: tf.reshape(y, [7])  # noqa: E731")]


def test_converted_lambda_is_named_none_and_shows_the_lambda_text():
    f = tf.function(lambda x: tf.reshape(x, [7]) if x.shape[0] == 3 else x)
    with pytest.raises(Exception) as e:
        f(tf.constant([1, 2, 3]))
    assert frames(e.value) == [("None", "lambda x: tf.reshape(x, [7]) if x.shape[0] == 3 else x")]


def test_nested_function_then_other_conversion():
    @tf.function
    def g(x):
        def inner(z):
            return _reshape_to_seven(z)
        return inner(x)

    with pytest.raises(Exception) as e:
        g(tf.constant([1, 2, 3]))
    assert frames(e.value) == [("inner", "return _reshape_to_seven(z)"),
                               ("_reshape_to_seven", "return tf.reshape(y, [7])")]


def test_cond_branch_lambda_shows_once():
    @tf.function
    def k(x):
        return tf.cond(x > 0, lambda: _reshape_to_seven(x), lambda: x)

    with pytest.raises(Exception) as e:
        k(tf.constant(1))
    assert frames(e.value) == [("k", "return tf.cond(x > 0, lambda: _reshape_to_seven(x), lambda: x)"),
                               ("_reshape_to_seven", "return tf.reshape(y, [7])")]
