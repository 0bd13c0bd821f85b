"""tf.Graph, tf.compat.v1.placeholder and tf.compat.v1.Session, as TensorFlow 2.21 runs the
TF 1.x-style code of its migration guides (guide/migrate/*.ipynb).

Every expected value, name, printed text and error below was recorded from TF 2.21
(~/tf/bin/python) running the same code; GRAPHFN_CASES_BACKEND=tensorflow runs this file on
TensorFlow to re-check them (the few graphfn-only checks say so and are skipped there)."""

import importlib
import os
import threading

import numpy as np
import pytest

tf = importlib.import_module(os.environ.get("GRAPHFN_CASES_BACKEND", "graphfn"))

tf1 = tf.compat.v1


def test_the_compat_v1_names_graphfn_has_are_tensorflows():
    # Recorded: each is an attribute of TF 2.21's tf.compat.v1, and tf.compat.v1.Graph is tf.Graph.
    recorded = {"compat.v1.Graph", "compat.v1.get_default_graph", "compat.v1.reset_default_graph",
                "compat.v1.placeholder", "compat.v1.Session", "compat.v1.get_default_session"}
    # The file names (docs/io.md), each a path of TF 2.21's tf.compat.v1 too.
    recorded |= {"compat.v1.gfile." + n for n in ("Copy", "DeleteRecursively", "Exists", "GFile", "Glob",
                                                  "IsDirectory", "ListDirectory", "MakeDirs", "MkDir", "Remove",
                                                  "Rename", "Stat", "Walk")}
    recorded |= {"compat.v1.io.TFRecordCompressionType", "compat.v1.io.TFRecordOptions", "compat.v1.io.TFRecordWriter",
                 "compat.v1.io.tf_record_iterator", "compat.v1.python_io.TFRecordCompressionType",
                 "compat.v1.python_io.tf_record_iterator", "compat.v1.read_file", "compat.v1.write_file"}
    for name in recorded:
        obj = tf
        for part in name.split("."):
            obj = getattr(obj, part)
    assert tf.compat.v1.Graph is tf.Graph
    if tf.__name__ == "graphfn":
        from graphfn.util import tf_export
        assert {n for n, _ in tf_export._EXPORTS if n.startswith("compat.")} <= recorded


def _sample_graph():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="a")
        b = tf.constant([1.0, 2.0])
        c = a + b
        x = tf1.placeholder(tf.float32, shape=[None, 2], name="x")
        y = tf.multiply(x, 2.0, name="y")
        with g.name_scope("s"):
            tf.identity(y)
        with g.control_dependencies([c]):
            tf.identity(a)
    return g


# Building --------------------------------------------------------------------------------------

def test_ops_inside_as_default_are_symbolic_tensors_of_the_graph():
    g = tf.Graph()
    assert not g.finalized and not g.building_function and g.version == 0
    with g.as_default() as entered:
        assert entered is g
        assert tf1.get_default_graph() is g
        assert not tf.executing_eagerly()
        a = tf.constant(1.0, name="a")
        c = a + tf.constant([1.0, 2.0])
    assert tf.executing_eagerly()
    assert repr(a) == "<tf.Tensor 'a:0' shape=() dtype=float32>"
    assert str(a) == 'Tensor("a:0", shape=(), dtype=float32)'
    assert c.graph is g and c.op.graph is g
    assert isinstance(g, tf.Graph) and isinstance(c.graph, tf.Graph)


def test_names_scopes_and_control_dependencies_match_tf():
    g = _sample_graph()
    assert [op.name for op in g.get_operations()] == [
        "a", "Const", "add", "x", "y/y", "y", "s/Identity", "Identity"]
    assert [op.type for op in g.get_operations()] == [
        "Const", "Const", "AddV2", "Placeholder", "Const", "Mul", "Identity", "Identity"]
    assert repr(g.get_operation_by_name("Identity").control_inputs) == "[<tf.Operation 'add' type=AddV2>]"
    assert str(g.get_tensor_by_name("y:0")) == 'Tensor("y:0", shape=(None, 2), dtype=float32)'
    assert repr(g.get_tensor_by_name("x:0")) == "<tf.Tensor 'x:0' shape=(None, 2) dtype=float32>"
    assert g.get_operation_by_name("y").type == "Mul"
    assert isinstance(g.get_operation_by_name("y"), tf.Operation)


