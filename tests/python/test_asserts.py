"""tf.debugging asserts, eagerly and in graphs. Expected text printed by TensorFlow 2.21."""

import pytest

import graphfn as tf


@pytest.mark.parametrize("call, expected", [
    (lambda: tf.debugging.assert_equal(tf.constant(1), tf.constant(2)),
     "Condition x == y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[2]"),
    (lambda: tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="oops"),
     "oops\nCondition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\nCorresponding x values:\n"
     "[2]\nCorresponding y values:\n[3]\nFirst 2 elements of x:\n[1 2]\nFirst 2 elements of y:\n[1 3]"),
    (lambda: tf.debugging.assert_greater(tf.constant(1), tf.constant(2)),
     "Condition x > y did not hold.\nFirst 1 elements of x:\n[1]\nFirst 1 elements of y:\n[2]"),
    (lambda: tf.debugging.assert_positive(tf.constant([1, -2])),
     "\nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['1', '-2']"),
    (lambda: tf.debugging.assert_less(tf.constant(3.0), 2.0),
     "Condition x < y did not hold.\nFirst 1 elements of x:\n[3.]\nFirst 1 elements of y:\n[2.]"),
    (lambda: tf.debugging.Assert(tf.constant(False), ["x is", tf.constant(3)]),
     "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'x is'\n3"),
])
def test_eager_asserts_raise_with_tensorflows_text(call, expected):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert str(info.value) == expected


def test_passing_asserts_return_none():
    assert tf.debugging.assert_equal(1, 1) is None
    assert tf.debugging.assert_non_negative(tf.constant([0, 3])) is None


def test_asserts_in_graphs_run_on_every_call():
    @tf.function
    def f(x):
        tf.debugging.assert_equal(x, 1, message="must be one")
        return x

    assert f(tf.constant(1)).numpy() == 1
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"assertion failed: \[must be one\] \[Condition x == y did not hold element-wise:\] "
                             r"\[x \(x:0\) = \] \[2\]"):
        f(tf.constant(2))

    @tf.function
    def g(x):
        tf.debugging.Assert(x > 0, [x])
        return x

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        g(tf.constant(-1))
    assert "assertion failed: [-1]\n\t [[{{node Assert/Assert}}]] [Op:__inference_g_" in str(info.value)  # TF's name


def test_unused_ops_in_graphs_do_not_raise_but_eager_ones_do():
    # The seeds' non-strict execution example.
    def unused_return(x):
        tf.gather(x, [1])  # fails when len(x) == 1
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in \[0, 1\) \[Op:GatherV2\]"):
        unused_return(tf.constant([0.0]))
    assert str(tf.function(unused_return)(tf.constant([0.0]))) == "tf.Tensor([0.], shape=(1,), dtype=float32)"


def test_graph_errors_name_the_node_and_function():
    @tf.function
    def h(x):
        return tf.gather(x, [5])

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        h(tf.constant([1.0, 2.0]))
    text = str(info.value)
    assert text.startswith("Graph execution error:\n\nDetected at node GatherV2")
    assert "indices[0] = 5 is not in [0, 2)\n\t [[{{node GatherV2}}]] [Op:__inference_h_" in text
