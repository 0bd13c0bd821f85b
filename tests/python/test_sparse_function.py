"""SparseTensor through tf.function (arguments traced by SparseTensorSpec, results, static
shapes in graphs), gradients of the sparse ops (values printed by TF 2.21 for the same code, and
finite differences), and VarLenFeature parsing eagerly, in functions and in tf.data."""

import numpy as np
import pytest

import graphfn as tf


def sparse(indices, values, shape):
    return tf.sparse.SparseTensor(indices, values, shape)


def test_function_traces_a_sparse_argument_by_its_spec():
    traces = []

    @tf.function
    def f(sp):
        traces.append(sp)
        return tf.sparse.to_dense(sp) * 2

    out = f(sparse([[0, 0], [1, 2]], [1.0, 2.0], [3, 4]))
    assert out.numpy().tolist() == [[2, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 0]]
    f(sparse([[0, 1]], [5.0], [3, 4]))  # same spec: no new trace
    assert len(traces) == 1
    assert traces[0].shape == tf.TensorShape([3, 4])
    assert str(traces[0].indices.shape) == "(None, 2)"
    f(sparse([[0, 1]], [5.0], [2, 2]))
    assert len(traces) == 2


def test_input_signature_and_concrete_function():
    spec = tf.SparseTensorSpec([None, 4], tf.float32)
    f = tf.function(lambda s: tf.sparse.reduce_sum(s), input_signature=[spec])
    assert f(sparse([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])).numpy() == 3.0
    concrete = tf.function(lambda s: s.values * 2).get_concrete_function(spec)
    assert repr(concrete.structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([None, 4]), tf.float32),), {})"


def test_sparse_result_of_a_function():
    g = tf.function(lambda x: tf.sparse.from_dense(x))
    result = g(tf.constant([[0.0, 1.0], [2.0, 0.0]]))
    assert isinstance(result, tf.SparseTensor)
    assert result.indices.numpy().tolist() == [[0, 1], [1, 0]]
    outputs = g.get_concrete_function(tf.TensorSpec([2, 2], tf.float32)).structured_outputs
    assert repr(outputs) == ('SparseTensor(indices=Tensor("Identity:0", shape=(None, 2), dtype=int64), '
                             'values=Tensor("Identity_1:0", shape=(None,), dtype=float32), '
                             'dense_shape=Tensor("Identity_2:0", shape=(2,), dtype=int64))')


def test_static_shapes_in_a_graph_match_tensorflow():
    @tf.function
    def ops(x):
        sp = tf.sparse.from_dense(x)
        return (tf.sparse.reduce_sum(sp, 1), tf.sparse.reduce_max(sp, 0, keepdims=True),
                tf.sparse.to_dense(tf.sparse.transpose(sp)), tf.sparse.to_dense(tf.sparse.slice(sp, [0, 0], [1, 2])),
                tf.sparse.to_dense(tf.sparse.concat(0, [sp, sp])), tf.sparse.to_dense(tf.sparse.reshape(sp, [-1])))

    x = tf.constant([[0.0, 1.0], [2.0, 0.0]])
    assert [r.numpy().tolist() for r in ops(x)] == [
        [1.0, 2.0], [[2.0, 1.0]], [[0.0, 2.0], [1.0, 0.0]], [[0.0, 1.0]],
        [[0.0, 1.0], [2.0, 0.0], [0.0, 1.0], [2.0, 0.0]], [0.0, 1.0, 2.0, 0.0]]
    shapes = [r.shape for r in ops.get_concrete_function(tf.TensorSpec([2, 2])).structured_outputs]
    assert repr(shapes) == ("[TensorShape([2]), TensorShape([1, 2]), TensorShape([2, 2]), TensorShape([None, None]), "
                            "TensorShape([4, 2]), TensorShape([4])]")


def test_sparse_ops_in_a_function_match_eager():
    @tf.function
    def mm(v, b):
        sp = sparse([[0, 0], [1, 2], [0, 1]], v, [2, 3])
        return tf.sparse.sparse_dense_matmul(tf.sparse.reorder(sp), b)

    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    assert mm(tf.constant([1.0, 2.0, 3.0]), b).numpy().tolist() == [[10.0, 14.0], [10.0, 12.0]]