def test_graph_name_scope_is_made_unique_like_tf():
    g = tf.Graph()
    with g.as_default():
        with g.name_scope("a") as first:
            pass
        with g.name_scope("a") as second:
            pass
        assert (first, second) == ("a/", "a_1/")
        assert tf1.placeholder(tf.float32, name="ph", shape=(2,)).name == "ph:0"
        with tf.name_scope("sc"):
            assert tf1.placeholder(tf.float32).name == "sc/Placeholder:0"


@pytest.mark.parametrize("outer, name, expected", [
    (None, b"by", "by/"),
    (None, "ok/", "ok/"),
    ("outer", "_x", "outer/_x/"),
    ("outer", None, ""),
])
def test_graph_name_scope_names(outer, name, expected):
    g = tf.Graph()
    with g.name_scope(outer) if outer else g.name_scope(None):
        with g.name_scope(name) as scope:
            assert scope == expected


@pytest.mark.parametrize("outer, name, error, message", [
    (None, 3, TypeError, "expected string or bytes-like object, got 'int'"),
    (None, "bad name!", ValueError, "'bad name!' is not a valid root scope name. A root scope name has to match the "
                                    "following pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$"),
    (None, "_x", ValueError, "'_x' is not a valid root scope name. A root scope name has to match the following "
                             "pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$"),
    ("outer", "bad name", ValueError, "'bad name' is not a valid scope name. A scope name has to match the "
                                      "following pattern: ^[A-Za-z0-9_.\\\\/>-]*$"),
])
def test_graph_name_scope_errors(outer, name, error, message):
    g = tf.Graph()
    with g.name_scope(outer) if outer else g.name_scope(None):
        with pytest.raises(error) as info:
            with g.name_scope(name):
                pass
    assert str(info.value) == message


def test_as_graph_def_lists_the_nodes_with_control_inputs_last():
    gd = _sample_graph().as_graph_def()
    assert [n.name for n in gd.node] == ["a", "Const", "add", "x", "y/y", "y", "s/Identity", "Identity"]
    assert gd.node[-1].input == ["a", "^add"]
    assert 'name: "y"\n  op: "Mul"\n  input: "x"\n  input: "y/y"' in str(gd)
    assert tf.Graph().get_operations() == []


def test_graph_device_is_a_no_op_on_the_cpu():
    g = tf.Graph()
    with g.as_default(), g.device("/cpu:0"):
        t = tf.constant(1)
    assert t.graph is g


# Errors of lookups, finalize and cross-graph use -----------------------------------------------

TENSOR_NAME_ERRORS = [
    ("nope:0", KeyError, "The name 'nope:0' refers to a Tensor which does not exist. The operation, 'nope', "
                         "does not exist in the graph."),
    ("y:5", KeyError, "The name 'y:5' refers to a Tensor which does not exist. The operation, 'y', exists but "
                      "only has 1 outputs."),
    ("y", ValueError, "The name 'y' refers to an Operation, not a Tensor. Tensor names must be of the form "
                      '"<op_name>:<output_index>".'),
    ("nope", ValueError, "The name 'nope' looks like an (invalid) Operation name, not a Tensor. Tensor names "
                         'must be of the form "<op_name>:<output_index>".'),
    (":0", KeyError, "The name ':0' refers to a Tensor which does not exist. The operation, '', does not exist "
                     "in the graph."),
    (3, TypeError, "Tensor names are strings (or similar), not int."),
]


@pytest.mark.parametrize("name, error, message", TENSOR_NAME_ERRORS)
def test_get_tensor_by_name_errors(name, error, message):
    with pytest.raises(error) as info:
        _sample_graph().get_tensor_by_name(name)
    assert info.value.args[0] == message


