"""Dataset.from_generator beyond single outcomes (those are in test_data_sources_goldens.py):
the generator runs when an iterator first needs an element (TF 2.21: not at iter()), once per
iterator; an error ends the iteration (TF: the error, then StopIteration); the Python generator
feeds prefetch and parallel map threads, two Python threads, and `for x in ds` inside a
graphfn.function. Expected values recorded from TF 2.21 or derived by arithmetic."""

import threading

import numpy as np
import pytest

import graphfn as tf

SIG = (tf.TensorSpec((), tf.int64), tf.TensorSpec((3,), tf.float32))


def rows(n=200):
    for i in range(n):
        yield i, np.full((3,), i, np.float32)


def test_the_generator_starts_with_the_first_element_once_per_iterator():
    calls = []

    def gen():
        calls.append("start")
        yield 1
        yield 2

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32))
    first, second = iter(ds), iter(ds)
    assert calls == []  # TF 2.21: ['after iter', []]
    assert [int(next(first)), int(next(second)), int(next(first)), int(next(second))] == [1, 1, 2, 2]
    assert calls == ["start", "start"]


def test_an_error_in_the_generator_reaches_the_iterator_then_the_iteration_ends():
    def gen():
        yield 1
        raise ValueError("boom")

    it = iter(tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int32)))
    assert int(next(it)) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__IteratorGetNext_output_"
                       r"types_1_device_/job:localhost/replica:0/task:0/device:CPU:0\}\} ValueError: boom\n"):
        next(it)
    with pytest.raises(StopIteration):
        next(it)


@pytest.mark.parametrize("error, text", [(tf.errors.NotFoundError(None, None, "gone"), "NotFoundError: gone"),
                                         (RuntimeError("rt"), "RuntimeError: rt")])
def test_other_exceptions_of_the_generator_are_unknown_errors(error, text):
    def gen():
        raise error
        yield  # noqa (makes gen a generator function)

    # TF 2.21: UnknownError "... NotFoundError: gone\nTraceback ..." (and "RuntimeError: rt\n...")
    with pytest.raises(tf.errors.UnknownError, match=r"\}\} %s\n" % text):
        list(tf.data.Dataset.from_generator(gen, output_types=tf.int32))


def test_generator_feeds_parallel_map_and_prefetch_threads_in_order():
    ds = (tf.data.Dataset.from_generator(rows, output_signature=SIG)
          .map(lambda i, x: (i * 2, tf.reduce_sum(x)), num_parallel_calls=4).prefetch(8))
    got = list(ds.as_numpy_iterator())
    assert [(int(a), float(b)) for a, b in got] == [(2 * i, 3.0 * i) for i in range(200)]


def test_two_python_threads_iterate_one_generator_dataset_each_fully():
    ds = tf.data.Dataset.from_generator(rows, output_signature=SIG).prefetch(4)
    sums = [None, None]

    def run(k):
        sums[k] = sum(int(i) for i, _ in ds.as_numpy_iterator())

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sums == [sum(range(200))] * 2


def test_an_abandoned_iterator_with_a_prefetch_thread_stops_cleanly():
    for _ in range(5):
        it = iter(tf.data.Dataset.from_generator(rows, output_signature=SIG).prefetch(4))
        next(it)
        del it


def test_for_loop_over_a_generator_inside_a_function():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for i, x in ds:
            s += i
        return s

    assert int(total(tf.data.Dataset.from_generator(rows, output_signature=SIG))) == sum(range(200))
    assert int(total(tf.data.Dataset.from_generator(rows, output_signature=SIG).prefetch(2))) == sum(range(200))


def test_break_inside_a_function_stops_the_generator_early():
    seen = []

    def gen():
        for i in range(100):
            seen.append(i)
            yield i

    @tf.function
    def first_over(ds, limit):
        found = tf.constant(-1, tf.int64)
        for x in ds:
            if x > limit:
                found = x
                break
        return found

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
    assert int(first_over(ds, tf.constant(4, tf.int64))) == 5
    assert max(seen) < 100


def test_generator_arguments_arrive_as_numpy_values():
    got = []

    def gen(a, b, c):
        got.append((type(a).__name__, type(b).__name__, type(c).__name__))
        yield a

    list(tf.data.Dataset.from_generator(gen, args=(np.int32(2), "x", [1, 2]),
                                        output_signature=tf.TensorSpec((), tf.int32)))
    assert got == [("int32", "bytes", "ndarray")]  # TF 2.21: [('int32', 'bytes', 'ndarray')]
