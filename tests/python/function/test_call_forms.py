"""Every common call form of a graphfn.function is answered by the C++ call cache after its first
call (keyword arguments, defaults, *args/**kwargs, nested lists/tuples/dicts/namedtuples, Python
scalars, Variables, methods, an active GradientTape), with the same results, tracing counts and
gradients as TensorFlow 2.21. Expected values were recorded from TF 2.21 (values, tracing
counts) or follow by arithmetic; `_fast_hit_count()` shows which calls the C++ cache answered."""

import collections
import dataclasses
import enum
import logging
import threading

import numpy as np
import pytest

import graphfn as tf

Pair = collections.namedtuple("Pair", "a b")


def hits(fn):
    return fn._fast_hit_count()


def test_keyword_and_default_calls_share_one_trace_and_hit_the_cache():
    @tf.function
    def f(x, y=1, *, scale=2.0):
        return x * scale + y

    x = tf.constant([1.0, 2.0])
    assert f(x).numpy().tolist() == [3.0, 5.0]
    before = hits(f)
    # TF 2.21: all five forms give [3. 5.] with one trace.
    for result in (f(x=x), f(x, 1), f(x, y=1, scale=2.0), f(scale=2.0, x=x, y=1), f(x)):
        assert result.numpy().tolist() == [3.0, 5.0]
    assert f.experimental_get_tracing_count() == 1
    assert hits(f) - before == 5


def test_a_changed_python_scalar_retraces_but_equal_values_share_a_trace():
    @tf.function
    def f(x, y=1):
        return x + y

    x = tf.constant([1.0, 2.0])
    f(x)
    assert f(x, 2).numpy().tolist() == [3.0, 4.0]
    assert f.experimental_get_tracing_count() == 2
    before = hits(f)
    assert f(x, 2.0).numpy().tolist() == [3.0, 4.0]  # 2 == 2.0: one Literal (TF: count stays 2)
    assert f(x, True).numpy().tolist() == [2.0, 3.0]  # True == 1: the default's trace
    assert f(x, y=1).numpy().tolist() == [2.0, 3.0]
    assert f.experimental_get_tracing_count() == 2
    assert hits(f) - before == 3  # the C++ key compares numbers by value too


def test_nested_dict_list_tuple_arguments_and_results():
    @tf.function
    def g(d):
        return {"s": d["a"] + d["b"], "t": (d["a"], [d["b"]])}

    a, b = tf.constant(1.0), tf.constant(2.0)
    r = g({"a": a, "b": b})
    before = hits(g)
    r2 = g({"b": b, "a": a})  # dict order does not matter (TF: one trace)
    assert g.experimental_get_tracing_count() == 1
    assert hits(g) - before == 1
    for out in (r, r2):
        assert list(out) == ["s", "t"] and type(out["t"]) is tuple and type(out["t"][1]) is list
        assert out["s"].numpy() == 3.0 and out["t"][0].numpy() == 1.0 and out["t"][1][0].numpy() == 2.0
    g({"a": a, "b": b, "c": a})  # a new key retraces (TF: 2)
    assert g.experimental_get_tracing_count() == 2


def test_namedtuple_arguments_are_keyed_by_class():
    @tf.function
    def h(p):
        return Pair(p[1], p[0])

    a, b = tf.constant(1.0), tf.constant(2.0)
    first = h(Pair(a, b))
    before = hits(h)
    second = h(Pair(a=a, b=b))
    assert hits(h) - before == 1
    assert type(second) is Pair and second.a.numpy() == 2.0 and second.b.numpy() == 1.0
    assert first.a.numpy() == 2.0
    h((a, b))  # a plain tuple is another trace type (TF: 2)
    assert h.experimental_get_tracing_count() == 2


