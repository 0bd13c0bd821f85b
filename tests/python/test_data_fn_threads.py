"""tf.data's function-based and structural transformations beyond single reprs: inside a
graphfn.function (`for x in ds`, sums recorded from TF 2.21 with the same pipelines), with
threads (two threads iterating one dataset each get the serial sequence), abandoned parallel
iterators, and functions traced once (no Python per element)."""

import threading

import pytest

import graphfn as tf

r = tf.data.Dataset.range


def _inv(x):
    return tf.debugging.check_numerics(1.0 / x, "bad")


# name: (pipeline, sum of its elements in a tf.function, recorded from TF 2.21)
IN_FUNCTION = {
    "flat_map": (lambda: r(4).flat_map(lambda x: r(x)), 4),
    "interleave": (lambda: r(1, 4).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(x), cycle_length=2,
                                              num_parallel_calls=2), 14),
    "window_flat_map": (lambda: r(7).window(3).flat_map(lambda w: w.batch(3)), 21),
    "scan": (lambda: r(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)), 10),
    "take_while": (lambda: r(10).take_while(lambda x: x < 4), 6),
    "group_by_window": (lambda: r(10).group_by_window(lambda x: x % 2, lambda k, d: d.batch(3), window_size=3), 45),
    "shard": (lambda: r(10).shard(3, 1), 12),
    "unique": (lambda: r(6).map(lambda x: x // 2).unique(), 3),
    "rebatch": (lambda: r(10).batch(4).rebatch(3), 45),
    "ignore_errors": (lambda: tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(_inv).ignore_errors(), 1.5),
    "assert_cardinality": (lambda: r(3).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(3)), 3),
}


@pytest.mark.parametrize("name", sorted(IN_FUNCTION))
def test_for_loop_in_function_matches_tensorflow(name):
    make, expected = IN_FUNCTION[name]
    ds = make()

    @tf.function
    def total():
        s = tf.constant(0, ds.element_spec.dtype)
        for x in ds:
            s += tf.reduce_sum(x)
        return s

    assert total().numpy() == expected


THREADED = {
    "flat_map": lambda: r(50).flat_map(lambda x: r(x % 7)),
    "interleave": lambda: r(40).interleave(lambda x: r(x, x + 5), cycle_length=3, block_length=2),
    "parallel_interleave": lambda: r(40).interleave(lambda x: r(x, x + 5).map(lambda y: y * 2), cycle_length=4,
                                                    block_length=3, num_parallel_calls=tf.data.AUTOTUNE),
    "window": lambda: r(60).window(4, 3, 2).flat_map(lambda w: w.batch(4)),
    "group_by_window": lambda: r(60).group_by_window(lambda x: x % 3, lambda k, d: d.batch(4), window_size=4),
    "scan": lambda: r(60).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s)),
    "rebatch": lambda: r(60).batch(7).rebatch([3, 5]),
    "unique": lambda: r(200).map(lambda x: x % 17).unique(),
}


def _as_lists(ds):
    return [x.tolist() for x in ds.as_numpy_iterator()]


@pytest.mark.parametrize("name", sorted(THREADED))
def test_two_threads_iterating_one_dataset_get_the_serial_sequence(name):
    ds = THREADED[name]()
    serial = _as_lists(ds)
    results = [None, None]

    def run(i):
        results[i] = _as_lists(ds)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [serial, serial]
    assert serial  # not vacuous


def test_parallel_interleave_keeps_the_sequential_order_on_long_inputs():
    def make(parallel):
        def numbered(x):  # x * 100 + 0, 1, ... (x % 9 of them)
            pairs = tf.data.Dataset.zip((tf.data.Dataset.from_tensors(x).repeat(), r(x % 9)))
            return pairs.map(lambda a, b: a * 100 + b)
        return r(100).interleave(numbered, cycle_length=5, block_length=2, num_parallel_calls=parallel)
    assert _as_lists(make(3)) == _as_lists(make(None))


def test_abandoned_parallel_interleave_iterator_stops_its_threads():
    ds = r(10).interleave(lambda x: r(10 ** 9), cycle_length=4, num_parallel_calls=4)
    for _ in range(20):
        it = iter(ds)
        assert next(it).numpy() == 0
        del it  # joins the workers, which are blocked on full buffers


def test_dataset_functions_run_python_once():
    calls = []

    def make(x):
        calls.append(1)
        return r(x).map(lambda y: y + 1)

    ds = r(30).flat_map(make)
    assert sum(_as_lists(ds)) == sum(sum(range(1, n + 1)) for n in range(30))
    assert sum(_as_lists(ds)) > 0
    assert len(calls) == 1  # traced once; no Python per element


def test_window_elements_are_datasets_that_can_be_iterated_in_threads():
    windows = list(r(20).window(5))
    results = [None] * len(windows)

    def run(i):
        results[i] = _as_lists(windows[i].batch(5))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(windows))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[list(range(i, i + 5))] for i in range(0, 20, 5)]


def test_symbolic_dataset_methods_not_supported_raise_clearly():
    with pytest.raises(NotImplementedError, match="shuffle"):
        r(3).flat_map(lambda x: r(x).shuffle(3))
