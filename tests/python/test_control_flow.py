"""graphfn.cond and graphfn.while_loop, eagerly and inside graphfn.function. Every expected
value, node name and message was printed by TensorFlow 2.21 for the same code."""

import collections
import re

import pytest

import graphfn as tf

P = collections.namedtuple("P", "a b")


# Eager: plain Python ------------------------------------------------------------------------------

def test_eager_cond_runs_python():
    assert tf.cond(tf.constant(False), lambda: 1, lambda: 2) == 2
    assert tf.cond(tf.constant(True), lambda: 1, lambda: 2) == 1
    assert tf.cond(True, lambda: 1, lambda: 2) == 1
    assert tf.cond(tf.constant(False), lambda: 1, lambda: 2, name="c") == 2
    assert tf.cond(tf.constant(True), lambda: (1, 2), lambda: 2) == (1, 2)  # no structure check


def test_eager_while_loop():
    (i,) = tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), (0,))
    assert isinstance(i, tf.Tensor) and i.numpy() == 3
    (i,) = tf.while_loop(lambda i: i < 30, lambda i: (i + 1,), (0,), maximum_iterations=4)
    assert i.numpy() == 4


@pytest.mark.parametrize("call, exc, message", [
    (lambda: tf.cond(tf.constant(True), None, lambda: 2), TypeError, "cond(): 'true_fn' argument required"),
    (lambda: tf.cond(tf.constant(True), lambda: 2), TypeError, "cond(): 'false_fn' argument required"),
    (lambda: tf.cond(tf.constant(True), 1, lambda: 2), TypeError, "'true_fn' must be callable."),
    (lambda: tf.while_loop(1, lambda i: i, [1]), TypeError, "'cond' must be callable."),
    (lambda: tf.while_loop(lambda i: i < 3, 1, [1]), TypeError, "'body' must be callable."),
    (lambda: tf.while_loop(lambda: True, lambda: (), []), ValueError, "'loop_vars' must be provided."),
    (lambda: tf.while_loop(lambda i: i < 3, lambda i: i + 1, 0), ValueError, "'loop_vars' must be provided."),
    (lambda: tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2), ValueError,
     "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"),
])
def test_eager_argument_errors(call, exc, message):
    with pytest.raises(exc) as e:
        call()
    assert str(e.value) == message


# In a function: values and graphs ---------------------------------------------------------------

def test_cond_in_function_values_and_graph():
    @tf.function
    def f(x, y):
        a = tf.cond(x > 0, lambda: x * y, lambda: y - 1)
        b = tf.cond(x > 1, lambda: (x, 1), lambda: (2, y))
        return a, b

    a, (b, c) = f(tf.constant(1), tf.constant(2))
    assert (a.numpy(), b.numpy(), c.numpy()) == (2, 2, 2)
    a, (b, c) = f(tf.constant(5), tf.constant(2))
    assert (a.numpy(), b.numpy(), c.numpy()) == (10, 5, 1)
    a, (b, c) = f(tf.constant(-1), tf.constant(2))
    assert (a.numpy(), b.numpy(), c.numpy()) == (1, 2, 2)
    nodes = f.get_concrete_function(tf.constant(1), tf.constant(2)).graph.as_graph_def().node
    assert [(n.name, n.op, list(n.input)) for n in nodes] == [
        ("x", "Placeholder", []), ("y", "Placeholder", []), ("Greater/y", "Const", []),
        ("Greater", "Greater", ["x", "Greater/y"]), ("cond", "StatelessIf", ["Greater", "x", "y"]),
        ("cond/Identity", "Identity", ["cond"]), ("Greater_1/y", "Const", []),
        ("Greater_1", "Greater", ["x", "Greater_1/y"]), ("cond_1", "StatelessIf", ["Greater_1", "x", "y"]),
        ("cond_1/Identity", "Identity", ["cond_1"]), ("cond_1/Identity_1", "Identity", ["cond_1:1"]),
        ("Identity", "Identity", ["cond/Identity"]), ("Identity_1", "Identity", ["cond_1/Identity"]),
        ("Identity_2", "Identity", ["cond_1/Identity_1"])]


