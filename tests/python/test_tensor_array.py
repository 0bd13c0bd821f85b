"""graphfn.TensorArray eagerly and in functions (TensorList ops carried through while_loop).
Every expected value, node name and message was printed by TensorFlow 2.21 for the same code."""

import numpy as np
import pytest

import graphfn as tf


def _raises(fn, exc):
    with pytest.raises(exc) as e:
        fn()
    return str(e.value)


def test_eager_write_read_stack():
    ta = tf.TensorArray(tf.int32, size=3)
    assert (str(ta.element_shape), ta.dynamic_size, ta.dtype) == ("<unknown>", False, tf.int32)
    ta2 = ta.write(0, 1).write(1, 2).write(2, 3)
    assert ta2.stack().numpy().tolist() == [1, 2, 3]
    assert ta2.size().numpy() == 3
    assert ta2.read(1).numpy() == 2
    dynamic = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(2, [1., 2.])
    assert dynamic.stack().numpy().tolist() == [[0., 0.], [0., 0.], [1., 2.]]
    assert dynamic.size().numpy() == 3
    assert tf.TensorArray(tf.int32, size=3).unstack([4, 5, 6]).read(2).numpy() == 6
    empty = tf.TensorArray(tf.int32, size=0).stack()
    assert empty.shape == (0,) and empty.dtype == tf.int32
    assert tf.TensorArray(tf.int32, size=0, element_shape=[2]).stack().shape == (0, 2)


def test_eager_errors():
    ta = tf.TensorArray(tf.int32, size=3)
    assert _raises(lambda: ta.write(5, 1), tf.errors.OutOfRangeError) == (
        "Tried to write to index 5 but array is not resizeable and size is: 3 ")
    assert _raises(lambda: ta.read(7), tf.errors.OutOfRangeError) == "Tried to read from index 7 but array size is: 3 "
    assert _raises(lambda: ta.read(1), ValueError) == "Cannot convert a partially known TensorShape <unknown> to a Tensor."
    assert _raises(lambda: ta.stack(), ValueError) == (
        "Cannot convert a partially known TensorShape <unknown> to a Tensor.")
    assert _raises(lambda: ta.write(0, 1.5), tf.errors.InvalidArgumentError) == (
        "TensorArray dtype is int32 but Op is trying to write dtype float32 ")
    full = tf.TensorArray(tf.int32, size=3).write(0, 1)
    assert _raises(lambda: full.write(1, [1, 2]), ValueError) == "Incompatible shape for value ((2,)), expected (())"


def test_tensor_array_through_a_while_loop():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)

        def body(i, ta):
            return i + 1, ta.write(i, x[i] + 1)

        _, ta = tf.while_loop(lambda i, ta: i < tf.shape(x)[0], body, (0, ta))
        return ta.stack(), ta.size(), ta.read(1)

    stacked, size, item = f(tf.constant([1, 2, 3]))
    assert stacked.numpy().tolist() == [2, 3, 4] and size.numpy() == 3 and item.numpy() == 3
    concrete = f.get_concrete_function(tf.constant([1, 2, 3]))
    assert concrete.output_shapes == (tf.TensorShape([None]), tf.TensorShape([]), tf.TensorShape([]))
    assert [(n.name, n.op, list(n.input)) for n in concrete.graph.as_graph_def().node] == [
        ("x", "Placeholder", []), ("TensorArrayV2/element_shape", "Const", []),
        ("TensorArrayV2/num_elements", "Const", []),
        ("TensorArrayV2", "TensorListReserve", ["TensorArrayV2/element_shape", "TensorArrayV2/num_elements"]),
        ("Const", "Const", []), ("while/maximum_iterations", "Const", []), ("while/loop_counter", "Const", []),
        ("while", "StatelessWhile", ["while/loop_counter", "while/maximum_iterations", "Const", "TensorArrayV2", "x"]),
        ("TensorArrayV2Stack/Const", "Const", []),
        ("TensorArrayV2Stack/TensorListStack", "TensorListStack", ["while:3", "TensorArrayV2Stack/Const"]),
        ("TensorListLength", "TensorListLength", ["while:3"]), ("TensorArrayV2Read/Const", "Const", []),
        ("TensorArrayV2Read/TensorListGetItem/index", "Const", []),
        ("TensorArrayV2Read/TensorListGetItem", "TensorListGetItem",
         ["while:3", "TensorArrayV2Read/TensorListGetItem/index", "TensorArrayV2Read/Const"]),
        ("Identity", "Identity", ["TensorArrayV2Stack/TensorListStack"]),
        ("Identity_1", "Identity", ["TensorListLength"]), ("Identity_2", "Identity", ["TensorArrayV2Read/TensorListGetItem"])]


def test_fixed_size_array_in_a_function():
    @tf.function
    def g(x):
        ta = tf.TensorArray(tf.float32, size=3)
        ta = ta.write(0, x).write(1, x * 2).write(2, x * 3)
        return ta.stack(), ta.read(2)

    stacked, item = g(tf.ones([2]))
    assert stacked.numpy().tolist() == [[1., 1.], [2., 2.], [3., 3.]] and item.numpy().tolist() == [3., 3.]
    assert g.get_concrete_function(tf.ones([2])).output_shapes == (tf.TensorShape([3, 2]), tf.TensorShape([2]))

    @tf.function
    def unwritten(x):
        return tf.TensorArray(tf.float32, size=2).write(0, x).stack()

    assert unwritten(tf.ones([2])).numpy().tolist() == [[1., 1.], [0., 0.]]
    assert unwritten(tf.constant(1.)).numpy().tolist() == [1., 0.]

    @tf.function
    def out_of_bounds(x):
        ta = tf.TensorArray(tf.float32, size=2).write(0, x)
        return ta.write(5, x).stack()

    message = _raises(lambda: out_of_bounds(tf.ones([2])), tf.errors.InvalidArgumentError)
    assert message.startswith("Graph execution error:\n\nDetected at node TensorArrayV2Write_1/TensorListSetItem")
    assert ("Trying to modify element 5 in a list with 2 elements.\n\t [[{{node "
            "TensorArrayV2Write_1/TensorListSetItem}}]]") in message


def test_rnn_with_a_tensor_array():
    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state

        def body(i, state, states):
            state = rnn_step(input_data[i], state)
            return i + 1, state, states.write(i, state)

        _, state, states = tf.while_loop(lambda i, s, ss: i < max_seq_len, body, (0, state, states))
        return tf.transpose(states.stack(), [1, 0, 2])

    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4])
    result = dynamic_rnn(lambda inp, s: inp + s, x, tf.zeros([2, 4]))
    assert result.shape == (2, 3, 4) and result.dtype == tf.float32
    np.testing.assert_array_equal(result.numpy(), np.cumsum(np.arange(24, dtype=np.float32).reshape(2, 3, 4), axis=1))


def test_tensor_arrays_in_cond_and_captured_by_a_loop():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.int32, size=2)
        ta = tf.cond(x > 0, lambda: ta.write(0, x), lambda: ta.write(1, x))
        return ta.stack()

    assert f(tf.constant(3)).numpy().tolist() == [3, 0]
    assert f(tf.constant(-3)).numpy().tolist() == [0, -3]

    @tf.function
    def g(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(x)

        def body(i, s):
            return i + 1, s + ta.read(i)

        return tf.while_loop(lambda i, s: i < ta.size(), body, (0, 0.0))[1]

    assert g(tf.constant([1., 2., 3.5])).numpy() == 6.5
