"""Helpers the shape/indexing/sorting golden tables call, defined on whichever `tf` module is
given: the tables were recorded by running them on TensorFlow 2.21 (tools/record_shape_index_goldens.py)
and the tests run them on graphfn."""

import numpy as np


def make_namespace(tf):
    def grad(f, *xs, dtype="float32"):
        """d/dx of sum(f(x...) * w), w = 1, 2, 3, ... in the result's shape: one gradient per x."""
        xs = [tf.constant(x, dtype=dtype) for x in xs]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = f(*xs)
            w = tf.reshape(tf.cast(tf.range(1, tf.size(y) + 1), y.dtype), tf.shape(y))
            loss = tf.reduce_sum(y * w)
        return [None if g is None else tf.convert_to_tensor(g) for g in tape.gradient(loss, xs)]

    def static_shape(f, *specs):
        """The static output shape(s) of f traced with TensorSpecs (shape, dtype)."""
        cf = tf.function(f).get_concrete_function(*[tf.TensorSpec(s, d) for s, d in specs])
        out = cf.structured_outputs
        if isinstance(out, (list, tuple)):
            return [str(o.shape) for o in out]
        return str(out.shape)

    def in_graph(f, *args):
        """f run as a tf.function (its ops built into a graph)."""
        return tf.function(f)(*args)

    def on_variable(initial, f, graph=False):
        """f(v) on a new Variable holding `initial` (traced into a tf.function when `graph`), then
        the variable's value."""
        v = tf.Variable(initial)

        def body():
            f(v)
        (tf.function(body) if graph else body)()
        return v.read_value()

    return {"tf": tf, "np": np, "grad": grad, "static_shape": static_shape, "in_graph": in_graph,
            "on_variable": on_variable}


def core_message(message):
    """An error message without TF's eager prefix ('{{function_node ...}} ') and op suffix
    (' [Op:Tile] name: ...'): the part graphfn reproduces."""
    if message.startswith("{{function_node") and "}} " in message:
        message = message.split("}} ", 1)[1]
    if " [Op:" in message:
        message = message.split(" [Op:", 1)[0]
    return message


def golden_tests(results_table, errors_table):
    """The two parametrized tests over tables of shape_index_goldens.json: reprs equal to TF's,
    and errors of TF's type (a builtin or a graphfn.errors class) with TF's message."""
    import builtins
    import json
    import os

    import pytest

    import graphfn as tf

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "shape_index_goldens.json")) as f:
        goldens = json.load(f)
    namespace = make_namespace(tf)

    @pytest.mark.parametrize("expr", sorted(goldens[results_table]))
    def test_result_matches_tensorflow(expr):
        assert repr(eval(expr, dict(namespace))) == goldens[results_table][expr]["repr"]

    @pytest.mark.parametrize("expr", sorted(goldens[errors_table]))
    def test_error_matches_tensorflow(expr):
        row = goldens[errors_table][expr]
        error = getattr(tf.errors, row["error"], None) or getattr(builtins, row["error"])
        with pytest.raises(error) as info:
            eval(expr, dict(namespace))
        if expr.startswith("in_graph("):  # errors of graph runs: TF's text is the first line
            assert row["message"].split("\n")[0] in str(info.value)
        else:
            assert core_message(str(info.value)) == row["message"]

    return test_result_matches_tensorflow, test_error_matches_tensorflow
