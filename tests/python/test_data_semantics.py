"""tf.data behaviour beyond single values: shuffling (TF 2.21: same seed, same first order;
reshuffle_each_iteration; the same multiset; an element moves at most buffer_size - 1 places
ahead), map traced once, parallel map and prefetch keeping order, threads, iteration protocol,
and the names graphfn lacks. Expected facts recorded from TF 2.21."""

import threading

import numpy as np
import pytest

import graphfn as tf

D = tf.data.Dataset


def values(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def test_shuffle_is_deterministic_per_seed_and_keeps_the_multiset():
    a = values(D.range(100).shuffle(10, seed=1))
    assert a == values(D.range(100).shuffle(10, seed=1))
    assert sorted(a) == list(range(100))
    assert a != list(range(100))
    assert all(v <= i + 9 for i, v in enumerate(a))  # a buffer of 10 holds an element back at most 9 places


def test_shuffle_reshuffles_each_iteration_unless_told_not_to():
    ds = D.range(100).shuffle(10, seed=1)
    assert values(ds) != values(ds)
    fixed = D.range(100).shuffle(10, seed=1, reshuffle_each_iteration=False)
    assert values(fixed) == values(fixed)
    repeated = values(D.range(20).shuffle(5, seed=3).repeat(2))
    assert repeated[:20] != repeated[20:]
    assert sorted(repeated[:20]) == sorted(repeated[20:]) == list(range(20))


def test_shuffle_follows_the_global_seed():
    tf.random.set_seed(7)
    first = values(D.range(50).shuffle(50))
    tf.random.set_seed(7)
    assert values(D.range(50).shuffle(50)) == first
    tf.random.set_seed(None)


def test_map_traces_once_and_runs_without_python_per_element():
    calls = []

    def normalize(x):
        calls.append(1)
        return tf.cast(x, tf.float32) / 255.0

    ds = D.range(1000).map(normalize)
    assert len(calls) == 1
    out = list(ds.as_numpy_iterator())
    assert len(calls) == 1
    np.testing.assert_allclose(out, np.arange(1000, dtype=np.float32) / 255.0, rtol=1e-6)


@pytest.mark.parametrize("calls", [2, 3, tf.data.AUTOTUNE])
def test_parallel_map_keeps_input_order(calls):
    ds = D.range(5000).map(lambda x: x * 3 + 1, num_parallel_calls=calls)
    assert values(ds) == [3 * i + 1 for i in range(5000)]
    assert repr(ds).startswith("<_ParallelMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64")


def test_pipeline_of_the_benchmark_yields_every_row_once():
    images = np.arange(600 * 4, dtype=np.float32).reshape(600, 4)
    ds = (D.from_tensor_slices(images).map(lambda x: x / 2.0).shuffle(100, seed=5).batch(64)
          .prefetch(tf.data.AUTOTUNE))
    batches = list(ds.as_numpy_iterator())
    assert [b.shape for b in batches] == [(64, 4)] * 9 + [(24, 4)]
    rows = np.concatenate(batches)
    np.testing.assert_array_equal(np.sort(rows[:, 0]), np.sort(images[:, 0] / 2.0))
    assert ds.element_spec == tf.TensorSpec([None, 4], tf.float32)


def test_two_threads_iterating_one_dataset_get_each_the_whole_sequence():
    ds = D.range(3000).map(lambda x: x + 1, num_parallel_calls=2).prefetch(4)
    results = [None, None]

    def run(i):
        results[i] = values(ds)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] == list(range(1, 3001))


def test_iterator_protocol_ends_with_stop_iteration():
    it = iter(D.range(2))
    assert int(next(it)) == 0
    assert int(next(it)) == 1
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    assert [int(x) for x in D.range(3)] == [0, 1, 2]


def test_abandoned_iterators_of_threaded_pipelines_are_released():
    ds = D.range(10 ** 9).map(lambda x: x * 2, num_parallel_calls=2).prefetch(8)
    for _ in range(20):
        it = iter(ds)
        assert int(next(it)) == 0
        del it


def test_names_and_constants():
    assert tf.data.AUTOTUNE == tf.data.experimental.AUTOTUNE == -1
    assert tf.data.INFINITE_CARDINALITY == -1 and tf.data.UNKNOWN_CARDINALITY == -2
    assert repr(tf.data.DatasetSpec(tf.TensorSpec([2], tf.float32))) == (
        "DatasetSpec(TensorSpec(shape=(2,), dtype=tf.float32, name=None), TensorShape([]))")
    assert isinstance(D.range(3).batch(2), tf.data.Dataset)


@pytest.mark.parametrize("name", ["experimental.SqlDataset", "experimental.RandomDataset"])
def test_missing_tf_data_names_say_so(name):
    module = tf.data
    *path, leaf = name.split(".")
    for part in path:
        module = getattr(module, part)
    with pytest.raises(AttributeError, match=r"graphfn does not have tf\.data\.%s yet" % name):
        getattr(module, leaf)


def test_errors_inside_a_map_function_reach_the_iterator():
    ds = D.range(5).batch(2).map(lambda x: tf.reshape(x, [2]))  # the last batch has one element
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:IteratorGetNext\]"):
        list(ds)
