"""`for x in dataset` inside a graphfn.function: AutoGraph makes it a graph loop over an
iterator node (no Python per element). Expected values recorded from TF 2.21's tf.function."""

import pytest

import graphfn as tf

D = tf.data.Dataset


def total(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


def until(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        if x > 3:
            break
        s += x
    return s


def count(ds):
    n = tf.constant(0)
    for _ in ds:
        n += 1
    return n


def pairs(ds):
    s = tf.constant(0.0)
    for x, y in ds:
        s += tf.cast(x, tf.float32) * y
    return s


def batches(ds):
    s = tf.constant(0, tf.int64)
    n = tf.constant(0)
    for b in ds:
        s += tf.reduce_sum(b)
        n += tf.shape(b)[0]
    return s, n


CASES = [
    ("total", "D.range(5)", "<tf.Tensor: shape=(), dtype=int64, numpy=10>"),
    ("total", "D.range(100).map(lambda x: x * 2).prefetch(2)", "<tf.Tensor: shape=(), dtype=int64, numpy=9900>"),
    ("total", "D.range(0)", "<tf.Tensor: shape=(), dtype=int64, numpy=0>"),
    ("until", "D.range(10)", "<tf.Tensor: shape=(), dtype=int64, numpy=6>"),
    ("count", "D.range(7).filter(lambda x: x % 2 == 0)", "<tf.Tensor: shape=(), dtype=int32, numpy=4>"),
    ("pairs", "D.zip((D.range(3), D.from_tensor_slices([0.5, 1.5, 2.5])))",
     "<tf.Tensor: shape=(), dtype=float32, numpy=6.5>"),
    ("batches", "D.range(10).batch(4)",
     "(<tf.Tensor: shape=(), dtype=int64, numpy=45>, <tf.Tensor: shape=(), dtype=int32, numpy=10>)"),
    ("total", "D.range(1000).map(lambda x: x + 1, num_parallel_calls=2)",
     "<tf.Tensor: shape=(), dtype=int64, numpy=500500>"),
]


@pytest.mark.parametrize("fn, dataset, expected", CASES)
def test_for_loop_over_a_dataset_matches_tensorflow(fn, dataset, expected):
    assert repr(tf.function(globals()[fn])(eval(dataset))) == expected


def test_the_loop_is_one_graph_loop_and_each_call_iterates_afresh():
    ds = D.range(10 ** 5)
    f = tf.function(total)
    assert int(f(ds)) == (10 ** 5 - 1) * 10 ** 5 // 2
    assert int(f(ds)) == (10 ** 5 - 1) * 10 ** 5 // 2
    graph = f.get_concrete_function(ds).graph.as_graph_def()
    ops = [n.op for n in graph.node]
    assert "While" in ops and "GraphfnDatasetIterator" in ops


def test_iter_and_next_in_a_function_say_what_is_missing():
    @tf.function
    def first(ds):
        return next(iter(ds))

    with pytest.raises(NotImplementedError, match=r"iter\(\) on a tf.data.Dataset inside a tf.function"):
        first(D.range(3))


def test_a_dataset_built_inside_the_function_is_looped_over():
    @tf.function
    def inner():
        s = tf.constant(0, tf.int64)
        for x in D.range(4).map(lambda v: v * 10):
            s += x
        return s

    assert repr(inner()) == "<tf.Tensor: shape=(), dtype=int64, numpy=60>"  # TF 2.21


def test_return_inside_a_dataset_loop_is_tensorflows_error():
    def first_over(ds, t):
        for x in ds:
            if x > t:
                return x
        return tf.constant(-1, tf.int64)

    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside this TensorFlow loop"):
        tf.function(first_over)(D.range(10), tf.constant(6, tf.int64))
