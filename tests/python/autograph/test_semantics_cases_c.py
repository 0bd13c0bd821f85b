"""The AutoGraph conformance cases of tf_semantics.md §4 C (C1-C33), one test per case, named
after its id, on the real graph cond / while_loop / TensorArray ops.

Every expectation is what TensorFlow 2.21 printed: run this file against real TensorFlow with
    GRAPHFN_CASES_BACKEND=tensorflow python -m pytest tests/python/autograph/test_semantics_cases_c.py
(in an environment that has tensorflow) to re-check them. tf.print writes to file descriptor 2,
so its output is read with `capfd`.
"""

import importlib
import os

import numpy as np
import pytest

BACKEND = os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn")
tf = importlib.import_module(BACKEND)

from to_code_texts import SIMPLE_RELU, TANH_LOOP  # noqa: E402  (texts captured from TF 2.21)


def items(text):
    return text.split()


def check(value, expected, dtype):
    assert value.dtype == dtype
    np.testing.assert_array_equal(value.numpy(), expected)
    assert value.shape == np.shape(expected)


def raises(exc, fragment, fn, *args):
    with pytest.raises(exc) as e:
        fn(*args)
    assert fragment in str(e.value), str(e.value)
    return e.value


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def test_C1_tensor_if_else():
    f = tf.function(simple_relu)
    check(f(tf.constant(1)), 1, tf.int32)
    check(f(tf.constant(-1)), 0, tf.int32)


def test_C2_to_code_exact():
    assert tf.autograph.to_code(simple_relu) == SIMPLE_RELU


def test_C3_to_code_while_loop():
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x)
            x = tf.tanh(x)
        return x

    assert tf.autograph.to_code(f.python_function) == TANH_LOOP


def test_C4_straight_line_code():
    a, b = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    check(f(1.0, 2.0), 10.0, tf.float32)
    code = tf.autograph.to_code(f.python_function)
    # TF 2.21 prints the argument without parentheses (ast.unparse); older TF had them.
    assert "ag__.converted_call(ag__.ld(a).assign, (ag__.ld(y) * ag__.ld(b),), None, fscope)" in code


def test_C5_fizzbuzz_branches_traced_once(capfd):
    @tf.function
    def fizzbuzz(n):
        for i in tf.range(1, n + 1):
            print('Tracing for loop')
            if i % 15 == 0:
                print('Tracing fizzbuzz branch')
                tf.print('fizzbuzz')
            elif i % 3 == 0:
                print('Tracing fizz branch')
                tf.print('fizz')
            elif i % 5 == 0:
                print('Tracing buzz branch')
                tf.print('buzz')
            else:
                print('Tracing default branch')
                tf.print(i)

    fizzbuzz(tf.constant(5))
    fizzbuzz(tf.constant(20))
    out, err = capfd.readouterr()
    assert out.splitlines() == ["Tracing for loop", "Tracing fizzbuzz branch", "Tracing fizz branch",
                                "Tracing buzz branch", "Tracing default branch"]
    assert items(err) == items("1 2 fizz 4 buzz 1 2 fizz 4 buzz fizz 7 8 fizz buzz 11 fizz 13 14 fizzbuzz 16 17 "
                               "fizz 19 buzz")


def test_C6_docstring_if_else():
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2

    check(f(tf.constant(-2)), 1, tf.int32)


def test_C7_loop_assigns_variable():
    v = tf.Variable(1)

    @tf.function
    def f(x):
        for i in tf.range(x):
            v.assign_add(i)

    f(3)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=4>"


def test_C8_tensor_array_in_unrolled_loop():
    @tf.function
    def f(x):
        ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
        for i in range(len(x)):
            ta = ta.write(i, x[i] + 1)
        return ta.stack()

    check(f(tf.constant([1, 2, 3])), [2, 3, 4], tf.int32)


def test_C9_list_side_effect_body_traced_once():
    l = []

    @tf.function
    def f(x):
        for i in x:
            l.append(i + 1)

    f(tf.constant([1, 2, 3]))
    assert repr(l) == "[<tf.Tensor 'while/add:0' shape=() dtype=int32>]"


