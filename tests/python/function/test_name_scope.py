"""tf.name_scope and tf.init_scope; expected names printed by TF 2.21."""

import pytest

import graphfn as tf


def test_eager_scopes_nest_and_are_not_made_unique():
    with tf.name_scope("foo") as outer:
        with tf.name_scope("bar") as inner:
            assert (outer, inner) == ("foo/", "foo/bar/")
    with tf.name_scope("foo") as again:
        assert again == "foo/"
    assert tf.name_scope("x").name == "x"


def test_scopes_name_the_nodes_of_a_traced_graph(capsys):
    @tf.function
    def f(x):
        with tf.name_scope("foo") as s:
            print(repr(s))
            y = x + 1
            with tf.name_scope("bar") as t:
                print(repr(t))
                z = y * 2
        with tf.name_scope("foo") as s:
            print(repr(s))
            w = tf.add(z, 1, name="foo")
        q = tf.add(w, 1, name="foo")
        with tf.name_scope("abs/") as s:
            print(repr(s))
            w = w + 1
        with tf.name_scope("") as s:
            print(repr(s))
            w = w + 1
        print(y.name, z.name, w.name, q.name)
        return w

    cf = f.get_concrete_function(tf.constant(1.0))
    assert capsys.readouterr().out.split("\n")[:-1] == [
        "'foo/'", "'foo/bar/'", "'foo_1/'", "'abs/'", "''",
        "foo/add:0 foo/bar/mul:0 add:0 foo_2:0"]
    assert [n.name for n in cf.graph.as_graph_def().node] == [
        "x", "foo/add/y", "foo/add", "foo/bar/mul/y", "foo/bar/mul", "foo_1/foo/y", "foo_1/foo",
        "foo_2/y", "foo_2", "abs/add/y", "abs/add", "add/y", "add", "Identity"]


def test_variables_are_named_inside_the_scope():
    with tf.name_scope("foo"):
        v = tf.Variable(1.0)
        w = tf.Variable(1.0, name="w")
    assert (v.name, w.name) == ("foo/Variable:0", "foo/w:0")


@pytest.mark.parametrize("name", [3, None])
def test_scope_names_must_be_strings(name):
    with pytest.raises(ValueError, match="name for name_scope must be a string."):
        tf.name_scope(name)


def test_init_scope_runs_eagerly_while_tracing(capsys):
    @tf.function
    def g(x):
        with tf.init_scope():
            print(tf.executing_eagerly())
        print(tf.executing_eagerly())
        return x

    g(1)
    assert capsys.readouterr().out == "True\nFalse\n"


def test_composite_ops_name_their_parts_inside_their_scope():
    @tf.function
    def f(x, i):
        return x / 2.0, i / 2, tf.add(x, 1.0), tf.math.floordiv(i, 2), tf.divide(i, i, name="div")

    cf = f.get_concrete_function(tf.constant(1.0), tf.constant(1))
    assert [n.name for n in cf.graph.as_graph_def().node] == [
        "x", "i", "truediv/y", "truediv", "truediv_1/y", "truediv_1/Cast", "truediv_1/Cast_1", "truediv_1",
        "Add/y", "Add", "floordiv/y", "floordiv", "div/Cast", "div/Cast_1", "div",
        "Identity", "Identity_1", "Identity_2", "Identity_3", "Identity_4"]
    assert [t.numpy() for t in f(tf.constant(1.0), tf.constant(3))] == [0.5, 1.5, 2.0, 1, 1.0]
