"""Converted code on Python-valued conditions runs as Python at trace time (loops unroll, only
the taken branch is traced); errors raised in converted code name the user's line. Expected
values and messages from TF 2.21."""

import dataclasses
import logging
import re

import pytest

import graphfn as tf


def if_creates_var(c):
    if c:
        i = 1
    return i


def test_c12_python_cond_only_taken_branch():
    assert tf.function(if_creates_var)(True).numpy() == 1
    with pytest.raises(UnboundLocalError) as e:
        tf.function(if_creates_var)(False)
    msg = str(e.value)
    assert msg.startswith("in user code:\n\n    File \"%s\", line " % __file__)
    assert ", in if_creates_var  *\n        return i\n\n    UnboundLocalError: 'i' is used before assignment\n" in msg


def test_c14_none_with_python_cond():
    def if_returns_none(c):
        i = 0
        j = 1
        if c:
            i = None
            j = 2
        return i, j

    i, j = tf.function(if_returns_none)(True)
    assert i is None and j.numpy() == 2


def test_c15_python_nested_return():
    def return_possibly_undefined(x):
        if x > 0:
            if x < 5:
                return x
        else:
            return x * x * x

    f = tf.function(return_possibly_undefined)
    assert f(3).numpy() == 3
    assert f(5) is None


def test_c17_python_while_creates_var():
    def while_creates_var(n):
        i = 0
        while i < n:
            i = n + 1
            j = i + 1
        return i, j

    with pytest.raises(UnboundLocalError, match="'j' is used before assignment"):
        tf.function(while_creates_var)(0)
    i, j = tf.function(while_creates_var)(1)
    assert (i.numpy(), j.numpy()) == (2, 3)


def test_c18_for_else_warns_and_runs_as_is(caplog, monkeypatch):
    def forelse(l):
        for c in l:
            pass
        else:
            s = 1
        return s

    monkeypatch.delenv("AUTOGRAPH_STRICT_CONVERSION", raising=False)
    with caplog.at_level(logging.WARNING, logger="graphfn.autograph"):
        assert tf.function(forelse)([1]).numpy() == 1
    assert "could not transform" in caplog.text and "Cause: for/else statement not yet supported" in caplog.text

    def whileelse(n):
        while n > 0:
            n -= 1
        else:
            n = 5
        return n

    monkeypatch.setenv("AUTOGRAPH_STRICT_CONVERSION", "1")
    with pytest.raises(NotImplementedError, match="while/else statement not yet supported"):
        tf.function(whileelse)(2)


def test_python_loops_unroll_with_break_continue_return():
    def f(l):
        s = 0
        for c in l:
            if c < 0:
                continue
            if c > 10:
                break
            s += c
        return s

    def g(n):
        i = 0
        while True:
            i += 1
            if i * i > n:
                return i

    assert tf.function(f)([1, -5, 2, 20, 3]).numpy() == 3
    assert tf.function(g)(10).numpy() == 4


def test_python_loop_over_list_of_tensors_unrolls():
    @tf.function
    def train(pairs):
        loss = tf.constant(0)
        for x, y in pairs:
            loss += tf.abs(y - x)
        return loss

    small = len(train.get_concrete_function([(1, 1)] * 3).graph.as_graph_def().node)
    large = len(train.get_concrete_function([(1, 1)] * 10).graph.as_graph_def().node)
    assert small < large


def test_logical_and_ternary_python_values():
    @tf.function
    def f(x):
        a = x > 0 and x < 10
        b = x or 7
        return (1 if a else -1), b, not a

    r = f(5)
    assert [t.numpy() for t in r] == [1, 5, False]
    assert tf.function(lambda x: 1 if x > 0 else -1)(3).numpy() == 1  # C26 with a Python x


def test_sign_strings_and_print_at_trace_time(capsys):
    @tf.function
    def sign(x):
        print("tracing", x)
        if x > 0:
            return "Positive"
        else:
            return "Negative"

    assert sign(1).numpy() == b"Positive"
    assert sign(-1).numpy() == b"Negative"
    assert capsys.readouterr().out == "tracing 1\ntracing -1\n"


def test_recursive_conversion_of_user_functions_only():
    def helper(x):
        if x > 0:
            return x
        return -x

    @tf.function
    def f(x):
        return helper(x) + tf.abs(-1) + len([1, 2]) + sum(range(3))

    assert f(-4).numpy() == 4 + 1 + 2 + 3
    from graphfn.autograph.impl import conversion
    assert helper.__code__ in conversion._cache  # converted on the call
    assert tf.abs.__code__ not in conversion._cache  # library code is called as-is


def test_methods_and_callable_objects():
    class Model:
        def __init__(self):
            self.scale = 3

        @tf.function
        def call(self, x, training):
            if training:
                return x * self.scale
            return x

    m = Model()
    assert m.call(tf.constant(2), True).numpy() == 6
    assert m.call(tf.constant(2), False).numpy() == 2

    @dataclasses.dataclass
    class Scale:  # eq=True makes instances unhashable: converted calls must not hash them
        factor: int

        def __call__(self, x):
            return x * self.factor

    scale = Scale(5)
    assert tf.function(lambda x: scale(x))(tf.constant(2)).numpy() == 10


def test_autograph_false_and_do_not_convert():
    from graphfn.framework.errors import OperatorNotAllowedInGraphError

    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(OperatorNotAllowedInGraphError, match="Using a symbolic `tf.Tensor` as a Python `bool`"):
        tf.function(f, autograph=False)(tf.constant(1))
    assert issubclass(OperatorNotAllowedInGraphError, TypeError)

    @tf.autograph.experimental.do_not_convert
    def g(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(OperatorNotAllowedInGraphError):
        tf.function(g)(tf.constant(1))

    def h(x):
        for v in x:
            pass
        return x

    with pytest.raises(OperatorNotAllowedInGraphError, match="Iterating over a symbolic `tf.Tensor`"):
        tf.function(h, autograph=False)(tf.constant([1]))


def test_c33_assert_not_converted():
    from graphfn.framework.errors import OperatorNotAllowedInGraphError

    def simple_assertion(x):
        assert x > 0
        return x

    f = tf.function(simple_assertion)
    assert f(1).numpy() == 1
    with pytest.raises(AssertionError):
        f(0)
    with pytest.raises(OperatorNotAllowedInGraphError):
        f(tf.constant(0))


def test_undefined_and_del():
    def f(x):
        y = x
        del y
        return y

    with pytest.raises(UnboundLocalError, match="'y' is used before assignment"):
        tf.autograph.to_graph(f)(1)


def test_error_rewriting_keeps_type_and_names_line():
    def bad(x):
        y = x + 1
        return tf.reshape(y, [5])

    # As TF: a shape error found while tracing is a ValueError.
    with pytest.raises(ValueError) as e:
        tf.function(bad)(tf.constant([1, 2]))
    msg = str(e.value)
    assert msg.startswith("in user code:\n\n")
    assert re.search(r'line \d+, in bad  \*\n        return tf.reshape\(y, \[5\]\)\n\n    ValueError: ', msg)


def test_conversion_is_cached_per_code_object():
    from graphfn.autograph.impl import conversion

    def make(k):
        def f(x):
            if x > k:
                return x
            return k
        return f

    a, b = make(1), make(2)
    assert tf.autograph.to_graph(a)(0) == 1 and tf.autograph.to_graph(b)(0) == 2
    assert conversion.convert(a) is conversion.convert(b)
