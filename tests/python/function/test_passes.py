"""Graph optimization passes: functions give the same results with and without them (and as eagerly),
errors stay run-time errors, stateful ops keep their order, and as_graph_def() shows the graph as
traced. Expected values and texts printed by TensorFlow 2.21 or computed with NumPy."""

import re

import numpy as np
import pytest

import graphfn as tf
from graphfn.function import optimizer_options


pytestmark = pytest.mark.usefixtures("verified_passes")  # conftest.py: invariants checked after each pass


def run(python_function, *args, optimize=True):
    """Traces a fresh function with the optimizer on or off and calls it."""
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": not optimize})
    try:
        return tf.function(python_function)(*args)
    finally:
        tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": False})


def assert_same(a, b):
    """Same dtypes, shapes and values (a tensor or a tuple of them)."""
    a, b = (a, b) if isinstance(a, tuple) else ((a,), (b,))
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert (x.dtype, x.shape) == (y.dtype, y.shape)
        np.testing.assert_array_equal(x.numpy(), y.numpy())


def num_steps(python_function, *args, **options):
    optimizer_options._options.update(options)
    return tf.function(python_function).get_concrete_function(*args)._plan.num_steps


X = tf.constant([1.5, -2.0, 3.0])
I = tf.constant([[1, 2, 3], [4, 5, 6]])

CASES = [
    # constant folding
    (lambda x: tf.constant(2.0) * 3.0 + x, X, [7.5, 4.0, 9.0]),
    (lambda x: tf.fill([3], 1.5) * x, X, [2.25, -3.0, 4.5]),
    (lambda x: tf.reshape(tf.range(6), [2, 3]) + x, I, [[1, 3, 5], [7, 9, 11]]),
    (lambda x: tf.cast(tf.constant([1, 2, 3]), tf.float32) / 2.0 + x, X, [2.0, -1.0, 4.5]),
    # common subexpressions
    (lambda x: (x + 1.0) * (x + 1.0), X, [6.25, 1.0, 16.0]),
    (lambda x: x * tf.constant(2.0) + tf.constant(2.0) * x, X, [6.0, -8.0, 12.0]),
    # arithmetic simplification
    (lambda x: x * 1.0 + 0.0 - 0.0, X, [1.5, -2.0, 3.0]),
    (lambda x: 1.0 * (0.0 + x) / 1.0, X, [1.5, -2.0, 3.0]),
    (lambda x: -(-tf.identity(tf.identity(x))), X, [1.5, -2.0, 3.0]),
    (lambda x: x * 1 + 0, I, [[1, 2, 3], [4, 5, 6]]),
    # ... but not when broadcasting changes the shape
    (lambda x: x[0] + tf.zeros([3]), X, [1.5, 1.5, 1.5]),
    (lambda x: x * tf.ones([2, 3]), X, [[1.5, -2.0, 3.0], [1.5, -2.0, 3.0]]),
    (lambda x: tf.reduce_sum(x) * tf.constant([1.0, 1.0]), X, [2.5, 2.5]),
]


@pytest.mark.parametrize("python_function, x, expected", CASES)
def test_same_results_with_and_without_optimization(python_function, x, expected):
    optimized = run(python_function, x)
    np.testing.assert_array_equal(optimized.numpy(), np.array(expected, dtype=x.dtype.as_numpy_dtype))
    assert_same(optimized, run(python_function, x, optimize=False))
    assert_same(optimized, python_function(x))  # eagerly


def test_optimization_removes_steps():
    def f(x):
        y = x * 1.0 + tf.constant(2.0) * 3.0
        z = x * 1.0 + tf.constant(2.0) * 3.0
        return tf.identity(y + z), -(-x)
    # 12 nodes less the three Identity nodes, which the plan runs as aliases of their inputs
    assert num_steps(f, X, disable_meta_optimizer=True) == 9
    assert num_steps(f, X, disable_meta_optimizer=False) == 2  # y = x + 6 (z merged into it), y + z
    assert num_steps(f, X, constant_folding=False) == 3  # and 2.0 * 3.0
    assert num_steps(f, X, constant_folding=True, arithmetic_optimization=False) == 7