def test_C10_elementwise():
    @tf.function
    def f(x, y):
        return x ** 2 + y

    check(f(tf.constant([2, 3]), tf.constant([3, -2])), [7, 7], tf.int32)


def if_creates_var(c):
    if c:
        i = 1
    return i


def test_C11_var_only_in_if_branch_tensor_cond():
    for c in (True, False):
        e = raises(ValueError, "'i' must also be initialized in the else branch", tf.function(if_creates_var),
                   tf.constant(c))
        assert str(e).startswith("in user code:")


def test_C12_var_only_in_if_branch_python_cond():
    raises(UnboundLocalError, "'i' is used before assignment", tf.function(if_creates_var), False)
    check(tf.function(if_creates_var)(True), 1, tf.int32)


def test_C13_var_only_in_else_branch():
    def else_creates_var(c):
        if c:
            pass
        else:
            i = 2
        return i

    raises(ValueError, "'i' must also be initialized in the main branch", tf.function(else_creates_var),
           tf.constant(True))


def test_C14_none_in_tensor_branch():
    def if_returns_none(c):
        i = 0
        j = 1
        if c:
            i = None
            j = 2
        return i, j

    raises(ValueError, "'i' is None", tf.function(if_returns_none), tf.constant(True))
    i, j = tf.function(if_returns_none)(True)
    assert i is None
    check(j, 2, tf.int32)


def test_C15_return_in_one_nested_branch():
    def return_possibly_undefined(x):
        if x > 0:
            if x < 5:
                return x
        else:
            return x * x * x

    raises(ValueError, "else branch must also have a return", tf.function(return_possibly_undefined),
           tf.constant(3))
    check(tf.function(return_possibly_undefined)(3), 3, tf.int32)
    assert tf.function(return_possibly_undefined)(5) is None


def test_C16_early_return_with_default(capfd):
    def return_with_default(x):
        if x > 0:
            tf.print('x', x)
            return x
        return x * x

    f = tf.function(return_with_default)
    check(f(tf.constant(0)), 0, tf.int32)
    assert capfd.readouterr().err == ""
    check(f(tf.constant(1)), 1, tf.int32)
    assert capfd.readouterr().err == "x 1\n"


def while_creates_var(n):
    i = 0
    while i < n:
        i = n + 1
        j = i + 1
    return i, j


def test_C17_var_created_in_loop_that_may_not_run():
    raises(tf.errors.InvalidArgumentError, "loop must iterate at least once", tf.function(while_creates_var),
           tf.constant(0))
    raises(UnboundLocalError, "used before assignment", tf.function(while_creates_var), 0)
    i, j = tf.function(while_creates_var)(tf.constant(1))
    check(i, 2, tf.int32)
    check(j, 3, tf.int32)


def test_C18_for_else_and_while_else_run_unconverted():
    def for_else(l1):
        s = 0
        for c in l1:
            if c > 0:
                break
        else:
            s = -1000
        return s

    def while_else(x):
        while x > 0:
            x -= 1
        else:
            x = 5
        return x

    # Not convertible: TF warns and runs the function as it is (Python control flow).
    check(tf.function(for_else)([1, 2]), 0, tf.int32)
    raises(tf.errors.OperatorNotAllowedInGraphError, "Iterating over a symbolic `tf.Tensor` is not allowed",
           tf.function(for_else), tf.constant([1, 2]))
    raises(tf.errors.OperatorNotAllowedInGraphError, "Using a symbolic `tf.Tensor` as a Python `bool`",
           tf.function(while_else), tf.constant(3))
    # (The case's NotImplementedError is AutoGraph's strict mode; test_python_semantics.py checks it.)


def test_C19_tensor_break_in_python_for():
    def tf_break_in_py_for(l):
        s = 0
        for c in l:
            if tf.greater(c % 2, 0):
                break
            s += c
        return s

    raises(NotImplementedError, "not supported in Python for", tf.function(tf_break_in_py_for), [1, 2])


def test_C20_tensor_break_in_python_while():
    def tf_break_in_py_while(x):
        s = 0
        while x > 0:
            x -= 1
            if tf.greater(x % 2, 0):
                break
            s += x
        return s

    raises(NotImplementedError, "condition of while loop started as non-Tensor, then changed to Tensor",
           tf.function(tf_break_in_py_while), 3)