def test_star_args_and_kwargs():
    @tf.function
    def star(*args, **kw):
        return args[0] + kw["z"]

    a, b = tf.constant(1.0), tf.constant(2.0)
    assert star(a, z=b).numpy() == 3.0
    before = hits(star)
    assert star(a, z=b).numpy() == 3.0
    assert star.experimental_get_tracing_count() == 1  # TF: 1
    assert hits(star) - before == 1


def test_variables_as_arguments_keyed_by_dtype_shape_and_aliasing():
    v1, v2, v3, v4 = [tf.Variable(1.0) for _ in range(4)]

    @tf.function
    def vf(u, w):
        u.assign_add(tf.ones_like(u))
        return u + w

    vf(v1, v2)
    before = hits(vf)
    assert vf(v3, v4).numpy() == 3.0  # fed by handle: v3 is updated, not v1
    assert v3.numpy() == 2.0 and v1.numpy() == 2.0
    assert vf.experimental_get_tracing_count() == 1  # TF: 1
    assert hits(vf) - before == 1
    vf(v1, v1)  # aliasing differs: TF retraces (2)
    assert vf.experimental_get_tracing_count() == 2
    assert v1.numpy() == 3.0
    before = hits(vf)
    assert vf(v2, v2).numpy() == 4.0  # the aliased trace, from C++: v2 2 -> 2 + 2
    assert hits(vf) - before == 1
    vf(tf.Variable(1.0, trainable=False), v2)  # TF: trainable is part of the key (3)
    assert vf.experimental_get_tracing_count() == 3
    vf(tf.Variable([1.0]), v2)  # TF: shape is part of the key (4)
    assert vf.experimental_get_tracing_count() == 4


