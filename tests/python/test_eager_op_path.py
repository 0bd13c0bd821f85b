"""The eager op path's shortcuts (docs/performance.md "An eager op"): calls on eager tensors only
go straight to the kernel, equal or scalar shapes skip building a broadcast shape, and result
objects are reused after they are freed. Each shortcut must give what the general path gives.
Expected values and messages were printed by TensorFlow 2.21 for the same expressions."""

import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import graphfn as tf


def test_results_and_broadcasting_on_the_direct_path():
    assert float(tf.constant(1.5) + tf.constant(2.5)) == 4.0
    np.testing.assert_array_equal(tf.constant([[1., 2.]]) + tf.constant(3.), [[4., 5.]])
    np.testing.assert_array_equal(tf.constant(3.) * tf.constant([[1.], [2.]]), [[3.], [6.]])
    np.testing.assert_array_equal(tf.constant([1, 2]) - tf.constant([3, 5]), [-2, -3])
    np.testing.assert_array_equal(tf.constant([1., 2.]) < tf.constant(1.5), [True, False])
    np.testing.assert_array_equal(tf.constant(2) == tf.constant([2, 3]), [True, False])
    assert (tf.constant("a") + tf.constant("b")).numpy() == b"ab"  # `+` on strings runs Add


@pytest.mark.parametrize("make, error, message", [
    (lambda: tf.constant([1., 2.]) + tf.constant([1., 2., 3.]), tf.errors.InvalidArgumentError,
     "{{function_node __wrapped__AddV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
     "Incompatible shapes: [2] vs. [3] [Op:AddV2] name: "),
    (lambda: tf.constant(1.) + tf.constant(1), tf.errors.InvalidArgumentError,
     "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor "
     "[Op:AddV2] name: "),
])
def test_errors_on_the_direct_path(make, error, message):
    for _ in range(3):  # the first call resolves the op, later ones find it remembered
        with pytest.raises(error) as e:
            make()
        assert str(e.value) == message


@pytest.mark.parametrize("a, b, expected", [
    ([None], [None], [None]),
    (None, [], None),
    ([], None, None),
    ([None, 3], [], [None, 3]),
    ([], [None, 3], [None, 3]),
    ([2, None], [2, None], [2, None]),
    (None, None, None),
    ([1], [None], [None]),
    ([None], [1], [None]),
])
def test_traced_broadcast_shapes(a, b, expected):
    shapes = []

    @tf.function
    def f(x, y):
        shapes.extend([(x + y).shape, (y - x).shape, (x < y).shape])
        return x

    f.get_concrete_function(tf.TensorSpec(a, tf.float32), tf.TensorSpec(b, tf.float32))
    assert [s.as_list() if s.rank is not None else None for s in shapes] == [expected] * 3


def test_gradients_are_recorded_on_the_direct_path():
    x = tf.constant(3.)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + x
    assert float(tape.gradient(y, x)) == 7.0


def test_ops_run_inside_a_kernel_use_their_own_scratch():
    x = tf.constant(3.)
    assert float(tf.py_function(lambda a: a + 1.0 + a * 2.0, [x], tf.float32)) == 10.0


def test_reused_result_objects_are_fresh_tensors():
    x = tf.constant(1.5)
    eager_tensor = type(x)
    gc.collect()  # earlier tests' cyclic garbage may hold tensors (each holds a reference to the type)
    type_refs = sys.getrefcount(eager_tensor)
    for round_ in range(3):
        kept = [x + tf.constant(float(i)) for i in range(200)]
        assert [float(t) for t in kept] == [1.5 + i for i in range(200)]
        assert all(type(t) is eager_tensor and t.shape == () and t.dtype == tf.float32 for t in kept)
        vectors = [tf.constant([float(i), 2.]) * tf.constant(2.) for i in range(100)]
        del kept  # these objects are reused below and by the next round
        assert [t.numpy().tolist() for t in vectors] == [[2. * i, 4.] for i in range(100)]
        assert all(t.shape == (2,) for t in vectors)
        del vectors
    gc.collect()
    assert sys.getrefcount(eager_tensor) == type_refs


def test_weak_references_to_results():
    x = tf.constant(2.)
    called = []
    result = x + x
    ref = weakref.ref(result, lambda r: called.append(r))
    assert ref() is result
    del result
    assert ref() is None and len(called) == 1
    again = x * x  # may reuse the object: no weak reference carries over
    assert float(again) == 4.0 and weakref.getweakrefcount(again) == 0


def test_results_freed_while_an_exception_propagates():
    data = np.arange(4, dtype=np.float32)

    def fail():
        held = tf.constant(data) + tf.constant(1.)  # freed while the ValueError is in flight
        borrowed = tf.constant(data)
        assert held.shape == borrowed.shape
        raise ValueError("boom")

    for _ in range(3):
        with pytest.raises(ValueError, match="boom"):
            fail()
    np.testing.assert_array_equal(tf.constant(data) + tf.constant(1.), [1., 2., 3., 4.])


def test_threads_running_eager_ops_get_their_own_results():
    errors = []

    def work(seed):
        try:
            base = tf.constant(float(seed))
            for i in range(2000):
                kept = [base + tf.constant(float(i)), base * tf.constant(2.), tf.constant([1., 2.]) + base]
                assert float(kept[0]) == seed + i
                assert float(kept[1]) == 2. * seed
                assert kept[2].numpy().tolist() == [1. + seed, 2. + seed]
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