@pytest.mark.parametrize("name, error, message", [
    ("nope", KeyError, "The name 'nope' refers to an Operation not in the graph."),
    ("y:0", ValueError, "Name 'y:0' appears to refer to a Tensor, not a Operation."),
    (3, TypeError, "Operation names are strings (or similar), not int."),
])
def test_get_operation_by_name_errors(name, error, message):
    with pytest.raises(error) as info:
        _sample_graph().get_operation_by_name(name)
    assert info.value.args[0] == message


def test_a_finalized_graph_refuses_new_ops():
    g = _sample_graph()
    g.finalize()
    assert g.finalized
    before = len(g.get_operations())
    with g.as_default():
        with pytest.raises(RuntimeError, match="^Graph is finalized and cannot be modified.$"):
            tf.constant(1)
        with pytest.raises(RuntimeError, match="^Graph is finalized and cannot be modified.$"):
            tf1.placeholder(tf.float32)
    assert len(g.get_operations()) == before
    g.finalize()  # again: no error, as TF


def test_control_dependencies_on_a_tensor_of_another_graph():
    g, other = tf.Graph(), tf.Graph()
    with other.as_default():
        k = tf.constant(1)
    with pytest.raises(ValueError) as info:
        g.control_dependencies([k])
    assert str(info.value) == 'Tensor Tensor("Const:0", shape=(), dtype=int32) is not an element of this graph.'


def test_placeholder_eagerly_is_an_error():
    with pytest.raises(RuntimeError, match=r"^tf.placeholder\(\) is not compatible with eager execution.$"):
        tf1.placeholder(tf.float32)


# The default graph is per thread -------------------------------------------------------------

def test_default_graph_outside_as_default_is_one_graph_per_thread():
    first, second = tf1.get_default_graph(), tf1.get_default_graph()
    assert first is second and isinstance(first, tf.Graph)
    seen = []
    worker = threading.Thread(target=lambda: seen.append(tf1.get_default_graph()))
    worker.start()
    worker.join()
    assert seen[0] is not first


def test_as_default_does_not_leak_into_other_threads():
    g = tf.Graph()
    seen = []

    def other_thread():
        seen.append(tf1.get_default_graph() is g)
        seen.append(tf.executing_eagerly())
        seen.append(tf.constant(2).numpy())  # eager in this thread

    with g.as_default():
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        assert tf1.get_default_graph() is g
    assert seen == [False, True, 2]
    assert g.get_operations() == []


