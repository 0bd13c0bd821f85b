"""Graph-tensor conditions: staged graph cond / while_loop with AutoGraph's checks and messages
(TF 2.21 texts)."""

import pytest

import graphfn as tf

def _raises(exc, fragment, fn, *args):
    with pytest.raises(exc) as e:
        fn(*args)
    assert fragment in str(e.value), str(e.value)
    assert str(e.value).startswith("in user code:\n\n")
    return str(e.value)


def if_creates_var(c):
    if c:
        i = 1
    return i


def test_c1_c6_values():
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    f = tf.function(simple_relu)
    assert f(tf.constant(1)).numpy() == 1 and f(tf.constant(-1)).numpy() == 0

    @tf.function
    def g(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2

    assert g(tf.constant(-2)).numpy() == 1


def test_c11_c13_defined_in_one_branch():
    msg = _raises(ValueError, "'i' must also be initialized in the else branch", tf.function(if_creates_var),
                  tf.constant(True))
    assert ", in if_creates_var  *\n        if c:\n" in msg
    _raises(ValueError, "'i' must also be initialized in the else branch", tf.function(if_creates_var),
            tf.constant(False))

    def else_creates_var(c):
        if c:
            pass
        else:
            i = 2
        return i

    _raises(ValueError, "'i' must also be initialized in the main branch", tf.function(else_creates_var),
            tf.constant(True))


def test_c14_none_in_branch():
    def if_returns_none(c):
        i = 0
        j = 1
        if c:
            i = None
            j = 2
        return i, j

    _raises(ValueError, "'i' is None at the end of the main branch.", tf.function(if_returns_none),
            tf.constant(True))


def test_c15_return_in_one_nested_branch():
    def return_possibly_undefined(x):
        if x > 0:
            if x < 5:
                return x
        else:
            return x * x * x

    _raises(ValueError, "the else branch must also have a return statement.",
            tf.function(return_possibly_undefined), tf.constant(3))


def test_c25_branch_dtypes_and_structures():
    def dt(x):
        if x > 0:
            y = tf.constant(1)
        else:
            y = tf.constant(1.0)
        return y

    _raises(TypeError, "'y' has dtype int32 in the main branch, but dtype float32 in the else branch",
            tf.function(dt), tf.constant(1))

    def pyf(x):
        if x > 0:
            y = x
        else:
            y = 0
        return y

    _raises(TypeError, "'y' has dtype float32 in the main branch, but dtype int32 in the else branch",
            tf.function(pyf), tf.constant(1.5))

    def st(x):
        if x > 0:
            y = (1, 2)
        else:
            y = 1
        return y

    msg = _raises(TypeError, "'y' must have the same nested structure in the main and else branches:\n    \n"
                  "    The two structures don't have the same nested structure.\n    \n"
                  "    First structure: type=tuple str=(1, 2)\n    \n    Second structure: type=int str=1\n    \n"
                  "    More specifically: Substructure \"type=tuple str=(1, 2)\" is a sequence, while substructure "
                  "\"type=int str=1\" is not\n    Entire first structure:\n    (., .)\n    Entire second "
                  "structure:\n    .\n", tf.function(st), tf.constant(1))
    assert msg


def test_condition_must_be_bool_scalar():
    def notbool(x):
        if x:
            return 1
        return 0

    _raises(ValueError, "condition of if statement expected to be `tf.bool` scalar, got Tensor(\"x:0\", shape=(), "
            "dtype=int32); to use as boolean Tensor, use `tf.cast`; to check for None, use `is not None`",
            tf.function(notbool), tf.constant(1))
    _raises(ValueError, "condition of if statement expected to be `tf.bool` scalar, got Tensor(\"x:0\", "
            "shape=(2,), dtype=bool); to check for None, use `is not None`", tf.function(notbool),
            tf.constant([True, False]))


def test_c26_conditional_expression():
    f = tf.function(lambda x: 1 if x > 0 else -1)
    assert f(tf.constant(3)).numpy() == 1 and f(tf.constant(-3)).numpy() == -1

    def ifexp(x):
        return 1 if x > 0 else None

    _raises(ValueError, "'x > 0' is None at the end of the else branch.", tf.function(ifexp), tf.constant(1))


def test_c27_logical_operators():
    @tf.function
    def f(x):
        if x > 0 and x < 10:
            return 1
        return 0

    assert f(tf.constant(5)).numpy() == 1 and f(tf.constant(50)).numpy() == 0

    @tf.function
    def g(x):
        return not (x > 0), x > 3 or x < -3

    a, b = g(tf.constant(5))
    assert a.numpy() == False and b.numpy() == True  # noqa: E712


def test_c23_c24_loop_var_dtype_shape_structure():
    @tf.function
    def loopdt():
        x = tf.constant(0, dtype=tf.int32)
        while tf.random.uniform(()) > 0.5:
            x = tf.constant(0, dtype=tf.float32)
        return x

    _raises(TypeError, "'x' has dtype int32 before the loop, but dtype float32 after one iteration", loopdt)

    @tf.function
    def grow(n):
        v = tf.constant([0])
        for i in tf.range(n):
            v = tf.concat([v, [i]], 0)
        return v

    _raises(ValueError, "'v' has shape (1,) before the loop, but shape (2,) after one iteration. Use "
            "tf.autograph.experimental.set_loop_options to set shape invariants.", grow, tf.constant(3))

    @tf.function
    def grow3(n):
        v = tf.constant([0])
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([1]))])
            v = tf.concat([v, [i]], 0)
        return v

    _raises(ValueError, "'v' has shape (2,) after one iteration, which does not conform with the shape "
            "invariant (1,).", grow3, tf.constant(3))

    @tf.function
    def lstruct(n):
        s = (1, 2)
        for i in tf.range(n):
            s = (1, 2, 3)
        return s

    _raises(TypeError, "'s' does not have the same nested structure after one iteration.", lstruct, tf.constant(3))


