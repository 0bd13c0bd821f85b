"""tf.print: TF's exact text (checked against TensorFlow 2.21), on fd 2 by default, and on
every call of a traced function."""

import sys

import numpy as np
import pytest

import graphfn as tf


def printed(capfd, *args, **kwargs):
    tf.print(*args, **kwargs)
    return capfd.readouterr().err


@pytest.mark.parametrize("args, kwargs, expected", [
    ((np.arange(10, dtype=np.int32),), {}, "[0 1 2 ... 7 8 9]\n"),
    ((np.arange(10, dtype=np.int32),), {"summarize": 1}, "[0 ... 9]\n"),
    ((np.arange(10, dtype=np.int32),), {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]\n"),
    (([[1, 2], [3, 4]],), {}, "[[1 2]\n [3 4]]\n"),
    ((np.arange(100, dtype=np.int32).reshape(10, 10),), {},
     "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n [70 71 72 ... 77 78 79]\n"
     " [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]\n"),
    ((np.arange(24, dtype=np.int32).reshape(2, 3, 4),), {},
     "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]\n"),
    ((["a", "b"],), {}, '["a" "b"]\n'),
    (("scalar",), {}, "scalar\n"),
    (("a", "b", 3, 2.5), {}, "a b 3 2.5\n"),
    (([True, False],), {}, "[1 0]\n"),
    (([0.3, 43.5, 4.0, 0.520907283, 1e10, 1e-5],), {}, "[0.3 43.5 4 0.520907283 1e+10 1e-05]\n"),
    ((np.array([0.1, 1 / 3]),), {}, "[0.1 0.33333333333333331]\n"),
    (("Executing with num_steps = ", 10), {}, "Executing with num_steps =  10\n"),
    (([1.0, np.nan, np.inf, -np.inf],), {}, "[1 nan inf -inf]\n"),
    (("{}", 1), {}, "{} 1\n"),
    ((-0.0,), {}, "-0\n"),
    ((1234567.0,), {}, "1234567\n"),
    (("x", "y"), {"sep": ",", "end": "!\n"}, "x,y!\n"),
    ((), {}, "\n"),
    ((None,), {}, "None\n"),
])
def test_print_formats_like_tensorflow(capfd, args, kwargs, expected):
    args = tuple(tf.constant(a) if isinstance(a, (list, np.ndarray)) or isinstance(a, float) else a for a in args)
    assert printed(capfd, *args, **kwargs) == expected


def test_scalar_strings_are_raw_alone_and_quoted_among_others(capfd):
    assert printed(capfd, tf.constant("scalar")) == "scalar\n"
    assert printed(capfd, "a", tf.constant("b"), 3, 2.5) == 'a "b" 3 2.5\n'


def test_nested_structures_print_like_pprint_with_sorted_keys(capfd):
    out = printed(capfd, {"small": tf.constant([0.3, 12.4, -16.1]),
                          "Big": tf.constant(np.arange(0, 100, 10, dtype=np.int32))})
    assert out == "{'Big': [0 10 20 ... 70 80 90], 'small': [0.3 12.4 -16.1]}\n"
    assert printed(capfd, [1, tf.constant(2)], (3,)) == "[1, 2] (3,)\n"


def test_output_streams(capfd, tmp_path):
    tf.print(tf.constant([1.5]), output_stream=sys.stdout)
    assert capfd.readouterr().out == "[1.5]\n"
    target = tmp_path / "log.txt"
    tf.print("to file", output_stream="file://" + str(target))
    tf.print("again", output_stream="file://" + str(target))
    assert target.read_text() == "to file\nagain\n"
    with pytest.raises(ValueError, match="Unsupported output stream"):
        tf.print("x", output_stream=object())


def test_prints_keep_program_order_and_see_variable_updates(capfd):
    v = tf.Variable(1)

    @tf.function
    def f():
        tf.print("A", v)
        v.assign_add(1)
        tf.print("B", v)
        tf.print("C")
        return v.read_value()

    assert f().numpy() == 2
    assert capfd.readouterr().err == "A 1\nB 2\nC\n"


def test_print_of_a_variable(capfd):
    assert printed(capfd, tf.Variable([1, 2])) == "[1 2]\n"
