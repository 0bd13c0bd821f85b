"""tf.control_dependencies, tf.group, tf.no_op and the Operation tf.print returns in a graph.
Expected node names, control inputs and messages come from TF 2.21 (run this file with
GRAPHFN_CASES_BACKEND=tensorflow to re-check them against TensorFlow)."""

import importlib
import os

import pytest

tf = importlib.import_module(os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn"))


def _nodes(function, *args):
    """name -> (op, inputs with "^control" inputs): the GraphDef's edges, whatever the node order."""
    graph_def = function.get_concrete_function(*args).graph.as_graph_def()
    return {n.name: (n.op, list(n.input)) for n in graph_def.node}


def test_print_as_control_input(capfd):
    @tf.function
    def f(x):
        with tf.control_dependencies([tf.print("before")]):
            y = tf.identity(x)
        return y

    assert int(f(tf.constant(3))) == 3
    assert capfd.readouterr().err == "before\n"
    assert _nodes(f, tf.constant(3)) == {
        "x": ("Placeholder", []),
        "StringFormat": ("StringFormat", []),
        "PrintV2": ("PrintV2", ["StringFormat"]),
        "Identity": ("Identity", ["x", "^PrintV2"]),
        "Identity_1": ("Identity", ["Identity", "^NoOp"]),  # the output waits for the prints
        "NoOp": ("NoOp", ["^PrintV2"]),
    }
    ops = {op.name: op for op in f.get_concrete_function(tf.constant(3)).graph.get_operations()}
    assert [c.name for c in ops["Identity"].control_inputs] == ["PrintV2"]
    assert [t.name for t in ops["Identity"].inputs] == ["x:0"]


def test_nesting_none_group_and_no_op(capfd):
    seen = {}

    @tf.function
    def h(x):
        p = tf.print("a")
        seen["print"] = (repr(p), p.name, p.type, [t.name for t in p.inputs], list(p.outputs), p.control_inputs)
        with tf.control_dependencies([p, x]):
            y = x + 1
            with tf.control_dependencies(None):
                z = x * 2
            with tf.control_dependencies([y]):
                w = z - 1
        seen["no_op"] = repr(tf.no_op())
        seen["group"] = repr(tf.group(y, w))
        seen["named"] = repr(tf.group(y, w, name="gg"))
        return y + w

    assert int(h(tf.constant(3))) == 9
    assert capfd.readouterr().err == "a\n"
    assert seen == {
        "print": ("<tf.Operation 'PrintV2' type=PrintV2>", "PrintV2", "PrintV2", ["StringFormat:0"], [], []),
        "no_op": "<tf.Operation 'NoOp' type=NoOp>",
        "group": "<tf.Operation 'group_deps' type=NoOp>",
        "named": "<tf.Operation 'gg' type=NoOp>",
    }
    assert _nodes(h, tf.constant(3)) == {
        "x": ("Placeholder", []),
        "StringFormat": ("StringFormat", []),
        "PrintV2": ("PrintV2", ["StringFormat"]),
        "add/y": ("Const", ["^PrintV2", "^x"]),
        "add": ("AddV2", ["x", "add/y"]),  # add/y was made in the block: no control inputs needed
        "mul/y": ("Const", []),  # control_dependencies(None) clears the outer block
        "mul": ("Mul", ["x", "mul/y"]),
        "sub/y": ("Const", ["^PrintV2", "^add", "^x"]),
        "sub": ("Sub", ["mul", "sub/y"]),
        "NoOp": ("NoOp", []),
        "group_deps": ("NoOp", ["^add", "^sub"]),
        "gg": ("NoOp", ["^add", "^sub"]),
        "add_1": ("AddV2", ["add", "sub"]),
        "Identity": ("Identity", ["add_1", "^NoOp_1"]),
        "NoOp_1": ("NoOp", ["^PrintV2"]),
    }
    ops = h.get_concrete_function(tf.constant(3)).graph.get_operations()
    manual = [op.name for op in ops if "_has_manual_control_dependencies" in str(op.node_def)]
    assert manual == ["x", "PrintV2", "add", "sub"]


def test_eager_behaviour():
    called = []
    with tf.control_dependencies([tf.constant(1), lambda: called.append(1)]) as value:
        assert value is None
    assert called == [1]
    with tf.control_dependencies(None):
        pass
    assert tf.print("x") is None
    assert tf.no_op() is None
    assert tf.group(tf.constant(1)) is None
    assert tf.group(1) is None
    with pytest.raises(TypeError, match="^'int' object is not iterable$"):
        tf.control_dependencies(5)


def test_graph_arguments():
    outside = tf.constant(5)
    results = []

    @tf.function
    def g(x):
        for args in ([1], ["a"], [outside], [[x]], (x,)):
            with tf.control_dependencies(args) as value:
                results.append(value)
        for bad in (5, [None]):
            try:
                tf.control_dependencies(bad)
            except TypeError as e:
                results.append(str(e))
        try:
            tf.group(1)
        except TypeError as e:
            results.append(str(e))
        results.append(repr(tf.group()))
        op = tf.no_op(name="nn")
        results.append((repr(op), op.inputs, op.outputs, op.control_inputs, op.type))
        with tf.control_dependencies([outside, 2.5]):  # left out: not ops of this graph
            return x + 1

    assert int(g(tf.constant(1))) == 2
    assert results == [None] * 5 + [
        "'int' object is not iterable",
        "Can not convert a NoneType into a Tensor or Operation.",
        "'inputs' should be zero or more (nested) Tensors. Received '1' with type '<class 'int'>'.",
        "<tf.Operation 'group_deps_1' type=NoOp>",  # the failed group reserved "group_deps"
        ("<tf.Operation 'nn' type=NoOp>", (), [], [], "NoOp"),
    ]
    assert _nodes(g, tf.constant(1))["add/y"] == ("Const", [])


def test_pure_control_input_does_not_run():
    # TF's grappler turns a node whose outputs only feed control edges into a NoOp: the
    # out-of-range gather never fails (a stateful control input always runs).
    @tf.function
    def forced(x):
        with tf.control_dependencies([tf.gather(x, [5])]):
            return tf.identity(x)

    assert forced(tf.constant([1, 2])).numpy().tolist() == [1, 2]


def test_assign_as_control_input():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.control_dependencies([v.assign(x)]):
            return tf.identity(x) + 1

    assert float(f(tf.constant(4.0))) == 5.0
    assert float(v.numpy()) == 4.0
    nodes = _nodes(f, tf.constant(4.0))
    assert nodes["add/y"] == ("Const", ["^AssignVariableOp"])
    assert nodes["Identity"] == ("Identity", ["x", "^AssignVariableOp"])


def test_assert_as_control_input():
    @tf.function
    def f(x):
        with tf.control_dependencies([tf.debugging.assert_positive(x)]):
            return tf.identity(x)

    assert int(f(tf.constant(2))) == 2
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant(-2))


def test_control_input_from_the_enclosing_graph():
    # TF's control captures: the If / While node made from the branch or body gets the control input.
    @tf.function
    def branch(x):
        p = tf.print("outer")

        def true_fn():
            with tf.control_dependencies([p]):
                return x + 1
        return tf.cond(x > 0, true_fn, lambda: x - 1)

    @tf.function
    def loop(n):
        p = tf.print("outer")

        def body(i):
            with tf.control_dependencies([p]):
                return i + 1
        return tf.while_loop(lambda i: i < n, body, [0])

    assert int(branch(tf.constant(1))) == 2
    assert _nodes(branch, tf.constant(1))["cond"] == ("StatelessIf", ["Greater", "x", "^PrintV2"])
    assert int(loop(tf.constant(2))[0]) == 2
    assert _nodes(loop, tf.constant(2))["while"][1][-1] == "^PrintV2"