def test_cond_graph_def_text_has_a_library():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * 2, lambda: x - 1)

    text = str(f.get_concrete_function(tf.constant(1)).graph.as_graph_def())
    assert re.search(r'then_branch"\n    value \{\n      func \{\n        name: "cond_true_\d+"', text)
    assert re.search(r'library \{\n  function \{\n    signature \{\n      name: "cond_(true|false)_\d+"', text)
    assert '      name: "cond/mul"\n      op: "Mul"\n' in text


def test_while_loop_in_function_values_and_graph():
    @tf.function
    def f(n, y):
        i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + y), (0, 0.0))
        return i, s

    i, s = f(tf.constant(10), tf.constant(2.))
    assert (i.numpy(), s.numpy()) == (10, 20.0)
    i, s = f(tf.constant(0), tf.constant(2.))  # zero iterations
    assert (i.numpy(), s.numpy()) == (0, 0.0)
    nodes = f.get_concrete_function(tf.constant(10), tf.constant(2.)).graph.as_graph_def().node
    assert [(n.name, n.op) for n in nodes] == [
        ("n", "Placeholder"), ("y", "Placeholder"), ("Const", "Const"), ("Const_1", "Const"),
        ("while/maximum_iterations", "Const"), ("while/loop_counter", "Const"), ("while", "StatelessWhile"),
        ("Identity", "Identity"), ("Identity_1", "Identity")]
    assert nodes[6].input == ["while/loop_counter", "while/maximum_iterations", "Const", "Const_1", "n", "y"]
    assert nodes[7].input == ["while:2"]


def test_while_loop_maximum_iterations():
    @tf.function
    def f(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [0], maximum_iterations=3)

    (i,) = f(tf.constant(10))  # a list, like loop_vars
    assert i.numpy() == 3
    assert f(tf.constant(2))[0].numpy() == 2


def test_nested_control_flow_captures_through_every_level():
    @tf.function
    def f(x):
        def body(i, s):
            s2 = tf.cond(i % 2 == 0, lambda: s + i, lambda: s)
            return i + 1, s2
        return tf.cond(x > 0, lambda: tf.while_loop(lambda i, s: i < x, body, (0, 0)), lambda: (1, 2),
                       name="outer")

    assert [t.numpy() for t in f(tf.constant(5))] == [5, 6]
    assert [t.numpy() for t in f(tf.constant(-5))] == [1, 2]
    nodes = f.get_concrete_function(tf.constant(5)).graph.as_graph_def().node
    assert [(n.name, n.op, list(n.input)) for n in nodes][:6] == [
        ("x", "Placeholder", []), ("Greater/y", "Const", []), ("Greater", "Greater", ["x", "Greater/y"]),
        ("outer", "StatelessIf", ["Greater", "x"]), ("outer/Identity", "Identity", ["outer"]),
        ("outer/Identity_1", "Identity", ["outer:1"])]


def test_structures_of_loop_vars():
    @tf.function
    def with_namedtuple(x):
        return tf.while_loop(lambda p: p.a < 5, lambda p: [P(p.a + 1, p.b * 2)], [P(x, 1.0)])

    [p] = with_namedtuple(tf.constant(0))
    assert type(p) is P and (p.a.numpy(), p.b.numpy()) == (5, 32.0)

    @tf.function
    def with_dict(x):
        return tf.while_loop(lambda d: d["a"] < 5, lambda d: ({"a": d["a"] + 1, "b": d["b"] * 2},),
                             ({"a": x, "b": 1.0},), maximum_iterations=3)

    (d,) = with_dict(tf.constant(0))
    assert (d["a"].numpy(), d["b"].numpy()) == (3, 8.0)

    @tf.function
    def cond_dict(x):
        return tf.cond(x > 0, lambda: {"a": x, "b": P(1, 2.0)}, lambda: {"a": -x, "b": P(3, 4.0)})

    out = cond_dict(tf.constant(-2))
    assert out["a"].numpy() == 2 and type(out["b"]) is P and out["b"].b.numpy() == 4.0


def test_cond_returning_none():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: None, lambda: None)

    assert f(tf.constant(5)) is None