def test_two_threads_build_two_graphs_at_once():
    graphs, errors = {}, []
    barrier = threading.Barrier(2)

    def build(index):
        try:
            g = tf.Graph()
            with g.as_default():
                x = tf1.placeholder(tf.int32, shape=[])
                barrier.wait()
                y = x
                for _ in range(50):
                    y = y + index
            with tf1.Session(graph=g) as sess:
                graphs[index] = (len(g.get_operations()), sess.run(y, {x: 1}))
        except Exception as e:  # reported below
            errors.append(e)

    workers = [threading.Thread(target=build, args=(i,)) for i in (1, 2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    assert graphs == {1: (101, 51), 2: (101, 101)}


def test_one_session_runs_in_many_threads_at_once():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.int32, shape=[None])
        y = tf.reduce_sum(x * x)
    results, errors = {}, []
    with tf1.Session(graph=g) as sess:
        def work(k):
            try:
                results[k] = [int(sess.run(y, {x: [k, i]})) for i in range(200)]
            except Exception as e:  # reported below
                errors.append(e)

        workers = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert errors == []
    assert results == {k: [k * k + i * i for i in range(200)] for k in range(4)}


def test_a_graph_keeps_its_kind_after_the_tf_graph_object_is_gone():
    import gc

    def build():
        g = tf.Graph()
        with g.as_default():
            x = tf1.placeholder(tf.float32, [], name="x")
            return x, x * 2

    x, y = build()
    gc.collect()
    assert isinstance(y.graph, tf.Graph) and not y.graph.building_function
    with tf1.Session(graph=y.graph) as sess:
        assert sess.run(y, {x: 1}) == 2.0
        assert tf1.placeholder(tf.float32).name == "Placeholder:0"


# Function graphs are tf.Graphs -----------------------------------------------------------------

def test_a_concrete_functions_graph_is_a_tf_graph():
    @tf.function
    def f(x):
        return x * 2

    graph = f.get_concrete_function(tf.constant(1)).graph
    assert isinstance(graph, tf.Graph)
    assert graph.name == "f" and graph.building_function and not graph.finalized
    assert [op.type for op in graph.get_operations()][:1] == ["Placeholder"]
    assert graph.get_tensor_by_name("x:0").dtype == tf.int32


def test_inside_a_function_the_default_graph_is_the_traced_graph():
    seen = []

    @tf.function
    def h(x):
        seen.append((isinstance(x.graph, tf.Graph), tf1.get_default_graph() is x.graph))
        return x

    h(tf.constant(1))
    assert seen == [(True, True)]


def test_tensors_of_function_graphs_stay_unhashable():
    @tf.function
    def f(x):
        with pytest.raises(TypeError, match="Tensor is unhashable. Instead, use tensor.ref"):
            hash(x)
        return x

    f(tf.constant(1))
    g = tf.Graph()
    with g.as_default():
        t = tf.constant(1)
    assert {t: 1}[t] == 1  # a tf.Graph's tensors hash by identity, as in TF


def test_a_tf_graphs_tensors_compare_by_identity():
    g = tf.Graph()
    with g.as_default():
        x, y = tf.constant(1), tf.constant(1)
        assert (x == x, x == y, x != y, x == 1, x != 1, x in [y, x], x == None) == (  # noqa: E711
            True, False, True, False, True, True, False)
    assert (x == x, x == y, x in [y]) == (True, False, False)
    assert len(g.get_operations()) == 2  # no Equal nodes were added

    @tf.function
    def f(a):
        assert isinstance(a == a, tf.Tensor)  # a function's tensors compare element-wise
        return a

    f(tf.constant(1))


# Session.run -------------------------------------------------------------------------------------

def _session_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[], name="x")
        y = tf.multiply(x, 3.0, name="y")
        c = tf.constant([1, 2], name="c")
        n = tf.no_op(name="n")
        p2 = tf1.placeholder(tf.int32, shape=[2])
        s = p2 + c
    return g, x, y, c, n, p2, s


def test_session_run_values_and_structures():
    g, x, y, c, n, p2, s = _session_graph()
    with tf1.Session(graph=g) as sess:
        assert sess.graph is g
        out = sess.run(y, feed_dict={x: 5})
        assert type(out) is np.float32 and out == 15.0
        assert sess.run(y, {x: 5.0}) == 15.0
        assert sess.run("y:0", feed_dict={"x:0": 5}) == 15.0
        out = sess.run([y, c], feed_dict={x: 2})
        assert isinstance(out, list) and out[0] == 6.0
        np.testing.assert_array_equal(out[1], np.array([1, 2], np.int32))
        assert out[1].dtype == np.int32
        out = sess.run({"a": y, "b": (c, [c])}, feed_dict={x: 2})
        assert repr(out) == ("{'a': np.float32(6.0), 'b': (array([1, 2], dtype=int32), "
                             "[array([1, 2], dtype=int32)])}")
        assert sess.run(n) is None
        assert repr(sess.run([n, c])) == "[None, array([1, 2], dtype=int32)]"
        assert repr(sess.run(s, feed_dict={p2: [1.5, 2]})) == "array([2, 4], dtype=int32)"
        assert repr(sess.run(c, feed_dict={c: [5, 6]})) == "array([5, 6], dtype=int32)"
        assert repr(sess.run(x, feed_dict={x: 7})) == "array(7., dtype=float32)"
        assert sess.run([]) == [] and sess.run(()) == ()
        assert sess.run(y.op, feed_dict={x: 1}) is None


def test_session_run_strings_int64_and_bools():
    g = tf.Graph()
    with g.as_default():
        st, i64, bo = tf.constant("hi"), tf.constant(5, dtype=tf.int64), tf.constant([True])
    with tf1.Session(graph=g) as sess:
        assert repr(sess.run([st, i64, bo])) == "[b'hi', np.int64(5), array([ True])]"


