"""tf.train.TrackableView, tf.saved_model.experimental.TrackableResource and what a concrete
function says about the variables it captures (ConcreteFunction.variables): the pieces Keras 3's
`model.export` walks. Expected values recorded from TF 2.21."""

import pytest

import graphfn as tf


class SimpleModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.a_var = tf.Variable(5.0, name="a")
        self.b_var = tf.Variable(4.0, trainable=False, name="b")
        self.vars = [tf.Variable(1.0, name="c"), tf.Variable(2.0, name="d")]


def test_trackable_view_children_and_descendants():
    root = SimpleModule(name="root")
    root.leaf = SimpleModule(name="leaf")
    view = tf.train.TrackableView(root)
    assert sorted(view.children(root)) == ["a_var", "b_var", "leaf", "vars"]
    assert view.children(root)["leaf"] is root.leaf
    descendants = view.descendants()
    # TF 2.21: the root, its leaf, two lists and 8 variables, each once, root first.
    assert len(descendants) == 12
    assert sum(isinstance(o, tf.Variable) for o in descendants) == 8
    assert descendants[0] is root
    assert view.root is root


def test_trackable_view_of_a_trackable_uses_its_named_dependencies():
    parent = tf.__internal__.tracking.AutoTrackable()
    parent.child = tf.__internal__.tracking.AutoTrackable()
    parent.child.grandchild = tf.__internal__.tracking.AutoTrackable()
    parent.not_tracked = 3
    view = tf.train.TrackableView(parent)
    assert list(view.children(parent)) == ["child"]
    assert view.descendants() == [parent, parent.child, parent.child.grandchild]


def test_trackable_view_subclass_chooses_the_save_type():
    seen = []

    class Recording(tf.__internal__.tracking.AutoTrackable):
        def _trackable_children(self, save_type="checkpoint", **kwargs):
            seen.append((save_type, sorted(kwargs)))
            return super()._trackable_children(save_type, **kwargs)

    class SavedModelView(tf.train.TrackableView):
        @classmethod
        def children(cls, obj, save_type="savedmodel", **kwargs):
            return super().children(obj, save_type, cache={})

    root = Recording()  # the view holds its root by weak reference only, as TF's does
    SavedModelView(root).descendants()
    assert seen == [("savedmodel", ["cache"])]


def test_concrete_function_variables_are_the_captured_ones():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, trainable=False, name="b")
    c = tf.Variable(3.0, name="c")
    d = tf.Variable(4.0, trainable=False, name="d")
    unused = tf.Variable(5.0, name="unused")

    @tf.function
    def f(x):
        return d + x * c + b + a

    @tf.function
    def g(x):
        c.assign(x)
        d.assign_add(x)
        return a.read_value()

    cf = f.get_concrete_function(1.0)
    # TF 2.21 lists c, b, d, a (its own order); the set and the trainable subset are what count.
    assert sorted(v.name for v in cf.variables) == ["a:0", "b:0", "c:0", "d:0"]
    assert sorted(v.name for v in cf.trainable_variables) == ["a:0", "c:0"]
    assert all(any(v is w for w in (a, b, c, d)) for v in cf.variables)
    # Written-only variables are captured too (TF: c, d, a).
    assert sorted(v.name for v in g.get_concrete_function(1.0).variables) == ["a:0", "c:0", "d:0"]
    assert unused.name not in [v.name for v in cf.variables]


def test_concrete_function_without_variables():
    assert tf.function(lambda x: x + 1).get_concrete_function(1.0).variables == ()


def test_list_all_concrete_functions():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        return x * v

    f(tf.constant(1.0))
    assert len(f._list_all_concrete_functions()) == 1
    f(tf.constant([1.0, 2.0]))
    assert len(f._list_all_concrete_functions()) == 2
    signed = tf.function(lambda x: x, input_signature=[tf.TensorSpec([None])])
    assert len(signed._list_all_concrete_functions()) == 1  # its input_signature, traced on demand


class Table(tf.saved_model.experimental.TrackableResource):
    def __init__(self):
        super().__init__()
        self.created = 0

    def _create_resource(self):
        self.created += 1
        return tf.raw_ops.HashTableV2(key_dtype=tf.string, value_dtype=tf.int64)


def test_trackable_resource_creates_its_handle_once_on_first_use():
    table = Table()
    assert table.created == 0
    assert table.resource_handle.dtype == tf.resource
    assert table.resource_handle is table.resource_handle
    assert table.created == 1
    assert isinstance(table, tf.__internal__.tracking.Trackable)


def test_trackable_resource_without_create_resource():
    class Bad(tf.saved_model.experimental.TrackableResource):
        pass

    with pytest.raises(NotImplementedError, match="TrackableResource._create_resource not implemented."):
        Bad().resource_handle


def test_trackable_resources_are_descendants():
    module = tf.Module()
    module.table = Table()
    found = [o for o in tf.train.TrackableView(module).descendants()
             if isinstance(o, tf.saved_model.experimental.TrackableResource)]
    assert found == [module.table]