def test_variables_inside_branches_and_bodies():
    v = tf.Variable(1)

    @tf.function
    def f(x):
        tf.cond(x > 0, lambda: v.assign_add(1), lambda: v.assign_add(10))
        return v.read_value()

    assert f(tf.constant(1)).numpy() == 2
    assert f(tf.constant(-1)).numpy() == 12
    ops = [n.op for n in f.get_concrete_function(tf.constant(1)).graph.as_graph_def().node]
    assert "If" in ops and "StatelessIf" not in ops

    w = tf.Variable(0)

    @tf.function
    def g(n):
        def body(i):
            w.assign_add(i)
            return i + 1
        tf.while_loop(lambda i: i < n, body, [0])
        return w.read_value()

    assert g(tf.constant(5)).numpy() == 10
    assert "While" in [n.op for n in g.get_concrete_function(tf.constant(5)).graph.as_graph_def().node]


def test_variable_argument_captured_by_a_branch():
    v = tf.Variable(3.0)

    @tf.function
    def f(var, x):
        tf.cond(x > 0, lambda: var.assign_add(x), lambda: var.assign_sub(1.0))
        return var.read_value()

    assert f(v, tf.constant(2.0)).numpy() == 5.0
    assert f(v, tf.constant(-2.0)).numpy() == 4.0


def test_output_shapes():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.zeros([3], tf.int32))

    assert f.get_concrete_function(tf.constant(1)).output_shapes.rank is None
    assert f(tf.constant(1)).numpy() == 1

    @tf.function
    def g(x):
        return tf.while_loop(lambda i: i < 30, lambda i: tf.concat([i, i], 0), [x],
                             shape_invariants=[tf.TensorShape([None])])

    assert g.get_concrete_function(tf.constant([1])).output_shapes == [tf.TensorShape([None])]


# Errors, with TF's messages -----------------------------------------------------------------------

def _raises(fn, arg, exc):
    """The error's own message. Raised while tracing converted code, TF (and graphfn) wrap it in
    "in user code:" with the user's source line, then the message indented by 4 spaces."""
    with pytest.raises(exc) as e:
        fn(arg)
    message = str(e.value)
    if message.startswith("in user code:"):
        head = "\n    %s: " % exc.__name__
        assert head in message
        inner = message[message.index(head) + len(head):]
        first, *rest = inner.rstrip("\n").split("\n")
        message = "\n".join([first] + [line[4:] for line in rest])
    return message


def test_branch_outputs_must_match():
    @tf.function
    def dtypes(x):
        return tf.cond(x > 0, lambda: 1, lambda: 2.0)

    assert _raises(dtypes, tf.constant(1), TypeError) == (
        "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure of return "
        "values.\n\ntrue_fn output: Tensor(\"cond/Identity:0\", shape=(), dtype=int32)\nfalse_fn output: "
        "Tensor(\"cond/Identity:0\", shape=(), dtype=float32)\n\nError details:\nTensor(\"cond/Identity:0\", "
        "shape=(), dtype=int32) and Tensor(\"cond/Identity:0\", shape=(), dtype=float32) have different types")

    @tf.function
    def sequence_types(x):
        return tf.cond(x > 0, lambda: [1], lambda: (2,))

    t = "<tf.Tensor 'cond/Identity:0' shape=() dtype=int32>"
    assert _raises(sequence_types, tf.constant(1), TypeError) == (
        "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure of return "
        "values.\n\ntrue_fn output: [%s]\nfalse_fn output: (%s,)\n\nError details:\nThe two structures don't have "
        "the same nested structure.\n\nFirst structure: type=list str=[%s]\n\nSecond structure: type=tuple str=(%s,)"
        "\n\nMore specifically: The two namedtuples don't have the same sequence type. First structure type=list "
        "str=[%s] has type list, while second structure type=tuple str=(%s,) has type tuple\nEntire first "
        "structure:\n[.]\nEntire second structure:\n(.,)" % (t, t, t, t, t, t))

    @tf.function
    def dict_keys(x):
        return tf.cond(x > 0, lambda: {"a": 1}, lambda: {"b": 2})

    assert _raises(dict_keys, tf.constant(1), TypeError).endswith(
        "More specifically: The two dictionaries don't have the same set of keys. First structure has keys "
        "type=list str=['a'], while second structure has keys type=list str=['b']\nEntire first structure:\n"
        "{'a': .}\nEntire second structure:\n{'b': .}")

    @tf.function
    def counts(x):
        return tf.cond(x > 0, lambda: (1, 2), lambda: 2)

    assert _raises(counts, tf.constant(1), AssertionError) == "[2, 1]"

    @tf.function
    def none_and_tensor(x):
        return tf.cond(x > 0, lambda: x, lambda: None)

    assert _raises(none_and_tensor, tf.constant(1), ValueError) == (
        "Lengths of branch outputs of cond must match.\nlen(graphs[0].outputs): 1\nlen(graphs[1].outputs): 0\n")