def test_c17_variable_created_in_tensor_loop():
    def while_creates_var(n):
        i = 0
        while i < n:
            i = n + 1
            j = i + 1
        return i, j

    f = tf.function(while_creates_var)
    i, j = f(tf.constant(1))
    assert (i.numpy(), j.numpy()) == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once to initialize j"):
        f(tf.constant(0))

    def none_loop(n):
        x = None
        for i in tf.range(n):
            x = 1
        return x

    assert tf.function(none_loop)(tf.constant(1)).numpy() == 1


def test_c19_c20_tensor_break_in_python_loop():
    def tf_break_in_py_for(l):
        s = 0
        for c in l:
            if tf.greater(c % 2, 0):
                break
            s += c
        return s

    _raises(NotImplementedError, "break and return statements which depend on a TF condition are not supported "
            "in Python for loops. Did you intend to make it a TF loop?", tf.function(tf_break_in_py_for), [1, 2])

    def tf_break_in_py_while(x):
        s = 0
        while x > 0:
            x -= 1
            if tf.greater(x % 2, 0):
                break
            s += x
        return s

    _raises(NotImplementedError, "The condition of while loop started as non-Tensor, then changed to Tensor.",
            tf.function(tf_break_in_py_while), 3)


def test_c21_break_continue_in_tensor_loops():
    def break_in_single_while(x):
        s = 0
        while x > 0:
            x -= 1
            if x % 2 > 0:
                break
            s += x
        return s

    # (Loops over tensor elements are in test_tensor_loops_real_ops.py: they need the real while_loop.)
    assert tf.function(break_in_single_while)(tf.constant(4)).numpy() == break_in_single_while(4) == 0


def test_c22_empty_tf_range_leaves_iterate_at_start():
    def for_defines_iterate(n, fn):
        s = 0
        for i in fn(n):
            s = s * 10 + i
        return i, s

    i, s = tf.function(for_defines_iterate)(0, tf.range)
    assert (i.numpy(), s.numpy()) == (0, 0)
    i, s = tf.function(for_defines_iterate)(3, tf.range)
    assert (i.numpy(), s.numpy()) == (2, 12)

    def for_reuses_iterate(n, fn):
        i = 7
        s = 0
        for i in fn(n):
            s = s * 10 + i
        return i, s

    i, s = tf.function(for_reuses_iterate)(0, tf.range)
    assert (i.numpy(), s.numpy()) == (7, 0)


def test_range_of_tensor_and_len():
    @tf.function
    def f(n, x):
        s = 0
        for i in range(n):
            s += i
        return s, len(x)

    s, n = f(tf.constant(4), tf.constant([1, 2, 3]))
    assert s.numpy() == 6 and n.numpy() == 3