def test_session_enters_its_graph_and_becomes_the_default_session():
    g, *_ = _session_graph()
    with g.as_default():
        with tf1.Session() as sess:
            assert sess.graph is g
            assert tf1.get_default_session() is sess
            # ops made inside `with Session(graph=...)` go into its graph
    with tf1.Session(graph=g) as sess:
        one = tf.constant(1)
        assert one.graph is g
        assert sess.run(one) == 1
    assert tf1.get_default_session() is None


def test_session_runs_only_what_the_fetches_need():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[])
        bad = tf.debugging.assert_positive(x)  # stateful, but not needed by the fetch
        c = tf.constant(2.0)
    with tf1.Session(graph=g) as sess:
        assert sess.run(c) == 2.0
        sess.run(bad, {x: 1.0})
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(bad, {x: -1.0})


def test_session_run_after_the_graph_grew_and_with_variables_in_graph_functions():
    g = tf.Graph()
    with tf1.Session(graph=g) as sess:
        x = tf1.placeholder(tf.float32, shape=[None])
        y = tf.reduce_sum(x)
        assert sess.run(y, {x: [1, 2, 3]}) == 6.0
        z = y * 2
        assert sess.run(z, {x: [1, 2, 3]}) == 12.0
        assert sess.run(tf.cond(y > 0, lambda: y, lambda: -y), {x: [-4.0]}) == 4.0


SESSION_ERRORS = [
    (lambda s, t: s.run(t["y"]), tf.errors.InvalidArgumentError,
     "You must feed a value for placeholder tensor 'x' with dtype float"),
    (lambda s, t: s.run(t["s"]), tf.errors.InvalidArgumentError,
     "You must feed a value for placeholder tensor 'Placeholder' with dtype int32 and shape [2]"),
    (lambda s, t: s.run(t["y"], feed_dict={t["x"]: [1., 2.]}), ValueError,
     "Cannot feed value of shape (2,) for Tensor x:0, which has shape ()"),
    (lambda s, t: s.run(t["s"], feed_dict={t["p2"]: [1, 2, 3]}), ValueError,
     "Cannot feed value of shape (3,) for Tensor Placeholder:0, which has shape (2,)"),
    (lambda s, t: s.run(t["y"], feed_dict={t["x"]: "a"}), ValueError, "could not convert string to float"),
    (lambda s, t: s.run("nope:0"), ValueError,
     "Argument `fetch` = nope:0 cannot be interpreted as a Tensor. (\"The name 'nope:0' refers to a Tensor which "
     "does not exist. The operation, 'nope', does not exist in the graph.\")"),
    (lambda s, t: s.run(3), TypeError,
     'Argument `fetch` = 3 has invalid type "int" must be a string or Tensor. (Can not convert a int into a '
     'Tensor or Operation.)'),
    (lambda s, t: s.run(None), TypeError, 'Argument `fetch` = None has invalid type "NoneType". Cannot be None'),
    (lambda s, t: s.run(t["y"], feed_dict={"nope:0": 1}), TypeError,
     "Cannot interpret feed_dict key as Tensor: The name 'nope:0' refers to a Tensor which does not exist. "
     "The operation, 'nope', does not exist in the graph."),
    (lambda s, t: s.run(t["other"]), ValueError,
     'Argument `fetch` = Tensor("Const:0", shape=(), dtype=int32) cannot be interpreted as a Tensor. (Tensor '
     'Tensor("Const:0", shape=(), dtype=int32) is not an element of this graph.)'),
]


@pytest.mark.parametrize("call, error, message", SESSION_ERRORS)
def test_session_run_errors(call, error, message):
    g, x, y, c, n, p2, s = _session_graph()
    other = tf.Graph()
    with other.as_default():
        k = tf.constant(1)
    tensors = dict(x=x, y=y, s=s, p2=p2, other=k)
    with tf1.Session(graph=g) as sess:
        with pytest.raises(error) as info:
            call(sess, tensors)
    assert message in str(info.value)