def test_loop_variables_must_keep_structure_dtype_and_shape():
    @tf.function
    def shape(x):
        return tf.while_loop(lambda i: i < 3, lambda i: tf.concat([i, i], 0), [x])

    assert _raises(shape, tf.constant([1]), ValueError) == (
        "Input tensor `x:0` enters the loop with shape (1,), but has shape (2,) after one iteration. To allow the "
        "shape to vary across iterations, use the `shape_invariants` argument of tf.while_loop to specify a "
        "less-specific shape.")

    @tf.function
    def scalar_to_vector(x):
        return tf.while_loop(lambda i: i < 3, lambda i: tf.reshape(i, [1]), [x])

    assert "enters the loop with shape (), but has shape (1,) after one iteration." in _raises(
        scalar_to_vector, tf.constant(1), ValueError)

    @tf.function
    def dtype(x):
        return tf.while_loop(lambda i: i < 3, lambda i: tf.cast(i, tf.float32), [x])

    assert _raises(dtype, tf.constant(1), TypeError) == (
        "Loop var x:0 enters the loop with type <dtype: 'int32'> but has type <dtype: 'float32'> after 1 "
        "iteration. x:0 type should remain constant.")

    @tf.function
    def structure(x):
        return tf.while_loop(lambda i: i < 3, lambda i: (i, i), [x])

    p = "<tf.Tensor 'while/Placeholder:0' shape=() dtype=int32>"
    x = "<tf.Tensor 'x:0' shape=() dtype=int32>"
    assert _raises(structure, tf.constant(1), ValueError) == (
        "The two structures don't have the same nested structure.\n\nFirst structure: type=tuple str=(%s, %s)\n\n"
        "Second structure: type=list str=[%s]\n\nMore specifically: The two structures don't have the same number "
        "of elements. First structure: type=tuple str=(%s, %s). Second structure: type=list str=[%s]\nEntire "
        "first structure:\n(., .)\nEntire second structure:\n[.]" % (p, p, x, p, p, x))

    @tf.function
    def max_iterations_float(x):
        return tf.while_loop(lambda i: i < 3, lambda i: i + 1, [x], maximum_iterations=2.0)

    assert _raises(max_iterations_float, tf.constant(1), TypeError) == "Expected int32, but got 2.0 of type 'float'."


def test_predicates_that_are_not_scalar_bools():
    @tf.function
    def f(x):
        return tf.cond(x, lambda: 1, lambda: 2)

    message = _raises(f, tf.constant(1), tf.errors.InvalidArgumentError)
    assert re.fullmatch(r"Input 'pred' passed int32 expected bool while building NodeDef 'cond/switch_pred/_\d+' "
                        r"using Op<name=Switch; signature=data:T, pred:bool -> output_false:T, output_true:T; "
                        r"attr=T:type> \[Op:__inference_f_\d+\]", message)
    assert "The second input must be a scalar, but it has shape [2]" in _raises(
        f, tf.constant([True, False]), tf.errors.InvalidArgumentError)
    assert f(tf.constant([False])).numpy() == 2

    @tf.function
    def g(x):
        return tf.while_loop(lambda i: i, lambda i: i + 1, [x])

    assert re.fullmatch(r"Input 'input' passed int32 expected bool while building NodeDef 'while/LoopCond/_\d+' "
                        r"using Op<name=LoopCond; signature=input:bool -> output:bool> \[Op:__inference_g_\d+\]",
                        _raises(g, tf.constant(1), tf.errors.InvalidArgumentError))

    @tf.function
    def h(x):
        return tf.cond(True, lambda: x, lambda: x + 1)

    assert _raises(h, tf.constant(1), TypeError) == "('pred must not be a Python bool', True)"


def test_errors_inside_branches_and_bodies_name_the_inner_node():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: tf.gather([1, 2], x), lambda: 0)

    message = _raises(f, tf.constant(5), tf.errors.InvalidArgumentError)
    assert message.startswith("Graph execution error:\n\nDetected at node cond/GatherV2")
    assert "indices = 5 is not in [0, 2)\n\t [[{{node cond/GatherV2}}]] [Op:__inference_f_" in message
    assert f(tf.constant(1)).numpy() == 2

    @tf.function
    def g(x):
        return tf.while_loop(lambda i: i < 10, lambda i: i + tf.gather([1, 2], i), [x])

    message = _raises(g, tf.constant(0), tf.errors.InvalidArgumentError)
    assert "indices = 3 is not in [0, 2)\n\t [[{{node while/GatherV2}}]]" in message


