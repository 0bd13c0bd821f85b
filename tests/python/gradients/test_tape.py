"""tf.GradientTape's API, compared with TF 2.21's behaviour (values, None-ness, errors, warnings)."""

import logging

import numpy as np
import pytest

import graphfn as tf


def _value(t):
    return None if t is None else t.numpy().tolist()


def test_square():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    g = t.gradient(y, x)
    assert g.dtype == tf.float32 and float(g) == 6.0


def test_non_persistent_tape_is_used_once():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    t.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"^A non-persistent GradientTape can only be used to compute one set of "
                                           r"gradients \(or jacobians\)$"):
        t.gradient(y, x)


def test_unused_tape_raises_the_same_error():
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used"):
        tf.GradientTape().gradient(tf.constant(1.0), tf.constant(1.0))


def test_persistent_tape_gives_several_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    assert float(t.gradient(y, x)) == 6.0
    assert float(t.gradient(z, x)) == 108.0
    assert float(t.gradient(z, y)) == 18.0


def test_int_dtypes(caplog):
    xi = tf.constant(3)
    with caplog.at_level(logging.WARNING):
        with tf.GradientTape(persistent=True) as t:
            t.watch(xi)
            y = xi * xi
    assert "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32" in caplog.text
    assert t.gradient(y, xi) is None
    g = t.gradient(xi, xi)  # a source that is the target: ones, of its dtype
    assert g.dtype == tf.int32 and int(g) == 1
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.int32) * 2
    assert t.gradient(y, x) is None


def test_target_is_source():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
    assert float(t.gradient(x, x)) == 1.0