def test_session_feed_values_and_empty_graphs():
    g, x, y, *_ = _session_graph()
    with tf1.Session(graph=g) as sess:
        with pytest.raises(TypeError, match="^The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                                            "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles."):
            sess.run(y, {x: tf.constant(1.0)})
        assert repr(sess.run([y, y], {x: 1})) == "[np.float32(3.0), np.float32(3.0)]"
    with pytest.raises(RuntimeError, match=r"^The Session graph is empty. Add operations to the graph before "
                                           r"calling run\(\).$"):
        tf1.Session(graph=tf.Graph()).run([])


def _feed_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[None], name="x")
        i = tf1.placeholder(tf.int32, shape=[], name="i")
        s = tf1.placeholder(tf.string, shape=[None], name="s")
        b = tf1.placeholder(tf.bool, shape=[])
        tensors = dict(x=x, i=i, s=s, y=x * 2, j=i + 1, u=tf.identity(s), nb=tf.logical_not(b), b=b)
    return g, tensors


@pytest.mark.parametrize("fetch, feeds, expected", [
    ("j", {"i": 2.7}, "np.int32(3)"),
    ("j", {"i": np.int64(5)}, "np.int32(6)"),
    ("u", {"s": ["a", b"b"]}, "array([b'a', b'b'], dtype=object)"),
    ("nb", {"b": 1}, "np.False_"),
    ("y", {"x": np.zeros([0], np.float32)}, "array([], dtype=float32)"),
    ("y", {"x": np.arange(3, dtype=np.float64)}, "array([0., 2., 4.], dtype=float32)"),
    ("y", {"x": [float("nan")]}, "array([nan], dtype=float32)"),
])
def test_session_converts_feeds_to_the_tensors_dtype(fetch, feeds, expected):
    g, t = _feed_graph()
    with tf1.Session(graph=g) as sess:
        assert repr(sess.run(t[fetch], {t[k]: v for k, v in feeds.items()})) == expected


@pytest.mark.parametrize("fetch, feeds, error, message", [
    ("y", {"x": None}, ValueError, "Cannot feed value of shape () for Tensor x:0, which has shape (None,)"),
    ("y", {"x": [[1], [1, 2]]}, ValueError, "setting an array element with a sequence."),
    ("j", {"i": 2 ** 40}, TypeError,
     "Type of feed value 1099511627776 with type <class 'int'> is not compatible with Tensor type <class "
     "'numpy.int32'>. Try explicitly setting the type of the feed tensor to a larger type (e.g. int64)."),
    ("u", {"s": [1, 2]}, tf.errors.InternalError, "Graph execution error:\n\nUnsupported object type int"),
])
def test_session_feed_value_errors(fetch, feeds, error, message):
    g, t = _feed_graph()
    with tf1.Session(graph=g) as sess:
        with pytest.raises(error) as info:
            sess.run(t[fetch], {t[k]: v for k, v in feeds.items()})
    assert message in str(info.value)


def test_session_argument_and_closed_errors():
    with pytest.raises(TypeError, match='^Argument `graph` must be a tf.Graph, but got "int"$'):
        tf1.Session(graph=3)
    g, x, y, c, *_ = _session_graph()
    with tf1.Session(graph=g) as sess:
        pass
    with pytest.raises(RuntimeError, match="^Attempted to use a closed Session.$"):
        sess.run(c)


# tf.graph_util.import_graph_def --------------------------------------------------------------

def _graph_def_to_import():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=[2], name="x")
        y = tf.multiply(x, 3.0, name="y")
        with tf.control_dependencies([y]):
            tf.identity(x, name="z")
    return g.as_graph_def()