def test_a_kernel_error_inside_a_function():
    f = tf.function(lambda sp: tf.sparse.to_dense(sp))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[0,0\] is out of order"):
        f(sparse([[1, 0], [0, 0]], [1.0, 2.0], [2, 2]))


# Gradients: TF 2.21 printed these for the same computations.

B = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
WEIGHTS = [[1.0, -1.0], [2.0, 0.5]]


def matmul_grads(adjoint_a, adjoint_b, in_function=False):
    values = tf.Variable([1.0, 2.0, 3.0])
    dense = tf.Variable(tf.transpose(tf.constant(B)) if adjoint_b else tf.constant(B))
    indices = [[0, 0], [2, 1], [1, 0]] if adjoint_a else [[0, 0], [1, 2], [0, 1]]
    shape = [3, 2] if adjoint_a else [2, 3]

    def grads():
        with tf.GradientTape() as tape:
            sp = sparse(indices, values, shape)
            y = tf.sparse.sparse_dense_matmul(sp, dense, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
            loss = tf.reduce_sum(y * tf.constant(WEIGHTS))
        return tape.gradient(loss, [values, dense])

    gv, gb = tf.function(grads)() if in_function else grads()
    return gv.numpy().tolist(), gb.numpy().tolist()


@pytest.mark.parametrize("in_function", [False, True])
@pytest.mark.parametrize("adjoint_a", [False, True])
@pytest.mark.parametrize("adjoint_b", [False, True])
def test_sparse_dense_matmul_gradients_match_tensorflow(adjoint_a, adjoint_b, in_function):
    gv, gb = matmul_grads(adjoint_a, adjoint_b, in_function)
    assert gv == [-1.0, 13.0, -1.0]
    assert gb == ([[1.0, 3.0, 4.0], [-1.0, -3.0, 1.0]] if adjoint_b else [[1.0, -1.0], [3.0, -3.0], [4.0, 1.0]])


@pytest.mark.parametrize("adjoint_a, adjoint_b", [(False, False), (True, False), (False, True), (True, True)])
def test_sparse_dense_matmul_gradients_match_finite_differences(adjoint_a, adjoint_b):
    rng = np.random.default_rng(3)
    indices = [[0, 1], [1, 0], [2, 2], [3, 1]]
    a_shape = [4, 3]
    values = rng.normal(size=4)
    dense = rng.normal(size=(2, 3) if adjoint_b else (3, 2)) if not adjoint_a else \
        rng.normal(size=(2, 4) if adjoint_b else (4, 2))
    weights = rng.normal(size=(3 if adjoint_a else 4, 2))

    def loss(v, b):
        sp = sparse(indices, tf.constant(v), a_shape)
        y = tf.sparse.sparse_dense_matmul(sp, tf.constant(b), adjoint_a=adjoint_a, adjoint_b=adjoint_b)
        return tf.reduce_sum(y * weights).numpy()

    v_var, b_var = tf.Variable(values), tf.Variable(dense)
    with tf.GradientTape() as tape:
        y = tf.sparse.sparse_dense_matmul(sparse(indices, v_var, a_shape), b_var, adjoint_a=adjoint_a,
                                          adjoint_b=adjoint_b)
        total = tf.reduce_sum(y * weights)
    gv, gb = tape.gradient(total, [v_var, b_var])
    eps = 1e-6
    for analytic, x, which in ((gv.numpy(), values, 0), (gb.numpy(), dense, 1)):
        numeric = np.zeros_like(x)
        for i in np.ndindex(x.shape):
            up, down = x.copy(), x.copy()
            up[i] += eps
            down[i] -= eps
            args_up = (up, dense) if which == 0 else (values, up)
            args_down = (down, dense) if which == 0 else (values, down)
            numeric[i] = (loss(*args_up) - loss(*args_down)) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_to_dense_gradient_matches_tensorflow():
    values, default = tf.Variable([1.0, 2.0]), tf.Variable(0.5)
    with tf.GradientTape() as tape:
        d = tf.sparse.to_dense(sparse([[0, 0], [1, 1]], values, [2, 3]), default_value=default)
        loss = tf.reduce_sum(d * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    gv, gd = tape.gradient(loss, [values, default])
    assert gv.numpy().tolist() == [1.0, 5.0] and gd.numpy() == 15.0


def test_reorder_add_fill_gradients_match_tensorflow():
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        sp = tf.sparse.reorder(sparse([[1, 0], [0, 1], [0, 0]], v, [2, 2]))
        loss = tf.reduce_sum(sp.values * tf.constant([1.0, 10.0, 100.0]))
    assert tape.gradient(loss, v).numpy().tolist() == [100.0, 10.0, 1.0]

    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        s = tf.sparse.add(sparse([[0, 0], [1, 1]], a, [2, 2]), sparse([[0, 0], [1, 0]], b, [2, 2]))
        loss = tf.reduce_sum(s.values * tf.constant([1.0, 10.0, 100.0]))
    assert [g.numpy().tolist() for g in tape.gradient(loss, [a, b])] == [[1.0, 100.0], [1.0, 10.0]]

    a, d = tf.Variable([1.0, 2.0]), tf.Variable(tf.ones([2, 2]))
    with tf.GradientTape() as tape:
        s = tf.sparse.add(sparse([[0, 0], [1, 1]], a, [2, 2]), d)
        loss = tf.reduce_sum(s * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert [g.numpy().tolist() for g in tape.gradient(loss, [a, d])] == [[1.0, 4.0], [[1.0, 2.0], [3.0, 4.0]]]

    a = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        s, _ = tf.sparse.fill_empty_rows(sparse([[0, 0], [2, 1]], a, [3, 2]), 7.0)
        loss = tf.reduce_sum(s.values * tf.constant([1.0, 10.0, 100.0]))
    assert tape.gradient(loss, a).numpy().tolist() == [1.0, 100.0]


# VarLenFeature parsing (TF 2.21 printed the same values).

def example(tags, ids):
    return tf.train.Example(features=tf.train.Features(feature={
        "tags": tf.train.Feature(bytes_list=tf.train.BytesList(value=tags)),
        "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids)),
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5]))})).SerializeToString()


