"""RaggedTensors and tf.function: traced by RaggedTensorSpec (one trace per spec), flat
components as placeholders, ragged results, input_signature errors, graph-mode printing and
gradients through flat_values. Expected texts and values printed by TF 2.21."""

import pytest

import graphfn as tf


def test_one_trace_per_spec_and_graph_printing(capsys):
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        print("traced:", x)
        return x * 2, tf.reduce_sum(x, axis=1)

    doubled, sums = f(tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]]))
    assert repr(doubled) == "<tf.RaggedTensor [[2, 4, 6], [8], [], [10, 12]]>"
    assert sums.numpy().tolist() == [6, 4, 0, 11]
    f(tf.ragged.constant([[1], [2, 3], [], [4]]))  # same spec: RaggedTensorSpec([4, None], int32, 1, int64)
    assert len(traces) == 1
    f(tf.ragged.constant([[1], [2, 3]]))
    assert len(traces) == 2
    f(tf.ragged.constant([[1.0], [2.0, 3.0]]))
    assert len(traces) == 3
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == ('traced: tf.RaggedTensor(values=Tensor("x:0", shape=(None,), dtype=int32), '
                          'row_splits=Tensor("x_1:0", shape=(5,), dtype=int64))')


def test_concrete_function_signature_and_outputs():
    @tf.function
    def f(x):
        return x * 2, x.to_tensor(), x.nrows(), x.bounding_shape()

    cf = f.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert repr(cf.structured_input_signature) == (
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})")
    assert [repr(t.shape) for t in cf.outputs] == ["TensorShape([None])", "TensorShape([None])",
                                                   "TensorShape([None, None])", "TensorShape([])", "TensorShape([2])"]
    assert repr(cf.structured_outputs[0]) == ('tf.RaggedTensor(values=Tensor("Identity:0", shape=(None,), dtype=int32), '
                                              'row_splits=Tensor("Identity_1:0", shape=(None,), dtype=int64))')
    assert repr(cf(tf.ragged.constant([[1], [2, 3]]))[0]) == "<tf.RaggedTensor [[2], [4, 6]]>"


def test_input_signature():
    g = tf.function(lambda x: tf.reduce_sum(x, axis=1), input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    assert g(tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])).numpy().tolist() == [6, 4, 0, 11]
    assert g(tf.ragged.constant([[1]])).numpy().tolist() == [1]
    assert g.experimental_get_tracing_count() == 1
    assert g.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, "
        "tf.int64)\nOutput Type:\n  TensorSpec(shape=(None,), dtype=tf.int32, name=None)\nCaptures:\n  None")
    with pytest.raises(TypeError, match=r"Binding inputs to tf.function failed due to `Can not cast TensorSpec\(shape="
                                        r"\(1,\), dtype=tf.float32, name=None\) to TensorSpec\(shape=\(None,\), "
                                        r"dtype=tf.int32, name=None\)`"):
        g(tf.ragged.constant([[1.0]]))
    for bad in (tf.constant([[1, 2], [3, 4]]), tf.ragged.constant([[[1]]]), [[1, 2], [3]]):
        with pytest.raises(TypeError, match="Binding inputs to tf.function failed due to `The two structures don't "
                                            "have the same nested structure.\n\nFirst structure: type=list str="
                                            r"\[TensorSpec\(shape=\(None,\), dtype=tf.int32, name=None\), "
                                            r"TensorSpec\(shape=\(None,\), dtype=tf.int64, name=None\)\]"):
            g(bad)


def test_reduce_retracing_generalizes_nrows():
    f = tf.function(lambda x: x, reduce_retracing=True)
    f(tf.ragged.constant([[1]]))
    f(tf.ragged.constant([[1], [2]]))
    out = f(tf.ragged.constant([[1], [2], [3]]))
    assert repr(out) == "<tf.RaggedTensor [[1],\n [2],\n [3]]>"  # uniform rows print as NumPy does
    assert f.experimental_get_tracing_count() == 2


def test_ragged_made_and_returned_in_a_function(capsys):
    @tf.function
    def make():
        r = tf.ragged.constant([[1, 2], [3]])
        print("in graph:", r)
        return r

    assert repr(make()) == "<tf.RaggedTensor [[1, 2], [3]]>"
    assert capsys.readouterr().out.strip() == (
        'in graph: tf.RaggedTensor(values=Tensor("RaggedConstant/values:0", shape=(3,), dtype=int32), '
        'row_splits=Tensor("RaggedConstant/Const:0", shape=(3,), dtype=int64))')
    h = tf.function(lambda x: tf.RaggedTensor.from_row_lengths(x, [2, 1]))
    assert repr(h(tf.constant([1.0, 2.0, 3.0]))) == "<tf.RaggedTensor [[1.0, 2.0], [3.0]]>"


def test_gradients_through_flat_values():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        r = tf.RaggedTensor.from_row_splits(x, [0, 2, 3])
        y = tf.reduce_sum(tf.reduce_sum(r * r, axis=1) * tf.constant([1.0, 10.0]))
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0, 60.0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.RaggedTensor.from_row_splits(x, [0, 2, 3]).to_tensor() * tf.constant([[1.0, 2.0],
                                                                                                     [3.0, 4.0]]))
    assert tf.convert_to_tensor(tape.gradient(y, x)).numpy().tolist() == [1.0, 2.0, 3.0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.reduce_mean(tf.RaggedTensor.from_row_splits(x, [0, 2, 3]), axis=1))
    assert tape.gradient(y, x).numpy().tolist() == [0.5, 0.5, 1.0]

    @tf.function
    def k(r):
        return tf.reduce_max(r * 3.0, axis=1)

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(k(tf.RaggedTensor.from_row_splits(x, [0, 2, 3])))
    assert tape.gradient(y, x).numpy().tolist() == [0.0, 3.0, 3.0]


def test_ragged_in_nested_arguments():
    @tf.function
    def f(d):
        return {"total": tf.reduce_sum(d["r"]) + d["n"]}

    out = f({"r": tf.ragged.constant([[1, 2], [3]]), "n": tf.constant(10)})
    assert out["total"].numpy() == 16


def test_cond_with_ragged_branches():
    # TF 2.21: <tf.RaggedTensor [[2, 4], [6]]> and <tf.RaggedTensor [[2, 3], [4]]>
    @tf.function
    def f(x, b):
        return tf.cond(b, lambda: x * 2, lambda: x + 1)

    rt = tf.ragged.constant([[1, 2], [3]])
    assert repr(f(rt, tf.constant(True))) == "<tf.RaggedTensor [[2, 4], [6]]>"
    assert repr(f(rt, tf.constant(False))) == "<tf.RaggedTensor [[2, 3], [4]]>"


def test_iterating_rows():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert [r.numpy().tolist() for r in rt] == [[1, 2], [3]]

    @tf.function
    def total(x):
        s = tf.constant(0)
        for row in x:
            s += tf.reduce_sum(row)
        return s

    assert total(rt).numpy() == 6  # TF 2.21: 6
    unknown = tf.function(total.python_function, input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    with pytest.raises(TypeError, match="number of rows is unknown"):
        unknown(rt)