class Scaler(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(3.0)

    @tf.function
    def m(self, x, k=2):
        return self.w * x * k


def test_methods_have_one_function_per_instance_answered_from_cpp():
    m1, m2 = Scaler(), Scaler()
    a = tf.constant(1.0)
    # TF 2.21: 6.0 each; counts 1 and 1; the class attribute has none; `m1.m is m1.m`.
    assert m1.m(a).numpy() == 6.0
    before = hits(m1.m)
    assert m1.m(x=a).numpy() == 6.0 and m1.m(a, k=2).numpy() == 6.0
    assert hits(m1.m) - before == 2
    assert m2.m(a).numpy() == 6.0
    assert (m1.m.experimental_get_tracing_count(), m2.m.experimental_get_tracing_count()) == (1, 1)
    assert Scaler.m.experimental_get_tracing_count() == 0
    assert m1.m is m1.m and m1.m is not m2.m
    assert Scaler.m.__get__(m1, Scaler) is m1.m


class Doubler(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.k = self.add_weight(shape=(), initializer="ones")

    def call(self, x):
        return x * self.k * 2.0

    @tf.function
    def apply(self, x, scale=1.0):
        return self(x) * scale


def test_keras_layer_methods_hit_the_cache_and_keep_gradients():
    layer = Doubler()
    x = tf.constant([1.0, 2.0])
    # TF 2.21: [2.0, 4.0] twice, tracing count 2 (the first trace built the layer), gradient 6.0.
    assert layer.apply(x).numpy().tolist() == [2.0, 4.0]
    before = hits(layer.apply)
    assert layer.apply(x=x, scale=1.0).numpy().tolist() == [2.0, 4.0]
    assert layer.apply.experimental_get_tracing_count() == 2
    with tf.GradientTape() as t:
        y = tf.reduce_sum(layer.apply(x))
    assert t.gradient(y, layer.k).numpy() == 6.0
    assert hits(layer.apply) - before == 2


def test_keras_variables_are_passed_as_their_values_and_watched():
    v, w = tf.keras.Variable(1.0), tf.keras.Variable(1.0)
    w.trainable = False

    @tf.function
    def f(u):
        return u * 2.0

    # As TF 2.21 (Keras's Variable is a tf.__internal__.types.Tensor): the function is given the
    # variable's value, a TensorSpec argument, so both variables share one trace.
    assert f(v).numpy() == 2.0
    f(v), f(w), f(w)
    assert f.experimental_get_tracing_count() == 1  # TF 2.21: 1
    assert str(f.get_concrete_function(v).structured_input_signature) == \
        "((TensorSpec(shape=(), dtype=tf.float32, name='u'),), {})"
    with tf.GradientTape() as t:
        f(w)
    assert len(t.watched_variables()) == 1  # TF 2.21 watches the underlying variable


def test_objects_are_keyed_by_identity():
    class Plain:
        pass

    @tf.function
    def obj(o, x):
        return x + 1

    o1, o2 = Plain(), Plain()
    a = tf.constant(1.0)
    obj(o1, a)
    before = hits(obj)
    obj(o1, a)
    assert hits(obj) - before == 1
    obj(o2, a)
    assert obj.experimental_get_tracing_count() == 2  # TF: 2


@dataclasses.dataclass(frozen=True)
class Config:
    n: int


class Mode(enum.Enum):
    A = 1
    B = 2


def test_objects_with_their_own_equality_are_keyed_by_python_and_answered_by_cpp():
    @tf.function
    def f(x, cfg, mode=Mode.A):
        return x * cfg.n if mode is Mode.A else x - cfg.n

    x, cfg = tf.constant(2.0), Config(3)
    # TF 2.21: 6.0 three times with one trace, then -1.0 twice with a second.
    assert f(x, cfg).numpy() == 6.0
    before = hits(f)
    assert f(x, cfg).numpy() == 6.0 and f(x, cfg=cfg, mode=Mode.A).numpy() == 6.0
    assert f.experimental_get_tracing_count() == 1
    assert f(x, cfg, Mode.B).numpy() == -1.0 and f(x, cfg, mode=Mode.B).numpy() == -1.0
    assert f.experimental_get_tracing_count() == 2
    assert hits(f) - before == 3

    @tf.function
    def g(x, big):
        return x + 1

    g(x, 2 ** 70)
    g(x, 2 ** 70)
    g(x, 2 ** 70 + 1)
    assert g.experimental_get_tracing_count() == 2  # TF 2.21: 2
    assert hits(g) == 1


def test_gradients_through_cached_calls_under_a_tape():
    m1 = Scaler()
    a, b = tf.constant(1.0), tf.constant(2.0)
    x = tf.constant([1.0, 2.0])
    m1.m(a)

    @tf.function
    def f(x, y=1, *, scale=2.0):
        return x * scale + y

    f(x=a * x, y=3)
    v3, v4 = tf.Variable(2.0), tf.Variable(1.0)

    @tf.function
    def vf(u, w):
        u.assign_add(tf.ones_like(u))
        return u + w

    vf(tf.Variable(0.0), tf.Variable(0.0))

    @tf.function
    def g(d):
        return {"s": d["a"] + d["b"], "t": (d["a"], [d["b"]])}

    g({"a": a, "b": b})
    before = [hits(fn) for fn in (m1.m, f, vf, g)]
    # TF 2.21: 2.0, 6.0, [1.0, 1.0], None, 1.0 and [None, 1.0].
    with tf.GradientTape() as t:
        y = m1.m(a)  # reads a captured variable: the tape watches it
    assert t.gradient(y, m1.w).numpy() == 2.0
    with tf.GradientTape() as t:
        t.watch(a)
        y = f(x=a * x, y=3)
    assert t.gradient(y, a).numpy() == 6.0
    with tf.GradientTape() as t:
        y = vf(v3, v4)  # trainable variable arguments are watched
    assert [gr.numpy() for gr in t.gradient(y, [v3, v4])] == [1.0, 1.0]
    with tf.GradientTape() as t:
        y = g({"a": a, "b": b})["s"]  # no gradient needed
    assert t.gradient(y, a) is None
    with tf.GradientTape(persistent=True) as t:
        t.watch(b)
        y = g(d={"a": a, "b": b})
    assert t.gradient(y["s"], b).numpy() == 1.0
    ga, gb = t.gradient(y["t"], [a, b])
    assert ga is None and gb.numpy() == 1.0
    assert [hits(fn) - n for fn, n in zip((m1.m, f, vf, g), before)] == [1, 1, 1, 2]
    assert t.watched_variables() == ()


def test_watched_variables_of_a_cached_call_match_the_python_path():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)

    @tf.function
    def f(u, k):
        return u * k * v

    f(v, frozen)
    before = hits(f)
    with tf.GradientTape() as t:
        y = f(v, frozen)
    assert hits(f) - before == 1
    assert [w is v for w in t.watched_variables()] == [True]
    assert t.gradient(y, v).numpy() == 2 * 2.0 * 5.0  # TF 2.21: [True] and 20.0


def test_input_signature_calls_hit_only_with_matching_tensors():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return x * 2

    f(tf.constant([1.0]))
    before = hits(f)
    assert f(x=tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f.experimental_get_tracing_count() == 1
    assert hits(f) - before == 1  # the first call of a new shape goes through Python once
    assert f([3.0]).numpy().tolist() == [6.0]  # converted by Python every time
    with pytest.raises(TypeError, match="Can not cast"):
        f(tf.constant([1, 2]))


def test_binding_errors_keep_tfs_text():
    @tf.function
    def f(x, y=1):
        return x + y

    x = tf.constant(1.0)
    f(x)
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'z'"):
        f(x, z=1)
    with pytest.raises(TypeError, match=r"multiple values for argument 'x'"):
        f(x, x=x)
    with pytest.raises(TypeError, match=r"missing a required argument: 'x'"):
        f(y=2)


def test_max_traces_eviction_and_retracing_counts_with_keyword_calls():
    @tf.function(max_traces=2)
    def f(x, n=0):
        return x + n

    x = tf.constant(1.0)
    for n in (1, 2, 3):
        f(x, n=n)
    assert f.experimental_get_tracing_count() == 2
    assert f._fast_size() <= 2
    assert f(x, n=3).numpy() == 4.0
    assert f(x=x, n=1).numpy() == 2.0


def test_reduce_retracing_generalized_trace_answers_new_shapes_from_cpp():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x + 1

    f(x=tf.constant([1.0]))
    f(x=tf.constant([1.0, 2.0]))
    assert f.experimental_get_tracing_count() == 2
    f(x=tf.constant([1.0, 2.0, 3.0]))  # matches the generalized trace
    assert f.experimental_get_tracing_count() == 2
    before = hits(f)
    assert f(x=tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, 3.0, 4.0]
    assert hits(f) - before == 1


def test_numpy_arguments_still_go_through_python():
    @tf.function
    def f(x):
        return x * 2

    f(np.array([1.0], np.float32))
    before = hits(f)
    assert f(np.array([2.0], np.float32)).numpy().tolist() == [4.0]
    assert hits(f) == before
    assert f.experimental_get_tracing_count() == 1


def test_eight_threads_calling_every_form_match_the_serial_results():
    m = Scaler()
    v, w = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(x, y=1, *, scale=2.0):
        return x * scale + y

    @tf.function
    def g(d, p):
        return {"s": d["a"] + d["b"] * p.a, "l": [p.b]}

    @tf.function
    def vf(u, t):
        return u * t

    def run(i):
        x = tf.constant(float(i))
        out = [f(x).numpy(), f(x=x, y=2).numpy(), f(x, scale=3.0).numpy(),
               g({"a": x, "b": x}, Pair(x, x))["s"].numpy(), g(p=Pair(x, 1.0), d={"b": x, "a": x})["l"][0].numpy(),
               vf(v, x).numpy(), vf(w, t=x).numpy(), m.m(x).numpy(), m.m(x=x, k=3).numpy()]
        with tf.GradientTape() as tape:
            y = vf(v, x)
        out.append(tape.gradient(y, v).numpy())
        return out

    serial = [run(i) for i in range(8)]
    counts = [fn.experimental_get_tracing_count() for fn in (f, g, vf, m.m)]
    results = [None] * 8
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        for _ in range(50):
            results[i] = run(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == serial
    assert [fn.experimental_get_tracing_count() for fn in (f, g, vf, m.m)] == counts
    assert serial[3] == [7.0, 8.0, 10.0, 12.0, 1.0, 3.0, 6.0, 18.0, 27.0, 3.0]


def test_keyword_hits_count_as_calls_for_the_retracing_warning(caplog):
    def f(x):
        return x

    tf_f = tf.function(f)
    with caplog.at_level(logging.WARNING, logger="graphfn"):
        for i in range(4):
            tf_f(x=i)
        for _ in range(6):
            tf_f(x=0)  # answered by C++, but still calls: the last 10 calls hold 4 traces then
        tf_f(x=4)
        assert caplog.records == []
        for i in range(5, 8):
            tf_f(x=i)
        assert caplog.records == []  # the six hits are still among the last 10 calls
        tf_f(x=8)
        assert len(caplog.records) == 1  # now 5 of the last 10 calls traced (TF's threshold)


def test_keyword_names_that_are_not_interned_strings_still_hit_the_cache():
    @tf.function
    def f(x, scale=1.0):
        return x * scale

    x = tf.constant([1.0, 2.0])
    assert f(x, scale=2.0).numpy().tolist() == [2.0, 4.0]
    before = hits(f)
    name = "".join(["sc", "ale"])  # built at run time: equal to the parameter name, not the same object
    assert f(x, **{name: 2.0}).numpy().tolist() == [2.0, 4.0]
    assert f(*(x,), **{"scale": 2.0}).numpy().tolist() == [2.0, 4.0]
    assert hits(f) - before == 2
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(x, **{"".join(["sca", "l"]): 2.0})  # an unknown keyword still gets Python's TypeError


def test_results_of_cached_calls_and_eager_ops_are_ordinary_eager_tensors():
    import gc
    import weakref

    @tf.function
    def f(x):
        return x + 1

    x = tf.constant(1.0)
    f(x)
    for make in (lambda: f(x), lambda: x * 2.0):
        result = make()
        assert type(result) is type(x)
        assert isinstance(result, tf.Tensor)
        assert result.__array_priority__ == x.__array_priority__
        ref = weakref.ref(result)
        assert ref() is result
        del result
        gc.collect()
        assert ref() is None
    kept = [f(x) for _ in range(3)]
    del f
    gc.collect()
    assert [float(t) for t in kept] == [2.0, 2.0, 2.0]


def test_a_tape_that_starts_watching_after_cached_calls_records_the_next_one():
    @tf.function
    def f(x):
        return x * x

    x = tf.constant(3.0)
    f(x)
    with tf.GradientTape(persistent=True) as tape:
        unrecorded = f(x)  # x is not watched: no gradient flows to it
        tape.watch(x)
        recorded = f(x)
    assert tape.gradient(unrecorded, x) is None
    assert float(tape.gradient(recorded, x)) == 6.0  # d(x*x)/dx at 3


# A Variable argument is keyed from VariableBase's C fields (its handle and resource, noted when
# `_handle` is set) rather than attribute lookups: what could go stale is checked here.


def test_a_variable_of_unknown_shape_keeps_its_trace_after_an_assign_changes_its_shape():
    v = tf.Variable([1.0, 2.0], shape=tf.TensorShape(None))

    @tf.function
    def total(u):
        return tf.reduce_sum(u) + 0.0

    assert total(v).numpy() == 3.0
    before = hits(total)
    v.assign([1.0, 2.0, 3.0])
    assert total(v).numpy() == 6.0  # TF 2.21: 6.0, tracing count 1
    assert total.experimental_get_tracing_count() == 1
    assert hits(total) - before == 1


def test_the_result_of_assign_is_the_same_variable_to_the_cache():
    @tf.function
    def plus(u):
        return u + 1.0

    a = tf.Variable(1.0)
    assert plus(a).numpy() == 2.0
    before = hits(plus)
    assert plus(a.assign(5.0)).numpy() == 6.0  # TF 2.21: 6.0, then 7.0, one trace
    assert plus(a.assign_add(1.0)).numpy() == 7.0
    assert plus.experimental_get_tracing_count() == 1
    assert hits(plus) - before == 2


def test_a_shallow_copy_of_a_variable_shares_it_and_is_keyed_like_it():
    import copy

    b = tf.Variable([1.0, 2.0])
    not_trainable = tf.Variable(1.0, trainable=False)

    @tf.function
    def plus(u):
        return u + 1.0

    plus(b)
    c = copy.copy(b)
    c.assign([3.0, 4.0])
    # TF 2.21: the copy is the same variable ([3. 4.] both), trainable, with the same name.
    assert b.numpy().tolist() == [3.0, 4.0] and c.numpy().tolist() == [3.0, 4.0]
    assert c.trainable and c.name == b.name
    assert copy.copy(not_trainable).trainable is False
    before = hits(plus)
    assert plus(c).numpy().tolist() == [4.0, 5.0]
    assert plus.experimental_get_tracing_count() == 1
    assert hits(plus) - before == 1


def test_a_variable_freed_and_another_made_in_its_place_is_read_not_the_old_one():
    import gc

    @tf.function
    def plus(u):
        return u + 1.0

    for value in range(20):  # addresses of freed variables get reused
        v = tf.Variable(float(value))
        assert plus(v).numpy() == value + 1.0
        del v
        gc.collect(0)  # the youngest generation: a full collection in a big test process takes ~1 s
    assert plus.experimental_get_tracing_count() == 1


def test_dicts_with_the_same_keys_in_any_order_share_a_trace():
    @tf.function
    def dsum(d):
        return d["a"] * 2.0 + d["b"]

    x, y = tf.constant(1.0), tf.constant(10.0)
    assert dsum({"a": x, "b": y}).numpy() == 12.0
    before = hits(dsum)
    # TF 2.21: 12.0, 12.0, 21.0 with one trace; an extra key is a second trace, a Python number
    # for "b" a third.
    assert dsum({"b": y, "a": x}).numpy() == 12.0
    assert dsum(dict(b=x, a=y)).numpy() == 21.0
    assert dsum.experimental_get_tracing_count() == 1
    assert hits(dsum) - before == 2
    assert dsum({"a": x, "b": y, "c": x}).numpy() == 12.0
    assert dsum.experimental_get_tracing_count() == 2
    assert dsum({"a": x, "b": 2.0}).numpy() == 4.0
    assert dsum.experimental_get_tracing_count() == 3
    before = hits(dsum)
    assert dsum({"c": y, "b": x, "a": y}).numpy() == 21.0  # the three-key trace, from C++
    assert dsum({"b": 2.0, "a": y}).numpy() == 22.0
    assert hits(dsum) - before == 2


def test_arguments_replaced_by_another_thread_during_a_call_stay_alive():
    # A large run releases the GIL; the cache feeds the tensors in place, holding their objects,
    # so another thread replacing the dict's and list's items meanwhile frees none of them.
    @tf.function
    def f(d):
        return tf.reduce_sum(d["a"] * 2.0) + tf.reduce_sum(d["b"][0])

    def big():
        return tf.fill([300, 300], 1.0)  # 90 000 elements: not a brief run

    arg = {"a": big(), "b": [big()]}
    assert f(arg).numpy() == 270000.0  # 2 * 90 000 + 90 000
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            arg["a"] = big()
            arg["b"][0] = big()

    thread = threading.Thread(target=churn)
    thread.start()
    try:
        before = hits(f)
        for _ in range(200):
            assert f(arg).numpy() == 270000.0
        assert hits(f) - before == 200
    finally:
        stop.set()
        thread.join()