def test_as_graph_def_lists_the_nodes_as_traced():
    @tf.function
    def g(x):
        y = x * 1.0 + 2.0
        z = x * 1.0 + 2.0
        return tf.identity(y + z), -(-x)
    a, b = g(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(a.numpy(), [6.0, 8.0])
    np.testing.assert_array_equal(b.numpy(), [1.0, 2.0])
    nodes = g.get_concrete_function(tf.constant([1.0, 2.0])).graph.as_graph_def().node
    assert [n.name for n in nodes] == ["x", "mul/y", "mul", "add/y", "add", "mul_1/y", "mul_1", "add_1/y", "add_1",
                                       "add_2", "Identity", "Neg", "Neg_1", "Identity_1", "Identity_2"]
    assert [n.op for n in nodes] == ["Placeholder", "Const", "Mul", "Const", "AddV2", "Const", "Mul", "Const",
                                     "AddV2", "AddV2", "Identity", "Neg", "Neg", "Identity", "Identity"]


def _without_function_name(message):
    return re.sub(r"__inference_\w+_\d+", "F", message)


def test_failing_constant_ops_fail_at_run_time_only_if_used():
    def unused(x):
        tf.constant(1) // tf.constant(0)
        return x + 1
    assert int(run(unused, tf.constant(3))) == 4

    def used(x):
        return x + tf.constant(1) // tf.constant(0)
    messages = []
    for optimize in (True, False):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            run(used, tf.constant(3), optimize=optimize)
        messages.append(_without_function_name(str(info.value)))
    assert messages[0] == messages[1]
    frames = re.search(r" defined at \(most recent call last\):\n(  File .*\n\n)+", messages[0])
    assert frames.group(0).endswith(", in used\n\n")
    assert messages[0].replace(frames.group(0), ":\n") == (
        "Graph execution error:\n\nDetected at node floordiv:\nInteger division by zero\n"
        "\t [[{{node floordiv}}]] [Op:F]")


def test_asserts_on_constants_still_run():
    def f(x):
        tf.debugging.Assert(tf.equal(tf.constant(1), tf.constant(2)), [x])
        return x + 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="assertion failed: \\[3\\]"):
        run(f, tf.constant(3))


def test_variables_and_prints_keep_their_order(capfd):
    def update(x):
        v.assign(x * (2.0 * 3.0))
        tf.print("after assign", v)
        v.assign_add(v * 1.0 + 0.0)
        tf.print("after add", v)
        return v.read_value() + 0.0, v * 1.0
    results = []
    for optimize in (True, False):
        v = tf.Variable([1.0, 2.0])
        results.append(run(update, tf.constant([1.0, 2.0]), optimize=optimize))
        assert capfd.readouterr().err == "after assign [6 12]\nafter add [12 24]\n"
        np.testing.assert_array_equal(v.numpy(), [12.0, 24.0])
    assert_same(results[0], results[1])
    np.testing.assert_array_equal(results[0][0].numpy(), [12.0, 24.0])


def test_equal_prints_are_not_merged(capfd):
    def f(x):
        tf.print("hi")
        tf.print("hi")
        return x
    run(f, tf.constant(1))
    assert capfd.readouterr().err == "hi\nhi\n"


def test_random_ops_are_not_folded_or_merged():
    def f():
        return tf.random.uniform([2], seed=3), tf.random.uniform([2], seed=3)
    results = []
    for optimize in (True, False):
        tf.random.set_seed(1)
        results.append(run(f, optimize=optimize))
    assert_same(results[0], results[1])
    fn = tf.function(lambda: tf.random.uniform([2]))
    assert not np.array_equal(fn().numpy(), fn().numpy())


def test_signed_zero_and_static_shapes_follow_tensorflow():
    # TF's grappler rewrites x + 0 to x as well: -0.0 stays -0.0 (and is +0.0 without it).
    assert np.signbit(run(lambda x: x + 0.0, tf.constant(-0.0)).numpy())
    assert not np.signbit(run(lambda x: x + 0.0, tf.constant(-0.0), optimize=False).numpy())
    # A concrete function traced for [3] and called with a scalar: x + zeros([3]) was simplified
    # by its static shape, so the scalar comes back (TF 2.21 prints the same).
    f = tf.function(lambda x: x + tf.zeros([3]))
    cf = f.get_concrete_function(tf.constant([1.0, 2.0, 3.0]))
    assert repr(cf(tf.constant(1.0))) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"


def test_experimental_options_like_tensorflow():
    opts = tf.config.optimizer
    assert opts.get_experimental_options() == {"disable_model_pruning": False, "disable_meta_optimizer": False}
    opts.set_experimental_options({"arithmetic_optimization": True})
    opts.set_experimental_options({"constant_folding": False, "bogus": True, "auto_parallel": True})
    assert list(opts.get_experimental_options().items()) == [
        ("constant_folding", False), ("arithmetic_optimization", True), ("disable_model_pruning", False),
        ("disable_meta_optimizer", False)]
    opts.set_experimental_options({"disable_meta_optimizer": 1, "min_graph_nodes": 2, "debug_stripper": 0})
    assert list(opts.get_experimental_options().items()) == [
        ("constant_folding", False), ("arithmetic_optimization", True), ("debug_stripper", False),
        ("disable_model_pruning", False), ("disable_meta_optimizer", True), ("min_graph_nodes", 2)]


def test_seeded_random_nodes_each_have_their_own_stream():
    # TF 2.21: equal values from the two nodes within a call, new values on the next call.
    @tf.function
    def f():
        return tf.random.uniform([2], seed=1), tf.random.uniform([2], seed=1)

    a, b = f()
    c, d = f()
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(c.numpy(), d.numpy())
    assert not np.array_equal(a.numpy(), c.numpy())
