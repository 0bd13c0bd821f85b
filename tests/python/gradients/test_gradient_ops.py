"""The public ops added for gradients: stop_gradient, broadcast_to, math.unsorted_segment_sum
(expected values and messages from TF 2.21)."""

import pytest

import graphfn as tf

_PREFIX = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_stop_gradient_values():
    t = tf.stop_gradient(tf.constant([1.0, 2.0]))
    assert t.dtype == tf.float32 and t.numpy().tolist() == [1.0, 2.0]


def test_broadcast_to():
    t = tf.broadcast_to(tf.constant([1.0, 2.0]), [2, 2])
    assert t.shape == (2, 2) and t.numpy().tolist() == [[1.0, 2.0], [1.0, 2.0]]
    t = tf.broadcast_to([[1], [2]], [3, 2, 2])
    assert t.dtype == tf.int32 and t.numpy().tolist() == [[[1, 1], [2, 2]]] * 3


@pytest.mark.parametrize("args,message", [
    (([1, 2, 3], [1, 2], [2, 2]), "Incompatible shapes: [3] vs. [2,2]"),
    (([1, 2, 3], [-1, 3]), "Dimension -1 must be >= 0"),
])
def test_broadcast_to_errors(args, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.broadcast_to(args[0], args[-1])
    assert str(e.value).startswith(_PREFIX % "BroadcastTo" + message)


def test_unsorted_segment_sum():
    t = tf.math.unsorted_segment_sum([[1, 2], [3, 4], [5, 6]], [0, 2, 0], 3)
    assert t.dtype == tf.int32 and t.numpy().tolist() == [[6, 8], [0, 0], [3, 4]]
    assert tf.math.unsorted_segment_sum([1, 2, 3], [0, -1, 1], 3).numpy().tolist() == [1, 3, 0]  # -1 dropped


@pytest.mark.parametrize("args,message", [
    (([1, 2, 3], [0, 5, 1], 3), "segment_ids[1] = 5 is out of range [0, 3)"),
    (([1, 2, 3], [0, 1], 3), "data.shape = [3] does not start with segment_ids.shape = [2]"),
    (([1, 2, 3], [0, 1, 1], -1), "Input num_segments == -1 must not be negative."),
])
def test_unsorted_segment_sum_errors(args, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.unsorted_segment_sum(*args)
    assert str(e.value) == _PREFIX % "UnsortedSegmentSum" + message + " [Op:UnsortedSegmentSum]"


def test_add_n():
    t = tf.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])])
    assert t.dtype == tf.int32 and t.numpy().tolist() == [9, 12]
    assert tf.add_n([tf.constant([1.0, 2.0])]).numpy().tolist() == [1.0, 2.0]
    assert tf.add_n([[1, 2], [3, 4]]).numpy().tolist() == [4, 6]
    assert float(tf.math.add_n([1.0, 2.0])) == 3.0


@pytest.mark.parametrize("inputs,exc,message", [
    ([], ValueError, "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and shape."),
    ([[1, 2], [1, 2, 3]], tf.errors.InvalidArgumentError,
     _PREFIX % "AddN_N_2" + "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: [2] "
     "!= input 1: [3] [Op:AddN] name: "),
    ([[1, 2], [1.0, 2.0]], tf.errors.InvalidArgumentError,
     "cannot compute AddN as input #1(zero-based) was expected to be a int32 tensor but is a float tensor [Op:AddN] "
     "name: "),
])
def test_add_n_errors(inputs, exc, message):
    with pytest.raises(exc) as e:
        tf.add_n([tf.constant(v) for v in inputs] if inputs else inputs)
    assert str(e.value) == message


def test_invert_permutation():
    t = tf.math.invert_permutation([2, 0, 1])
    assert t.dtype == tf.int32 and t.numpy().tolist() == [1, 2, 0]
    t = tf.math.invert_permutation(tf.constant([1, 0], tf.int64))
    assert t.dtype == tf.int64 and t.numpy().tolist() == [1, 0]


@pytest.mark.parametrize("perm,message", [
    ([2, 0, 0], "0 is duplicated in the input."),
    ([3, 0, 1], "3 is not between 0 and 3"),
    ([[0]], "invert_permutation expects a 1D vector."),
])
def test_invert_permutation_errors(perm, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.invert_permutation(perm)
    assert str(e.value) == _PREFIX % "InvertPermutation" + message + " [Op:InvertPermutation]"
