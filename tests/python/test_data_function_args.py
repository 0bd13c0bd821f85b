"""Datasets as graphfn.function arguments: traced by their DatasetSpec (datasets with the same
element_spec share one concrete function), fed to the graph as an input. tf.data.DatasetSpec's
repr, equality and types. Expected values recorded from TF 2.21."""

import pytest

import graphfn as tf
from graphfn.framework import errors

D = tf.data.Dataset
INT64_SPEC = "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))"


def total(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


def test_datasets_with_the_same_element_spec_share_one_trace():
    f = tf.function(total)
    assert int(f(D.range(5))) == 10
    assert int(f(D.range(10))) == 45
    assert f.experimental_get_tracing_count() == 1
    assert int(f(D.range(3).map(lambda x: x * 2))) == 6  # another pipeline, same element_spec
    assert f.experimental_get_tracing_count() == 1


def test_another_element_spec_traces_again():
    f = tf.function(lambda ds: tf.constant(1))
    f(D.range(3))
    f(D.range(3).batch(2))
    f(D.from_tensor_slices([1.0, 2.0]))
    assert f.experimental_get_tracing_count() == 3


def test_the_dataset_is_a_graph_input_not_a_capture():
    f = tf.function(total)
    cf = f.get_concrete_function(D.range(2))
    assert repr(cf.inputs) == "[<tf.Tensor 'ds:0' shape=() dtype=resource>]"  # TF: dtype=variant
    assert repr(cf.structured_input_signature) == "((%s,), {})" % INT64_SPEC
    assert cf.graph._graph.captured_resources() == []
    assert repr(cf(D.range(5))) == "<tf.Tensor: shape=(), dtype=int64, numpy=10>"
    assert repr(cf(ds=D.range(3))) == "<tf.Tensor: shape=(), dtype=int64, numpy=3>"


def test_pretty_printed_signature_names_the_dataset_spec():
    f = tf.function(total)
    f(D.range(3))
    assert f.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n  ds (POSITIONAL_OR_KEYWORD): %s\nOutput Type:\n"
        "  TensorSpec(shape=(), dtype=tf.int64, name=None)\nCaptures:\n  None" % INT64_SPEC)


def test_get_concrete_function_of_a_spec_and_input_signature():
    spec = tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    f = tf.function(total)
    cf = f.get_concrete_function(spec)
    assert int(cf(D.range(4))) == 6
    assert int(f(D.range(4))) == 6
    assert f.experimental_get_tracing_count() == 1
    g = tf.function(total, input_signature=[spec])
    assert int(g(D.range(5))) == 10


def test_reduce_over_an_argument_dataset():
    f = tf.function(lambda d: d.reduce(tf.constant(0, tf.int64), lambda a, b: a + b),
                    input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))])
    assert repr(f(D.range(4))) == "<tf.Tensor: shape=(), dtype=int64, numpy=6>"

    @tf.function
    def pairs(ds):
        return ds.reduce((tf.constant(0, tf.int64), tf.constant(0.0)), lambda s, e: (s[0] + e[0], s[1] + e[1]))

    assert repr(pairs(D.zip((D.range(4), D.from_tensor_slices([0.5, 1.0, 1.5, 2.0]))))) == (
        "(<tf.Tensor: shape=(), dtype=int64, numpy=6>, <tf.Tensor: shape=(), dtype=float32, numpy=5.0>)")
    assert repr(pairs(D.from_tensors((tf.constant(3, tf.int64), tf.constant(2.5))))) == (
        "(<tf.Tensor: shape=(), dtype=int64, numpy=3>, <tf.Tensor: shape=(), dtype=float32, numpy=2.5>)")
    assert pairs.experimental_get_tracing_count() == 1


def test_the_argument_dataset_repr_inside_the_function():
    seen = []

    @tf.function
    def f(ds):
        seen.append(repr(ds))
        return tf.constant(0)

    f(D.range(3))
    assert seen == ["<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"]