BATCH = [example([b"a", b"b"], [1]), example([], [2, 3, 4]), example([b"c"], [])]
FEATURES = {"tags": tf.io.VarLenFeature(tf.string), "ids": tf.io.VarLenFeature(tf.int64),
            "x": tf.io.FixedLenFeature([], tf.float32)}


def test_parse_example_var_len_feature():
    parsed = tf.io.parse_example(BATCH, FEATURES)
    assert repr(parsed["ids"]) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 0]\n [1 1]\n [1 2]], shape=(4, 2), dtype=int64), "
        "values=tf.Tensor([1 2 3 4], shape=(4,), dtype=int64), dense_shape=tf.Tensor([3 3], shape=(2,), dtype=int64))")
    assert repr(parsed["tags"]) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 1]\n [2 0]], shape=(3, 2), dtype=int64), values=tf.Tensor("
        "[b'a' b'b' b'c'], shape=(3,), dtype=string), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int64))")
    assert parsed["x"].numpy().tolist() == [1.5, 1.5, 1.5]


def test_parse_single_example_var_len_feature():
    parsed = tf.io.parse_single_example(BATCH[1], FEATURES)
    assert repr(parsed["ids"]) == (
        "SparseTensor(indices=tf.Tensor(\n[[0]\n [1]\n [2]], shape=(3, 1), dtype=int64), values=tf.Tensor([2 3 4], "
        "shape=(3,), dtype=int64), dense_shape=tf.Tensor([3], shape=(1,), dtype=int64))")
    assert repr(parsed["tags"]) == (
        "SparseTensor(indices=tf.Tensor([], shape=(0, 1), dtype=int64), values=tf.Tensor([], shape=(0,), "
        "dtype=string), dense_shape=tf.Tensor([0], shape=(1,), dtype=int64))")


