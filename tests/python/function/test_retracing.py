"""Retracing rules: reduce_retracing, input_signature, and TF's frequent-retracing warning."""

import logging

import pytest

import graphfn as tf


def test_reduce_retracing_generalizes_from_the_second_shape(capsys):
    @tf.function(reduce_retracing=True)
    def g(x):
        print("Tracing with", x)
        return x

    g(tf.constant([1, 2, 3]))
    g(tf.constant([1, 2, 3, 4, 5]))
    g(tf.constant([1, 2, 3, 4, 5, 6, 7]))
    out = g(tf.constant([1, 2, 3, 4, 5, 6, 7, 8, 9]))
    assert out.numpy().tolist() == list(range(1, 10))
    assert capsys.readouterr().out == ('Tracing with Tensor("x:0", shape=(3,), dtype=int32)\n'
                                       'Tracing with Tensor("x:0", shape=(None,), dtype=int32)\n')


def test_most_specific_trace_wins():
    @tf.function
    def f(x):
        return tf.identity(x)

    specific = f.get_concrete_function(tf.TensorSpec([1, None], tf.int32))
    general = f.get_concrete_function(tf.TensorSpec([None, None], tf.int32))
    assert f.experimental_get_tracing_count() == 2
    assert f._concrete_function_for({"x": tf.constant([[1, 2]])})[0] is specific
    assert f._concrete_function_for({"x": tf.constant([[1, 2], [3, 4]])})[0] is general