def test_reduce_retracing_generalizes_the_element_shape():
    @tf.function(reduce_retracing=True)
    def h(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += tf.reduce_sum(x)
        return s

    results = [int(h(D.range(n).batch(n // 2, drop_remainder=True))) for n in (4, 6, 8)]
    assert results == [6, 15, 28]
    assert h.experimental_get_tracing_count() == 2
    assert "DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorShape([]))" in (
        h.pretty_printed_concrete_signatures())


def test_datasets_inside_containers_and_beside_python_values():
    @tf.function
    def k(ds, n):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x * n
        return s

    assert [int(k(D.range(4), 2)), int(k(D.range(4), 3))] == [12, 18]
    assert k.experimental_get_tracing_count() == 2

    @tf.function
    def kd(d):
        s = tf.constant(0, tf.int64)
        for x in d["a"]:
            s += x
        for y in d["b"]:
            s += y
        return s

    assert int(kd({"a": D.range(3), "b": D.range(4)})) == 9
    assert int(kd({"a": D.range(5), "b": D.range(1)})) == 10
    assert kd.experimental_get_tracing_count() == 1


SPEC_CASES = [
    ("repr(tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)))", INT64_SPEC),
    ("repr(tf.data.DatasetSpec.from_value(D.range(3)))", INT64_SPEC),
    ("repr(tf.data.DatasetSpec.from_value(D.range(3).batch(2)))",
     "DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorShape([]))"),
    ("repr(tf.data.DatasetSpec((tf.TensorSpec([2], tf.float32), {'a': tf.TensorSpec(None, tf.string)}), [5]))",
     "DatasetSpec((TensorSpec(shape=(2,), dtype=tf.float32, name=None), {'a': TensorSpec(shape=<unknown>, "
     "dtype=tf.string, name=None)}), TensorShape([5]))"),
    ("repr(tf.data.DatasetSpec({'b': tf.TensorSpec([], tf.int64), 'a': tf.TensorSpec([], tf.int64)}))",
     "DatasetSpec({'b': TensorSpec(shape=(), dtype=tf.int64, name=None), 'a': TensorSpec(shape=(), "
     "dtype=tf.int64, name=None)}, TensorShape([]))"),
    ("tf.data.DatasetSpec.from_value(D.range(3)) == tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))", "True"),
    ("tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)) == tf.data.DatasetSpec(tf.TensorSpec([], tf.int64), [])",
     "True"),
    ("tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)) == tf.data.DatasetSpec(tf.TensorSpec([], tf.int32))", "False"),
    ("hash(tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))) == hash(tf.data.DatasetSpec.from_value(D.range(2)))",
     "True"),
    ("repr(tf.data.DatasetSpec.from_value(D.range(3)).element_spec)", "TensorSpec(shape=(), dtype=tf.int64, name=None)"),
    ("tf.data.DatasetSpec.from_value(D.range(3)).value_type is tf.data.Dataset", "True"),
    ("tf.data.DatasetSpec(tf.TensorSpec([3], tf.int64)).is_compatible_with("
     "tf.data.DatasetSpec(tf.TensorSpec([None], tf.int64)))", "True"),
    ("tf.data.DatasetSpec(tf.TensorSpec([2], tf.int64)).is_subtype_of(tf.data.DatasetSpec(tf.TensorSpec([None], "
     "tf.int64)))", "True"),
    ("tf.data.DatasetSpec(tf.TensorSpec([None], tf.int64)).is_subtype_of(tf.data.DatasetSpec(tf.TensorSpec([2], "
     "tf.int64)))", "False"),
    ("repr(tf.data.DatasetSpec(tf.TensorSpec([2], tf.int64)).most_specific_common_supertype("
     "[tf.data.DatasetSpec(tf.TensorSpec([3], tf.int64))]))",
     "DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), TensorShape([]))"),
    ("isinstance(tf.data.DatasetSpec(tf.TensorSpec([], tf.int64)), tf.types.experimental.TraceType)", "True"),
]


@pytest.mark.parametrize("expression, expected", SPEC_CASES)
def test_dataset_spec_matches_tensorflow(expression, expected):
    assert str(eval(expression)) == expected


@pytest.mark.parametrize("bad, name", [(5, "int"), ([1, 2], "list"),
                                       (tf.constant(1), "tensorflow.python.framework.ops.EagerTensor")])
def test_a_value_that_is_no_dataset_is_tensorflows_binding_error(bad, name):
    g = tf.function(total, input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))])
    message = ("Binding inputs to tf.function failed due to `'%s' object has no attribute '_variant_tensor'`. "
               "Received args: (%r,) and kwargs: {} for signature: (ds: %s)." % (name, bad, INT64_SPEC))
    with pytest.raises(TypeError) as info:
        g(bad)
    assert str(info.value) == message


@pytest.mark.parametrize("dataset, message", [
    ("D.range(4).map(lambda x: tf.cast(x, tf.int32))", "Type mismatch: actual int32 vs. expect int64"),
    ("D.from_tensors((1, 2))", "Type mismatch: actual int32 vs. expect int64"),
    ("D.range(4).batch(2)", "Incompatible shapes at component 0: expected [] but got ["),
])
def test_a_dataset_of_other_elements_is_tensorflows_invalid_argument_error(dataset, message):
    g = tf.function(total, input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))])
    with pytest.raises(errors.InvalidArgumentError) as info:
        g(eval(dataset))
    assert message in str(info.value)


def test_a_concrete_function_called_with_no_dataset():
    cf = tf.function(total).get_concrete_function(D.range(2))
    with pytest.raises(TypeError, match="'int' object has no attribute '_variant_tensor'"):
        cf(5)
    with pytest.raises(errors.InvalidArgumentError, match=r"input #0\(zero-based\) was expected to be a"):
        cf(tf.constant(1))  # as TF: the flat signature takes it, the graph refuses its dtype


def test_transforming_an_argument_dataset_inside_the_function_says_what_is_missing():
    @tf.function
    def f(ds):
        s = tf.constant(0, tf.int64)
        for x in ds.map(lambda v: v + 1):
            s += x
        return s

    with pytest.raises(NotImplementedError, match="cannot yet transform, reduce or measure a tf.data.Dataset"):
        f(D.range(3))


def test_saving_a_function_of_a_dataset_is_a_clear_error(tmp_path):
    module = tf.Module()
    module.f = tf.function(total, input_signature=[tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))])
    with pytest.raises(ValueError, match="cannot save a function that takes a tf.data.Dataset argument"):
        tf.saved_model.save(module, str(tmp_path))


def test_a_concrete_function_called_without_its_dataset():
    cf = tf.function(total).get_concrete_function(D.range(2))
    with pytest.raises(TypeError, match="missing a required argument: 'ds'"):
        cf()
