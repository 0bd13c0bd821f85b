"""graphfn.autograph.to_code: the generated source in TF 2.21's shape (texts from
tf.autograph.to_code; `nonlocal` lists are sorted here, TF prints them in set order)."""

import pytest

import graphfn as tf

from to_code_texts import SIMPLE_RELU, TANH_LOOP  # noqa: E402


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def test_c2_simple_relu_exact():
    assert tf.autograph.to_code(simple_relu) == SIMPLE_RELU


def test_c3_while_loop_exact():
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x)
            x = tf.tanh(x)
        return x

    assert tf.autograph.to_code(f.python_function) == TANH_LOOP
    assert tf.autograph.to_code(f) == TANH_LOOP  # a graphfn.function is accepted too


def test_c4_straight_line_calls():
    a, b = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(x, y):
        a.assign(y * b)
        b.assign_add(x * a)
        return a + b

    assert f(1.0, 2.0).numpy() == 10.0
    code = tf.autograph.to_code(f.python_function)
    # TF 2.21 (ast.unparse) prints no parentheses around the binary op; older TF did.
    assert "ag__.converted_call(ag__.ld(a).assign, (ag__.ld(y) * ag__.ld(b),), None, fscope)" in code


def test_fizzbuzz_shape():
    def fizzbuzz(n):
        for i in tf.range(1, n + 1):
            print('Tracing for loop')
            if i % 15 == 0:
                tf.print('fizzbuzz')
            elif i % 3 == 0:
                tf.print('fizz')
            else:
                tf.print(i)

    code = tf.autograph.to_code(fizzbuzz)
    # TF 2.21: print stays a plain call; elif is a nested if; the for loop's options name the iterate.
    assert "ag__.ld(print)('Tracing for loop')" in code
    assert "ag__.if_stmt(ag__.ld(i) % 3 == 0, if_body, else_body, get_state, set_state, (), 0)" in code
    assert "ag__.if_stmt(ag__.ld(i) % 15 == 0, if_body_1, else_body_1, get_state_1, set_state_1, (), 0)" in code
    assert "        i = ag__.Undefined('i')\n        ag__.for_stmt(ag__.converted_call(ag__.ld(tf).range, (1, " \
           "ag__.ld(n) + 1), None, fscope), None, loop_body, get_state_2, set_state_2, (), " \
           "{'iterate_names': 'i'})" in code
    assert "def tf__fizzbuzz(n):" in code and "do_return" not in code


def test_break_continue_ifexp_logical():
    def g(x, l):
        s = 0
        for c in l:
            if c > 2:
                break
            if c < 0:
                continue
            s += c
        y = 1 if x > 0 else -1
        return x > 0 and x < 10 or not x, y

    code = tf.autograph.to_code(g)
    for fragment in [
        "        break_ = False\n",
        "ag__.if_stmt(ag__.not_(continue_), ",
        "                    s = ag__.ld(s)\n                    s += c\n",
        "        def extra_test():\n            nonlocal break_, s\n            return ag__.not_(break_)\n",
        "ag__.for_stmt(ag__.ld(l), extra_test, loop_body, get_state_4, set_state_4, ('break_', 's'), "
        "{'iterate_names': 'c'})",
        "y = ag__.if_exp(ag__.ld(x) > 0, lambda: 1, lambda: -1, 'x > 0')",
        "retval_ = (ag__.or_(lambda: ag__.and_(lambda: ag__.ld(x) > 0, lambda: ag__.ld(x) < 10), lambda: "
        "ag__.not_(ag__.ld(x))), ag__.ld(y))",
    ]:
        assert fragment in code, fragment


def test_while_break_and_moved_return():
    def h(x, n):
        while x < n:
            x += 1
            if x > 5:
                break
        return x

    def rwd(x):
        if x > 0:
            tf.print('x', x)
            return x
        return x * x

    code = tf.autograph.to_code(h)
    assert "return ag__.and_(lambda: ag__.not_(break_), lambda: ag__.ld(x) < ag__.ld(n))" in code
    assert "ag__.while_stmt(loop_test, loop_body, get_state_1, set_state_1, ('x', 'break_'), {})" in code
    code = tf.autograph.to_code(rwd)
    # The code after the conditional return moves into the else branch (TF 2.21).
    assert "        def else_body():\n            nonlocal do_return, retval_\n            try:\n" \
           "                do_return = True\n                retval_ = ag__.ld(x) * ag__.ld(x)" in code


