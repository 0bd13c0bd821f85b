"""A list holding graph tensors passed where an op takes one tensor is packed into one, as TF's
conversion packs it: tf.broadcast_to(x, [tf.shape(y)[0], 2]), raw ops, tf.random's shapes
(Keras's metrics broadcast sample weights this way once batch sizes are unknown). Values
recorded from TF 2.21."""

import pytest

import graphfn as tf


@tf.function(input_signature=[tf.TensorSpec([None])])
def packed_shapes(v):
    n = tf.shape(v)[0]
    return (tf.broadcast_to(tf.reshape(v, [-1, 1]), (n, 2)),
            tf.raw_ops.BroadcastTo(input=v, shape=[n]),
            tf.shape(tf.random.uniform([n, 2], seed=1)),
            tf.broadcast_to(v, [tf.constant(3, tf.int64)]),
            tf.tile(tf.reshape(v, [-1, 1]), [1, n]))


def test_lists_of_graph_tensors_are_packed():
    a, b, c, d, e = packed_shapes(tf.constant([1.0, 2.0, 3.0]))
    assert a.numpy().tolist() == [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert b.numpy().tolist() == [1.0, 2.0, 3.0]
    assert c.numpy().tolist() == [3, 2] and c.dtype == tf.int32
    assert d.numpy().tolist() == [1.0, 2.0, 3.0]
    assert e.numpy().tolist() == [[1.0] * 3, [2.0] * 3, [3.0] * 3]


def test_a_list_with_a_float_for_an_int_shape_is_a_type_error():
    f = tf.function(lambda v: tf.broadcast_to(v, [tf.shape(v)[0], 2.5]), input_signature=[tf.TensorSpec([None])])
    with pytest.raises(TypeError):
        f(tf.ones([2]))