def test_C21_break_continue_in_tensor_loops():
    def continue_in_single_for(l):
        s = 0
        for c in l:
            if c % 2 > 0:
                continue
            s += c
        return s

    def break_in_single_for(l):
        s = 0
        for c in l:
            if c % 2 > 0:
                break
            s += c
        return s

    def break_in_single_while(x):
        s = 0
        while x > 0:
            x -= 1
            if x % 2 > 0:
                break
            s += x
        return s

    for fn, arg in ((continue_in_single_for, [1, 2, 3, 4]), (break_in_single_for, [2, 4, 5, 6]),
                    (break_in_single_while, 4)):
        check(tf.function(fn)(tf.constant(arg)), fn(arg), tf.int32)  # the Python result
    assert continue_in_single_for([1, 2, 3, 4]) == 6 and break_in_single_for([2, 4, 5, 6]) == 6
    assert break_in_single_while(4) == 0


def test_C22_empty_tf_range_leaves_iterate_defined():
    def for_defines_iterate(n, fn):
        s = 0
        for i in fn(n):
            s = s * 10 + i
        return i, s

    def for_reuses_iterate(n, fn):
        i = 7
        s = 0
        for i in fn(n):
            s = s * 10 + i
        return i, s

    for f, expected in ((for_defines_iterate, (0, 0)), (for_reuses_iterate, (7, 0))):
        i, s = tf.function(f)(0, tf.range)
        check(i, expected[0], tf.int32)
        check(s, expected[1], tf.int32)
    i, s = tf.function(for_defines_iterate)(3, tf.range)
    check(i, 2, tf.int32)
    check(s, 12, tf.int32)


def test_C23_loop_var_changes_dtype():
    @tf.function
    def f():
        x = tf.constant(0, dtype=tf.int32)
        while tf.random.uniform(()) > 0.5:
            x = tf.constant(0, dtype=tf.float32)
        return x

    raises(TypeError, "'x' has dtype int32 before the loop, but dtype float32 after one iteration", f)


def test_C24_loop_var_changes_shape_fixed_with_set_loop_options():
    @tf.function
    def grow(n):
        v = tf.constant([0])
        for i in tf.range(n):
            v = tf.concat([v, [i]], 0)
        return v

    raises(ValueError, "'v' has shape (1,) before the loop, but shape (2,) after one iteration. Use "
           "tf.autograph.experimental.set_loop_options to set shape invariants.", grow, tf.constant(3))

    @tf.function
    def grow_fixed(n):
        v = tf.constant([0])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat([v, [i]], 0)
        return v

    check(grow_fixed(tf.constant(3)), [0, 0, 1, 2], tf.int32)


def test_C25_branch_dtypes_differ_shapes_may():
    @tf.function
    def f(x):
        if x > 0:
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y

    raises(TypeError, "'y' has dtype int32 in the main branch, but dtype float32 in the else branch", f,
           tf.constant(1))
    shapes = []

    @tf.function
    def g(x):
        if x > 0:
            y = tf.zeros([2])
        else:
            y = tf.zeros([3])
        shapes.append(y.shape)
        return y

    check(g(tf.constant(1)), [0.0, 0.0], tf.float32)
    check(g(tf.constant(-1)), [0.0, 0.0, 0.0], tf.float32)
    assert shapes == [tf.TensorShape([None])]


def test_C26_conditional_expression():
    def f(x):
        return 1 if x > 0 else -1

    check(tf.function(f)(tf.constant(3)), 1, tf.int32)
    check(tf.function(f)(tf.constant(-3)), -1, tf.int32)
    check(tf.function(f)(3), 1, tf.int32)

    def g(x):
        return 1 if x > 0 else None

    # TF 2.21's wording (the case's "same nested structure" text is older).
    raises(ValueError, "'x > 0' is None at the end of the else branch.", tf.function(g), tf.constant(3))


def test_C27_logical_operators():
    def f(x):
        if x > 0 and x < 10:
            return 1
        return 0

    check(tf.function(f)(tf.constant(5)), 1, tf.int32)
    check(tf.function(f)(tf.constant(50)), 0, tf.int32)

    @tf.function
    def g(x):
        return not (x > 0)

    check(g(tf.constant(1)), False, tf.bool)
    check(g(tf.constant(-1)), True, tf.bool)
    raises(tf.errors.OperatorNotAllowedInGraphError, "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed",
           tf.function(f, autograph=False), tf.constant(5))


