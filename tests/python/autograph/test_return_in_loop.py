"""`return` inside loops staged as TensorFlow loops, with TF 2.21's outcomes (run with
GRAPHFN_CASES_BACKEND=tensorflow to re-check them against TensorFlow)."""

import importlib
import os

import pytest

tf = importlib.import_module(os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn"))

RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                  "statement depends on a static Python condition such as a hyperparameter")
PYTHON_FOR = ("break and return statements which depend on a TF condition are not supported in Python for "
              "loops. Did you intend to make it a TF loop?")


def conditional_return_in_for(xs):
    for x in xs:
        if x < 0:
            return x
    return tf.constant(0)


def conditional_return_in_while(n):
    i = tf.constant(0)
    while i < n:
        if i > 1:
            return i
        i += 1
    return i


def python_loop_in_tensor_loop(n):
    i = tf.constant(0)
    while i < n:
        for j in range(3):
            if j == 1:
                return i
        i += 1
    return i


def unconditional_return_in_while(n):
    i = tf.constant(0)
    while i < n:
        i += 1
        return i
    return i


def return_in_range_loop(n):
    for i in tf.range(n):
        return i
    return 0


def return_in_tensor_for(xs):
    for x in xs:
        return x * 2
    return tf.constant(7)


@pytest.mark.parametrize("python_function, argument, message", [
    (conditional_return_in_for, [3, 2, -4, -1], RETURN_IN_LOOP),
    (conditional_return_in_while, 3, RETURN_IN_LOOP),
    (python_loop_in_tensor_loop, 3, PYTHON_FOR),
])
def test_unsupported_return_raises_not_implemented(python_function, argument, message):
    with pytest.raises(NotImplementedError) as info:
        tf.function(python_function)(tf.constant(argument))
    text = str(info.value)
    assert text.startswith("in user code:\n\n")
    assert text.rstrip().splitlines()[-1 if message is RETURN_IN_LOOP else -2].strip() == \
        "NotImplementedError: " + message


@pytest.mark.parametrize("python_function, argument, expected", [
    (unconditional_return_in_while, 3, 1),
    (return_in_range_loop, 3, 0),
    (return_in_tensor_for, [4, 5], 8),
])
def test_return_on_first_iteration(python_function, argument, expected):
    assert int(tf.function(python_function)(tf.constant(argument))) == expected


@pytest.mark.parametrize("python_function", [unconditional_return_in_while, return_in_range_loop])
def test_zero_iterations_leave_the_return_value_undefined(python_function):
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize the function return value"):
        tf.function(python_function)(tf.constant(0))