def test_a_tensor_leaked_from_a_branch_is_out_of_scope():
    leak = []

    @tf.function
    def f(x):
        def true_fn():
            y = x * 2
            leak.append(y)
            return y
        return tf.cond(x > 0, true_fn, lambda: x) + leak[0]

    from graphfn.framework.errors import InaccessibleTensorError  # TF's, a ValueError; not in tf.errors
    assert issubclass(InaccessibleTensorError, ValueError)
    assert _raises(f, tf.constant(1), InaccessibleTensorError).startswith(
        "<tf.Tensor 'cond/mul:0' shape=() dtype=int32> is out of scope and cannot be used here. Use return values, "
        "explicit Python locals or TensorFlow collections to access it.\nPlease see "
        "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_return_values for more "
        "information.")


# switch_case --------------------------------------------------------------------------------------

def test_switch_case_in_function():
    @tf.function
    def f(i, x):
        return tf.switch_case(i, [lambda: x + 1, lambda: x * 2, lambda: x - 3])

    assert [f(tf.constant(k), tf.constant(10)).numpy() for k in (0, 1, 2, 5, -1)] == [11, 20, 7, 7, 7]
    nodes = f.get_concrete_function(tf.constant(0), tf.constant(10)).graph.as_graph_def().node
    assert [(n.name, n.op, list(n.input)) for n in nodes] == [
        ("i", "Placeholder", []), ("x", "Placeholder", []),
        ("switch_case/indexed_case", "StatelessCase", ["i", "x"]),
        ("switch_case/indexed_case/Identity", "Identity", ["switch_case/indexed_case"]),
        ("Identity", "Identity", ["switch_case/indexed_case/Identity"])]

    @tf.function
    def g(i, x):
        return tf.switch_case(i, {0: lambda: x + 1, 1: lambda: x * 2}, default=lambda: x - 3)

    assert [g(tf.constant(k), tf.constant(10)).numpy() for k in (0, 1, 5)] == [11, 20, 7]


def test_switch_case_eager_and_errors():
    assert tf.switch_case(tf.constant(1), [lambda: 1, lambda: 2]) == 2
    assert tf.switch_case(tf.constant(7), [lambda: 1, lambda: 2]) == 2
    with pytest.raises(TypeError) as e:
        tf.switch_case(1, [lambda: 1, lambda: 2])
    assert str(e.value) == "'branch_index' must be a Tensor, got <class 'int'>"
    with pytest.raises(TypeError) as e:
        tf.switch_case(tf.constant(1.0), [lambda: 1, lambda: 2])
    assert str(e.value) == "'branch_index' must be an integer Tensor, got <dtype: 'float32'>"

    @tf.function
    def f(i, x):
        return tf.switch_case(i, [lambda: x + 1, lambda: 2.0])

    t = 'Tensor("switch_case/indexed_case/Identity:0", shape=(), dtype=%s)'
    assert _raises(lambda i: f(i, tf.constant(10)), tf.constant(0), TypeError) == (
        "branches[0] and branches[1] arguments to tf.switch_case must have the same number, type, and overall "
        "structure of return values.\n\nbranches[0] output: %s\nbranches[1] output: %s\n\nError details:\n%s and %s "
        "have different types" % (t % "int32", t % "float32", t % "int32", t % "float32"))


def test_while_loop_body_that_permutes_its_variables():
    # The body's results are its own inputs in another order (and one passes through): each
    # iteration must read the previous state, not the half-updated one.
    @tf.function
    def rotate(n):
        return tf.while_loop(lambda i, a, b, c, k: i < n,
                             lambda i, a, b, c, k: (i + 1, b, c, a, k), (0, 1, 2, 3, 9))

    assert [int(t) for t in rotate(tf.constant(4))] == [4, 2, 3, 1, 9]  # 4 rotations of (1, 2, 3)
    assert [int(t) for t in rotate(tf.constant(0))] == [0, 1, 2, 3, 9]
