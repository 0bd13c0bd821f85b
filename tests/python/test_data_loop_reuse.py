"""`for x in dataset` in a function reuses element buffers (a range's scalars are overwritten in
place when nothing else holds them) and asks the iterator directly for the loop's condition.
These loops keep elements beyond their iteration, so a reused buffer would show. Expected values
recorded from TF 2.21."""

import graphfn as tf

D = tf.data.Dataset


@tf.function
def keep_last_two(ds):
    last = tf.constant(-1, tf.int64)
    prev = tf.constant(-1, tf.int64)
    for x in ds:
        prev = last
        last = x
    return prev, last


@tf.function
def collect(ds):
    ta = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
    i = 0
    for x in ds:
        ta = ta.write(i, x)
        i += 1
    return ta.stack()


@tf.function
def nested(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        for y in D.range(3):
            s += x * 10 + y
    return s


def test_elements_kept_past_their_iteration_keep_their_values():
    expected = ("(<tf.Tensor: shape=(), dtype=int64, numpy=3>, <tf.Tensor: shape=(), dtype=int64, numpy=4>)")
    assert repr(keep_last_two(D.range(5))) == expected
    assert repr(keep_last_two(D.range(5).prefetch(2))) == expected


def test_elements_written_to_a_tensor_array():
    assert collect(D.range(6)).numpy().tolist() == [0, 1, 2, 3, 4, 5]
    assert collect(D.range(4)).numpy().tolist() == [0, 1, 2, 3]


def test_a_dataset_loop_inside_a_dataset_loop():
    assert repr(nested(D.range(4))) == "<tf.Tensor: shape=(), dtype=int64, numpy=192>"


def test_a_function_run_twice_iterates_afresh():
    assert int(collect(D.range(3))[-1]) == 2
    assert int(collect(D.range(3))[-1]) == 2
