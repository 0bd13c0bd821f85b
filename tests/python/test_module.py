"""graphfn.Module: names, scopes and the variables/submodules it finds; expected values printed
by TF 2.21."""

import pytest

import graphfn as tf


class MyDense(tf.Module):
    pass


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.b = tf.Variable(1.0, name="b")
        self.a = [tf.Variable(2.0, trainable=False), {"z": tf.Variable(3), "y": MyDense()}]
        self.a[1]["y"].w = tf.Variable(4.0)


def test_names_come_from_the_class():
    assert (tf.Module().name, tf.Module().name_scope.name) == ("module", "module/")
    assert (MyDense().name, MyDense().name_scope.name) == ("my_dense", "my_dense/")


def test_invalid_names_are_rejected():
    with pytest.raises(ValueError, match=r"'a b' is not a valid module name. Module names must be valid "
                       r"Python identifiers \(e.g. a valid class name\)."):
        tf.Module(name="a b")


def test_variables_are_found_by_attribute_name_then_in_submodules():
    m = Model()
    assert [v.numpy() for v in m.variables] == [2.0, 3, 1.0, 4.0]
    assert [v.numpy() for v in m.trainable_variables] == [3, 1.0, 4.0]
    assert [v.numpy() for v in m.non_trainable_variables] == [2.0]
    assert m.submodules == (m.a[1]["y"],)
    assert repr(m.variables[2]) == "<tf.Variable 'b:0' shape=() dtype=float32, numpy=1.0>"


def test_name_scope_and_with_name_scope():
    class D(tf.Module):
        def __init__(self):
            super().__init__()
            with self.name_scope:
                self.v = tf.Variable(1.0)

        @tf.Module.with_name_scope
        def __call__(self, x):
            return x * self.v

    d = D()
    assert d.v.name == "d/Variable:0"

    @tf.function
    def f(x):
        return d(x)

    names = [n.name for n in f.get_concrete_function(tf.constant(1.0)).graph.as_graph_def().node]
    assert "d/mul" in names
    assert f(tf.constant(3.0)).numpy() == 3.0