def test_import_graph_def_copies_the_nodes_under_import():
    gd = _graph_def_to_import()
    g = tf.Graph()
    with g.as_default():
        assert tf.graph_util.import_graph_def(gd) is None
        assert tf.graph_util.import_graph_def(gd, name="") is None
        assert tf.graph_util.import_graph_def(gd) is None
    assert [op.name for op in g.get_operations()] == [
        "import/x", "import/y/y", "import/y", "import/z", "x", "y/y", "y", "z",
        "import_1/x", "import_1/y/y", "import_1/y", "import_1/z"]
    assert repr(g.get_operation_by_name("import/z").control_inputs) == "[<tf.Operation 'import/y' type=Mul>]"
    with tf1.Session(graph=g) as sess:
        assert repr(sess.run("import/y:0", {"import/x:0": [1, 2]})) == "array([3., 6.], dtype=float32)"


def test_import_graph_def_return_elements_and_input_map():
    gd = _graph_def_to_import()
    g = tf.Graph()
    with g.as_default():
        returned = tf.graph_util.import_graph_def(gd, return_elements=["y:0", "z"], name="b")
        assert repr(returned) == "[<tf.Tensor 'b/y:0' shape=(2,) dtype=float32>, <tf.Operation 'b/z' type=Identity>]"
        c = tf.constant([1.0, 2.0], name="c")
        (mapped,) = tf.graph_util.import_graph_def(gd, input_map={"x:0": c}, return_elements=["y:0"], name="m")
        assert [op.name for op in g.get_operations()][-4:] == ["m/x", "m/y/y", "m/y", "m/z"]
        with tf1.Session() as sess:
            assert repr(sess.run(mapped)) == "array([3., 6.], dtype=float32)"


@pytest.mark.parametrize("call, error, message", [
    (lambda gd, c: tf.graph_util.import_graph_def(gd, return_elements=["nope:0"]), ValueError,
     "Requested return tensor 'nope:0' not found in graph def"),
    (lambda gd, c: tf.graph_util.import_graph_def(gd, input_map={"nope:0": c}), ValueError,
     "Attempted to map inputs that were not found in graph_def: [nope:0]"),
    (lambda gd, c: tf.graph_util.import_graph_def(gd, input_map={"x:0": tf.constant([1, 2])}), ValueError,
     "Input 0 of node import/y was passed int32 from Const_1:0 incompatible with expected float."),
    (lambda gd, c: tf.graph_util.import_graph_def(3), TypeError, "Argument `graph_def` must be a GraphDef proto."),
])
def test_import_graph_def_errors(call, error, message):
    gd = _graph_def_to_import()
    g = tf.Graph()
    with g.as_default():
        c = tf.constant([1.0, 2.0])
        with pytest.raises(error) as info:
            call(gd, c)
    assert str(info.value) == message


# Names TF 1.x code looks tensors up by ------------------------------------------------------

def test_reductions_are_named_by_their_name_argument():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None])
        reductions = [tf.reduce_mean, tf.reduce_sum, tf.reduce_max, tf.reduce_min, tf.reduce_prod]
        assert [f(x, name="n%d" % i).name for i, f in enumerate(reductions)] == ["n0:0", "n1:0", "n2:0", "n3:0", "n4:0"]
        b = tf1.placeholder(tf.bool, [None])
        assert tf.reduce_any(b, name="any").name == "any:0"
        assert tf.reduce_all(b, axis=0, name="all").name == "all:0"
        assert tf.reduce_sum(x, axis=0, name="ax").name == "ax:0"
    assert [o.name for o in g.get_operations()] == [
        "Placeholder", "Const", "n0", "Const_1", "n1", "Const_2", "n2", "Const_3", "n3", "Const_4", "n4",
        "Placeholder_1", "Const_5", "any", "all/reduction_indices", "all", "ax/reduction_indices", "ax"]


def test_the_tf1_example_fits_the_line_as_tf_does():
    if tf.__name__ != "graphfn":
        pytest.skip("runs examples/tf1_graph_session.py, written for graphfn")
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples"))
    try:
        import tf1_graph_session
    finally:
        sys.path.pop(0)
    loss, params = tf1_graph_session.fit()
    # TF 2.21 running the same program: loss 2.3412384e-14, w = [2.9999998, 0.5].
    assert loss < 1e-12
    np.testing.assert_allclose(params, [2.9999998, 0.5], rtol=1e-6)