def test_var_len_feature_in_a_function_and_in_tf_data():
    parse = tf.function(lambda s: tf.io.parse_example(s, FEATURES))
    assert tf.sparse.to_dense(parse(tf.constant(BATCH))["ids"]).numpy().tolist() == [[1, 0, 0], [2, 3, 4], [0, 0, 0]]
    spec = parse.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs["tags"].shape
    assert spec == tf.TensorShape([None, None])
    ds = tf.data.Dataset.from_tensor_slices(BATCH).map(lambda s: tf.io.parse_single_example(s, FEATURES))
    assert repr(ds.element_spec) == (
        "{'ids': SparseTensorSpec(TensorShape([None]), tf.int64), 'tags': SparseTensorSpec(TensorShape([None]), "
        "tf.string), 'x': TensorSpec(shape=(), dtype=tf.float32, name=None)}")
    assert [tf.sparse.to_dense(e["ids"]).numpy().tolist() for e in ds] == [[1], [2, 3, 4], []]
    batched = tf.data.Dataset.from_tensor_slices(BATCH).batch(2).map(lambda s: tf.io.parse_example(s, FEATURES))
    assert [tf.sparse.to_dense(e["tags"]).numpy().tolist() for e in batched] == [[[b"a", b"b"], [b"", b""]], [[b"c"]]]


def reduce_sum_grad(axis, keepdims, in_function=False):
    v = tf.Variable([1.0, 2.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            s = tf.sparse.reduce_sum(sparse([[0, 0], [1, 2], [2, 1]], v, [3, 3]), axis, keepdims=keepdims)
            weights = tf.reshape(tf.range(1.0, 1.0 + tf.cast(tf.size(s), tf.float32)), tf.shape(s))
            loss = tf.reduce_sum(s * weights)
        return tape.gradient(loss, v)

    return (tf.function(run)() if in_function else run()).numpy().tolist()


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis, expected", [(0, [1.0, 3.0, 2.0]), (1, [1.0, 2.0, 3.0]), (-1, [1.0, 2.0, 3.0]),
                                            (None, [1.0, 1.0, 1.0]), ([0, 1], [1.0, 1.0, 1.0])])
def test_reduce_sum_gradient_matches_tensorflow(axis, expected, keepdims):
    assert reduce_sum_grad(axis, keepdims) == expected


def test_slice_and_reduce_sum_gradients_in_a_function_and_reduce_max_has_none():
    assert reduce_sum_grad(0, False, in_function=True) == [1.0, 3.0, 2.0]
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        s = tf.sparse.slice(sparse([[0, 0], [1, 2], [2, 1]], v, [3, 3]), [1, 0], [2, 3])
        loss = tf.reduce_sum(s.values * tf.constant([10.0, 100.0]))
    assert tape.gradient(loss, v).numpy().tolist() == [0.0, 10.0, 100.0]
    with tf.GradientTape() as tape:
        m = tf.sparse.reduce_max(sparse([[0, 0], [1, 2], [2, 1]], v, [3, 3]), 0)
    with pytest.raises(LookupError, match="gradient registry has no entry for: SparseReduceMax"):
        tape.gradient(m, v)


def test_sparse_maximum_gradient_refuses_with_tensorflows_text():
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        m = tf.sparse.maximum(sparse([[0, 0], [1, 1]], v, [2, 2]), sparse([[0, 0]], [3.0], [2, 2]))
        loss = tf.reduce_sum(m.values)
    with pytest.raises(tf.errors.UnimplementedError, match="Gradient for SparseSparseMaximum is currently not "
                                                           "implemented yet."):
        tape.gradient(loss, v)


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
def test_shape_size_and_rank_of_a_sparse_tensor_describe_its_dense_shape(in_function):
    # TF 2.21: [2 4] int32, [2 4] int64, 8 int32, 8 int64, 2 int32 (Keras's train_step takes the
    # batch size of sparse inputs with tf.shape)
    def describe(sp):
        return (tf.shape(sp), tf.shape(sp, out_type=tf.int64), tf.size(sp), tf.size(sp, out_type=tf.int64),
                tf.rank(sp))
    if in_function:
        describe = tf.function(describe)
    got = describe(sparse([[0, 0]], [1.0], [2, 4]))
    assert [(v.numpy().tolist(), v.dtype.name) for v in got] == [
        ([2, 4], "int32"), ([2, 4], "int64"), (8, "int32"), (8, "int64"), (2, "int32")]