def test_input_signature_fixes_one_trace(capsys):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return x // 2

    assert next_collatz(tf.constant([1, 2])).numpy().tolist() == [0, 1]
    assert next_collatz(tf.constant([1, 2, 3, 4, 5])).numpy().tolist() == [0, 1, 1, 2, 2]
    assert next_collatz([6, 8]).numpy().tolist() == [3, 4]  # Python values are cast to the spec
    assert capsys.readouterr().out == 'Tracing with Tensor("x:0", shape=(None,), dtype=int32)\n'
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(2, 2\), dtype=tf.int32, name=None\) to "
                                        r"TensorSpec\(shape=\(None,\), dtype=tf.int32, name=None\)"):
        next_collatz(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(TypeError, match="Can not cast"):
        next_collatz(tf.constant([1.0, 2.0]))
    assert next_collatz.experimental_get_tracing_count() == 1


def test_input_signature_must_be_a_sequence():
    with pytest.raises(TypeError, match="input_signature must be either a tuple or a list"):
        tf.function(lambda x: x, input_signature=tf.TensorSpec([], tf.int32))


def test_frequent_retracing_warns_twice_at_most(caplog):
    def f(x):
        return x

    tf_f = tf.function(f)
    with caplog.at_level(logging.WARNING, logger="graphfn"):
        for i in range(4):
            tf_f(i)
        assert caplog.records == []
        tf_f(4)
        assert len(caplog.records) == 1
        message = caplog.records[0].getMessage()
        assert message.startswith("5 out of the last 5 calls to <function ")
        assert message.endswith(
            "triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be "
            "due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) "
            "passing Python objects instead of tensors. For (1), please define your @tf.function outside of the "
            "loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary retracing. "
            "For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.")
        for i in range(5, 20):
            tf_f(i)
        assert len(caplog.records) == 2


def test_explain_retracing_names_what_changed(caplog):
    @tf.function
    def f(x, n):
        return x * n

    tf.config.explain_retracing(True)
    try:
        with caplog.at_level(logging.WARNING, logger="graphfn"):
            f(tf.constant([1, 2, 3]), 2)
            assert caplog.records == []  # the first trace needs no explanation
            f(tf.constant([1, 2, 3, 4]), 2)
            f(tf.constant([1, 2, 3, 4]), 3)
    finally:
        tf.config.explain_retracing(False)
    messages = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Retracing")]
    assert messages == [
        "Retracing f (trace 2): x: TensorSpec(shape=(3,), dtype=tf.int32, name=None) -> "
        "TensorSpec(shape=(4,), dtype=tf.int32, name=None)",
        "Retracing f (trace 3): n: Literal[2] -> Literal[3]",
    ]


def test_max_traces_bounds_the_cache():
    @tf.function(max_traces=2)
    def f(n):
        return tf.constant(n)

    for n in range(5):
        assert f(n).numpy() == n
    assert f.experimental_get_tracing_count() == 2
    assert f(4).numpy() == 4  # the newest traces are kept
    with pytest.raises(ValueError, match="max_traces must be a positive integer"):
        tf.function(lambda: 1, max_traces=0)


def test_clear_cache_forgets_every_trace(capsys):
    @tf.function
    def f(x):
        print("tracing")
        return x + 1

    f(tf.constant(1))
    f.clear_cache()
    assert f(tf.constant(1)).numpy() == 2
    assert capsys.readouterr().out == "tracing\ntracing\n"


def test_input_signature_covers_varargs():
    f = tf.function(lambda *a: a[0] + a[1], input_signature=[tf.TensorSpec([None], tf.int32)] * 2)
    assert f(tf.constant([1, 2]), [3, 4]).numpy().tolist() == [4, 6]
    assert f(tf.constant([1]), tf.constant([2])).numpy().tolist() == [3]
    assert f.experimental_get_tracing_count() == 1


def test_dropped_functions_release_their_code(tmp_path):
    # The retracing counts and AutoGraph's conversions are kept per code object, weakly (as TF):
    # re-running a notebook cell must not keep the old cell's code alive.
    import gc
    import weakref
    source = ("import graphfn as tf\n"
              "@tf.function\n"
              "def relu(x):\n"
              "    if tf.reduce_sum(x) > 0:\n"
              "        return x\n"
              "    return x * 0\n"
              "for n in range(1, 4):\n"
              "    relu(tf.ones([n]))\n")
    path = tmp_path / "cell.py"
    path.write_text(source)
    namespace = {}
    exec(compile(source, str(path), "exec"), namespace)
    code = weakref.ref(namespace["relu"].python_function.__code__)
    namespace.clear()
    gc.collect()
    assert code() is None


@pytest.mark.parametrize("calls", [
    lambda f, i: f(i),                                              # a new Python value
    lambda f, i: f(tf.zeros([i % 50 + 1, i // 50 + 1])),            # a new shape
    lambda f, i: f.get_concrete_function(tf.TensorSpec([None]), i),  # generic specs, new values
])
def test_a_retrace_compares_its_key_with_a_bounded_number_of_traces(calls, monkeypatch):
    # The trace cache stays O(1) per lookup: the 300th trace's key is compared with no more
    # earlier keys than the 10th one's (a scan of every trace made retraces ever slower).
    from graphfn.function import trace_type

    @tf.function
    def f(x, i=0):
        return x

    compared = []
    real = trace_type.is_subtype
    monkeypatch.setattr(trace_type, "is_subtype", lambda a, b: compared.append(1) or real(a, b))
    counts = []
    for i in range(300):
        del compared[:]
        calls(f, i)
        counts.append(len(compared))
    assert f.experimental_get_tracing_count() == 300
    assert max(counts[10:]) <= max(counts[:10])


def test_most_specific_trace_still_wins_among_many():
    @tf.function
    def f(x, i):
        return x + i

    for i in range(50):
        f(tf.constant([1.0, 2.0]), i)
    specific = f.get_concrete_function(tf.TensorSpec([2]), 7)
    middle = f.get_concrete_function(tf.TensorSpec([None]), 7)
    general = f.get_concrete_function(tf.TensorSpec(None), 7)
    assert f.get_concrete_function(tf.TensorSpec([2]), 7) is specific
    assert f.get_concrete_function(tf.TensorSpec([3]), 7) is middle
    assert f.get_concrete_function(tf.TensorSpec([3, 1]), 7) is general
    assert f(tf.constant([1.0, 2.0, 3.0]), 7).numpy().tolist() == [8.0, 9.0, 10.0]
    assert f.experimental_get_tracing_count() == 52