def test_methods_lambdas_nested_functions():
    class M:
        def call(self, x):
            if x > 0:
                return x
            return -x

    code = tf.autograph.to_code(M().call)
    assert code.startswith("def tf__call(self, x):")
    lam = lambda x: x + 1 if x > 0 else x  # noqa: E731
    assert "ag__.if_exp(ag__.ld(x) > 0, lambda: ag__.ld(x) + 1, lambda: ag__.ld(x), 'x > 0')" in tf.autograph.to_code(lam)

    def outer(x):
        def inner(y):
            return y * 2
        return inner(x)

    code = tf.autograph.to_code(outer)
    assert "with ag__.FunctionScope('inner', 'fscope_1', ag__.STD) as fscope_1:" in code
    assert "ag__.converted_call(ag__.ld(inner), (ag__.ld(x),), None, fscope)" in code


def test_to_graph_runs_python_semantics():
    def f(x):
        if x > 0:
            return "Positive"
        return "Negative"

    g = tf.autograph.to_graph(f)
    assert g.__name__ == "tf__f"
    assert g(1) == "Positive" and g(-1) == "Negative"


def _checked_below_ten(x):
    assert x < 10, "too big"
    return x


def _positive_then_checked(x):
    assert x > 0
    return _checked_below_ten(x)


# TF 2.21's to_code(_positive_then_checked, experimental_optional_features=ASSERT_STATEMENTS)
ASSERTS_TEXT = '''def tf___positive_then_checked(x):
    with ag__.FunctionScope('_positive_then_checked', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=ag__.Feature.ASSERT_STATEMENTS, internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        ag__.assert_stmt(ag__.ld(x) > 0, lambda: 'Assertion error')
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(_checked_below_ten), (ag__.ld(x),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
'''


def test_assert_statements_feature_to_code():
    feature = tf.autograph.experimental.Feature.ASSERT_STATEMENTS
    assert tf.autograph.to_code(_positive_then_checked, experimental_optional_features=feature) == ASSERTS_TEXT
    # Without the feature the assert stays a Python statement (and the cache keeps both apart).
    assert "    assert ag__.ld(x) > 0" in tf.autograph.to_code(_positive_then_checked)
    every = tf.autograph.to_code(_positive_then_checked, experimental_optional_features=(tf.autograph.experimental.Feature.ALL,))
    assert "optional_features=(ag__.Feature.ALL,)" in every and "ag__.assert_stmt(" in every


def test_assert_statements_feature_reaches_callees():
    f = tf.function(_positive_then_checked,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    assert f(tf.constant(3)).numpy() == 3
    # TF 2.21: the callee's assert is a graph Assert named Assert_1/Assert, failing at run time.
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        f(tf.constant(30))
    assert "assertion failed: [too big]" in str(e.value) and "{{node Assert_1/Assert}}" in str(e.value)
    with pytest.raises(AssertionError, match="too big"):
        f(30)
    # The default still treats a tensor assert as a Python bool.
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(_positive_then_checked)(tf.constant(3))


def test_python_310_unparser_spells_code_as_311():
    """to_code on Python 3.10 uses pyct.parser's _Unparser310; on 3.11+ it must print exactly
    what ast.unparse prints (the spelling TF's to_code shows)."""
    import ast
    import sys

    from graphfn.autograph.pyct import parser
    if sys.version_info < (3, 11) or not hasattr(ast, "_Unparser"):
        pytest.skip("compares with Python 3.11+'s ast.unparse")
    source = ("x, = vars_\nfor a, b in pairs:\n    f = lambda: a\n    g = lambda u, *v: (u, v)\n"
              "a, b = (1, 2)\ny = [(i, j) for i, j in z]\nreturn ()\n")
    tree = ast.parse("def f():\n" + "".join("    " + line + "\n" for line in source.splitlines()))
    assert parser._Unparser310().visit(tree) == ast.unparse(tree)
    assert "x, = vars_" in ast.unparse(tree) and "lambda: a" in ast.unparse(tree)