def test_C28_tensor_as_bool_without_autograph():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    e = raises(tf.errors.OperatorNotAllowedInGraphError,
               "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed", f, tf.constant(1))
    assert isinstance(e, TypeError)

    @tf.function(autograph=False)
    def g(x):
        s = 0
        for v in x:
            s += v
        return s

    raises(tf.errors.OperatorNotAllowedInGraphError, "Iterating over a symbolic `tf.Tensor` is not allowed", g,
           tf.constant([1, 2]))

    @tf.autograph.experimental.do_not_convert
    def h(x):
        if x > 0:
            return x
        return -x

    raises(tf.errors.OperatorNotAllowedInGraphError, "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed",
           tf.function(h), tf.constant(1))


def test_C29_print_at_trace_time_tf_print_per_iteration(capfd):
    @tf.function
    def f(n):
        for i in tf.range(n):
            print('body')
            tf.print(i)

    f(tf.constant(3))
    f(tf.constant(2))
    out, err = capfd.readouterr()
    assert out == "body\n"
    assert items(err) == ["0", "1", "2", "0", "1"]


def test_C30_python_loops_unroll_tensor_loops_do_not():
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for xy in dataset:
            loss += tf.abs(xy[1] - xy[0])
        return loss

    def count(arg):
        return len(train.get_concrete_function(arg).graph.as_graph_def().node)

    assert count([(1, 1)] * 3) < count([(1, 1)] * 10)  # TF 2.21: 11 < 32
    # A tensor is iterated by a graph loop (TF's Dataset case is the same): one body per length.
    assert count(tf.ones([3, 2], tf.int32)) == count(tf.ones([10, 2], tf.int32))
    check(train([(1, 3)] * 3), 6, tf.int32)
    check(train(tf.constant([[1, 3]] * 10)), 20, tf.int32)


def test_C31_lambda_closure_caveat(capfd):
    @tf.function
    def f():
        a = 0
        l = lambda: tf.print(a)  # noqa: E731
        for i in tf.range(3):
            a = i
        l()

    @tf.function
    def g():
        a = 0

        def p():
            tf.print(a)
        for i in tf.range(3):
            a = i
        p()

    f()
    g()
    assert items(capfd.readouterr().err) == ["0", "2"]


def test_C32_list_append_in_tensor_loop_is_out_of_scope():
    @tf.function
    def f():
        l = []
        for i in tf.range(3):
            l.append(i)
        return tf.stack(l)

    e = raises(ValueError, "is out of scope and cannot be used here", f)
    assert type(e).__name__ == "InaccessibleTensorError"
    assert str(e).startswith("in user code:")

    @tf.function
    def returned():
        l = []
        for i in tf.range(3):
            l.append(i)
        return l[0]

    e = raises(ValueError, "is out of scope and cannot be used here", returned)
    assert type(e).__name__ == "InaccessibleTensorError"

    @tf.function
    def with_tensor_array():
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(3):
            ta = ta.write(i, i)
        return ta.stack()

    check(with_tensor_array(), [0, 1, 2], tf.int32)


def simple_assertion(x):
    assert x > 0
    return x


def test_C33_assert_statements_default():
    # Without the optional feature (the default) `assert` stays Python.
    f = tf.function(simple_assertion)
    check(f(1), 1, tf.int32)
    raises(AssertionError, "", f, 0)
    for x in (1, 0):
        raises(tf.errors.OperatorNotAllowedInGraphError, "Using a symbolic `tf.Tensor` as a Python `bool`", f,
               tf.constant(x))


def test_C33_assert_statements_feature():
    # With the optional feature, an assert on a tensor becomes tf.debugging.Assert, checked at run time.
    g = tf.function(simple_assertion,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    check(g(1), 1, tf.int32)
    check(g(tf.constant(1)), 1, tf.int32)
    raises(AssertionError, "Assertion error", g, 0)
    raises(tf.errors.InvalidArgumentError, "assertion failed: [Assertion error]", g, tf.constant(0))