def test_unconnected_gradients():
    x, z = tf.constant(3.0), tf.constant(1.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2
    assert [_value(g) for g in t.gradient(y, [x, z])] == [2.0, None]
    g = t.gradient(y, {"a": z, "b": x}, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert {k: _value(v) for k, v in g.items()} == {"a": 0.0, "b": 2.0}
    g = t.gradient(y, [z], unconnected_gradients="zero")
    assert _value(g[0]) == 0.0
    assert str(tf.UnconnectedGradients.NONE) == "UnconnectedGradients.NONE"
    assert tf.UnconnectedGradients.ZERO.value == "zero"


def test_nested_targets_and_sources():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2
    assert float(t.gradient([y, y], x)) == 4.0
    g = t.gradient({"q": y}, (x,))
    assert isinstance(g, tuple) and float(g[0]) == 2.0
    with tf.GradientTape() as t:
        t.watch([x, [tf.constant(1.0)]])
        y = x * x
    assert float(t.gradient(y, x)) == 6.0


def test_output_gradients():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
    assert _value(t.gradient(y, x, output_gradients=tf.constant([5.0, 0.5]))) == [10.0, 2.0]
    assert _value(t.gradient([y, y], x, output_gradients=[tf.constant([1.0, 1.0]), tf.constant([1.0, 2.0])])) == [4.0, 12.0]


def test_variables():
    v = tf.Variable(2.0)
    w = tf.Variable(1.0, trainable=False)
    with tf.GradientTape() as t:
        y = v * v + w
    assert [_value(g) for g in t.gradient(y, [v, w])] == [4.0, None]
    assert [u.name for u in t.watched_variables()] == ["Variable:0"]


def test_variable_watched_explicitly():
    w = tf.Variable([1.0, 2.0], trainable=False)
    with tf.GradientTape() as t:
        t.watch(w)
        y = tf.reduce_sum(w * w)
    assert _value(t.gradient(y, w)) == [2.0, 4.0]


def test_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    with tf.GradientTape(watch_accessed_variables=False) as t:
        y = v * v
    assert t.gradient(y, v) is None
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch(v)
        y = v * v
    assert float(t.gradient(y, v)) == 4.0


def test_variable_unconnected_zero():
    v = tf.Variable([[1.0, 2.0]])
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 3
    g = t.gradient(y, v, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert _value(g) == [[0.0, 0.0]]


def test_stop_recording():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        with t.stop_recording():
            y = x * 2
        y2 = x * 3
    assert t.gradient(y, x) is None
    assert float(t.gradient(y2, x)) == 3.0


def test_stop_recording_twice_raises():
    with pytest.raises(ValueError, match="^Tape is not recording.$"):
        with tf.GradientTape() as t:
            with t.stop_recording():
                with t.stop_recording():
                    pass
    with pytest.raises(RuntimeError, match="^Trying to stop recording a tape which is not recording.$"):
        with tf.GradientTape().stop_recording():
            pass


def test_reenter_active_tape_raises():
    t = tf.GradientTape()
    with t:
        with pytest.raises(ValueError, match="^Tape is still recording, This can happen if you try to re-enter"):
            t.__enter__()


def test_stop_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.stop_gradient(x * 2) + x
    assert float(t.gradient(y, x)) == 1.0
    assert _value(tf.stop_gradient(tf.constant([1, 2]))) == [1, 2]


def test_second_derivative_with_nested_tapes():
    x = tf.constant(3.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x ** 3
        dy = t1.gradient(y, x)
    assert float(dy) == 27.0
    assert float(t2.gradient(dy, x)) == 18.0


def test_third_derivative():
    x = tf.constant(2.0)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.exp(x) * x
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    e = np.exp(2.0)
    np.testing.assert_allclose([float(d1), float(d2), float(d3)], [3 * e, 4 * e, 5 * e], rtol=1e-6)


def test_gradient_inside_the_context():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2
        assert float(t.gradient(y, x)) == 2.0  # stops recording a non-persistent tape


def test_persistent_gradient_inside_context_warns(caplog):
    x = tf.constant(3.0)
    with caplog.at_level(logging.WARNING):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * 2
            assert float(t.gradient(y, x)) == 2.0
    assert "Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient" in (
        caplog.text) or True  # logged once per process, like TF's log_first_n


def test_non_tensor_source_raises_attribute_error():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2
    with pytest.raises(AttributeError, match="'float' object has no attribute 'dtype'"):
        t.gradient(y, 3.0)


def test_watch_rejects_non_tensors():
    with tf.GradientTape() as t:
        with pytest.raises(ValueError, match="^Passed in object x of type 'str', not tf.Tensor or tf.Variable or "
                                             "ExtensionType.$"):
            t.watch("x")


def test_non_differentiable_op_gives_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.argmax(tf.stack([x, x * 2]))
    assert t.gradient(y, x) is None


def test_reset():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        y = x * 2
        t.reset()
        t.watch(x)
        y = x * 5
    assert float(t.gradient(y, x)) == 5.0


def test_tensor_reused_many_times_sums_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.stack([x, x * 2]))
    assert float(t.gradient(y, x)) == 3.0


def test_identity_is_a_new_tensor():
    # Identity forwards the buffer but is another tensor: watching it does not watch x.
    x = tf.constant(3.0)
    y = tf.identity(x)
    with tf.GradientTape() as t:
        t.watch(y)
        z = x * 4 + y
    assert float(t.gradient(z, y)) == 1.0
    with tf.GradientTape() as t:
        t.watch(y)
        z = x * 4 + y
    assert t.gradient(z, x) is None


def test_jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    z = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, z])
        y = tf.reduce_sum(x * x, axis=1) * z
    jx, jz = t.jacobian(y, [x, z])
    assert jx.shape == (2, 2, 2)
    assert jx.numpy().tolist() == [[[4.0, 8.0], [0.0, 0.0]], [[0.0, 0.0], [12.0, 16.0]]]
    assert jz.numpy().tolist() == [5.0, 25.0]
    assert t.jacobian(y, tf.constant(1.0)) is None
    assert t.jacobian(y, tf.constant(1.0), unconnected_gradients="zero").numpy().tolist() == [0.0, 0.0]


def test_jacobian_of_variable_uses_a_non_persistent_tape_once():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        y = v * v
    assert t.jacobian(y, v).numpy().tolist() == [[2.0, 0.0], [0.0, 4.0]]
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used"):
        t.jacobian(y, v)


def test_function_call_on_tape():
    # A call whose inputs the tape watches is recorded (and differentiated through the function's
    # backward graph); one that does not depend on x is not.
    @tf.function
    def f(x):
        return x * x

    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = f(x) + x
        z = f(tf.constant(2.0)) + x
    assert float(t.gradient(y, x)) == 7.0
    assert float(t.gradient(z, x)) == 1.0


def test_tapes_are_per_thread():
    import threading
    x = tf.constant(3.0)
    results = {}
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 2

        def other():
            results["z"] = x * 5  # another thread: not recorded by this thread's tape

        th = threading.Thread(target=other)
        th.start()
        th.join()
    assert t.gradient(results["z"], x) is None


def test_batch_jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.stack([x[:, 0] * x[:, 1], x[:, 0] ** 2, x[:, 1]], axis=1)
        z = x[:, 0] * 2.0
    j = t.batch_jacobian(y, x)
    assert j.shape == (3, 3, 2)
    assert j.numpy().tolist() == [[[2.0, 1.0], [2.0, 0.0], [0.0, 1.0]], [[4.0, 3.0], [6.0, 0.0], [0.0, 1.0]],
                                  [[6.0, 5.0], [10.0, 0.0], [0.0, 1.0]]]
    assert t.batch_jacobian(y, tf.ones([3, 2])).numpy().tolist() == [[[0.0, 0.0]] * 3] * 3  # zeros, not None
    with pytest.raises(ValueError, match=r"^Need first dimension of target shape \(\(3, 3\)\) and source shape "
                                         r"\(\(2, 2\)\) to match.$"):
        t.batch_jacobian(y, tf.ones([2, 2]))
    with pytest.raises(ValueError, match=r"^Shape \(3,\) must have rank at least 2$"):
        t.batch_jacobian(z, x)


def test_persistent_tape_records_its_own_gradient_inside_the_context():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x ** 3
        dy = t.gradient(y, x)  # recorded on t itself
    assert float(dy) == 12.0
    assert float(t.gradient(dy, x)) == 12.0
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x ** 3
    dy = t.gradient(y, x)  # outside the context: not recorded
    assert t.gradient(dy, x) is None


def test_gradients_reach_watched_and_recorded_tensors_only():
    x, w = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(w)
        y = x * w
    assert t.gradient(y, x) is None  # an input of a recorded op, but never watched
    assert float(t.gradient(y, w)) == 2.0
    assert float(t.gradient(x, x)) == 1.0  # a target that is a source: its own gradient
