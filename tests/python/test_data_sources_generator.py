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


SPARSE_SIG = (tf.SparseTensorSpec([2, 4], tf.float32), tf.TensorSpec([2, 1], tf.float32))


def _yielding(*elements):
    def gen():
        yield from elements
    return gen


def test_a_generator_yields_sparse_and_ragged_tensors_for_their_specs():
    # Keras's fit on a generator of SparseTensors (data_adapters/generator_data_adapter.py).
    sparse = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[2, 4])
    ds = tf.data.Dataset.from_generator(_yielding((sparse, np.ones((2, 1), np.float32))), output_signature=SPARSE_SIG)
    assert ds.element_spec == SPARSE_SIG
    (x, y), = list(ds)
    # TF 2.21: SparseTensor [[0, 0], [1, 2]] [1.0, 2.0] [2, 4], y (2, 1)
    assert isinstance(x, tf.SparseTensor)
    assert x.indices.numpy().tolist() == [[0, 0], [1, 2]] and x.values.numpy().tolist() == [1.0, 2.0]
    assert x.dense_shape.numpy().tolist() == [2, 4] and y.shape == (2, 1)
    ragged = tf.ragged.constant([[1.0], [2.0, 3.0]])
    (r,), = list(tf.data.Dataset.from_generator(_yielding((ragged,)),
                                                output_signature=(tf.RaggedTensorSpec([2, None], tf.float32),)))
    assert isinstance(r, tf.RaggedTensor) and r.to_list() == [[1.0], [2.0, 3.0]]  # TF 2.21: the same


SPEC_TEXT = "(SparseTensorSpec(TensorShape([2, 4]), tf.float32),)"


@pytest.mark.parametrize("value, text", [
    # TF 2.21's messages (after the "{{function_node ...}} " prefix)
    (tf.SparseTensor([[0, 0]], [1], [2, 4]), "TypeError: `generator` yielded an element of (SparseTensorSpec("
     "TensorShape([2, 4]), tf.int32),) where an element of %s was expected." % SPEC_TEXT),
    (tf.SparseTensor([[0, 0]], [1.0], [3, 4]), "TypeError: `generator` yielded an element of (SparseTensorSpec("
     "TensorShape([3, 4]), tf.float32),) where an element of %s was expected." % SPEC_TEXT),
    (tf.ragged.constant([[1.0], [2.0, 3.0]]), "TypeError: `generator` yielded an element that did not match the "
     "expected structure. The expected structure was %s, but the yielded element was (<tf.RaggedTensor [[1.0], "
     "[2.0, 3.0]]>,)." % SPEC_TEXT),
])
def test_a_composite_that_does_not_fit_its_spec_is_tfs_error(value, text):
    ds = tf.data.Dataset.from_generator(_yielding((value,)), output_signature=(tf.SparseTensorSpec([2, 4], tf.float32),))
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(ds)
    assert text in str(info.value)
