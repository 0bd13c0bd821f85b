"""Array ops inside graphfn.function: every op traced into a graph gives the eager result, and the
static shapes seen while tracing (`y.shape` inside the function) are the ones TensorFlow 2.21
prints for the same code, with the inputs' shapes known (traced for the arguments) or partly
unknown (input_signature with None dims, or an unknown rank)."""

import numpy as np
import pytest

import graphfn as tf

B, F = tf.bool, tf.float32
GAP = "tf-infers-more"  # TF derives more from shape tensors; see test_shapes_tf_derives_from_shape_tensors


def S(shape, dtype=tf.int32):  # noqa: N802 (reads like TensorSpec)
    return tf.TensorSpec(shape, dtype)


def c(value, dtype=None):
    return tf.constant(value, dtype)


x4 = c([1, 2, 3, 4])
m23 = c([[1, 2, 3], [4, 5, 6]])
i0, i1 = c(0), c(1)

# (id, function, arguments, input_signature or None, static "dtype shape" TF prints while tracing)
CASES = []


def add(name, fn, args, *signatures, shapes):
    """One case traced for the arguments' own shapes, plus one per input_signature; `shapes` gives
    TF's static result shape for each, in that order."""
    assert len(shapes) == len(signatures) + 1
    for k, (signature, shape) in enumerate(zip((None,) + signatures, shapes)):
        CASES.append((name if signature is None else "%s/sig%d" % (name, k - 1), fn, args, signature, shape))


add("identity", lambda x: tf.identity(x), [x4], [S([None])], [S(None)],
    shapes=["int32 (4,)", "int32 (None,)", "int32 <unknown>"])
add("constant_in_fn", lambda x: x + tf.constant([1, 2, 3, 4]), [x4], [S([None])],
    shapes=["int32 (4,)", "int32 (4,)"])
add("convert_in_fn", lambda x: tf.convert_to_tensor(x) + tf.convert_to_tensor(1), [x4], [S([None])],
    shapes=["int32 (4,)", "int32 (None,)"])
add("reshape_const", lambda x: tf.reshape(x, [2, -1]), [x4], [S([None])], [S(None)],
    shapes=["int32 (2, 2)", "int32 (2, None)", "int32 (2, None)"])
add("reshape_flat", lambda x: tf.reshape(x, [-1]), [m23], [S([None, 3])], [S([2, None])], [S(None)],
    shapes=["int32 (6,)", "int32 (None,)", "int32 (None,)", "int32 (None,)"])
add("reshape_3d", lambda x: tf.reshape(x, [3, 1, -1]), [m23], [S([None, 3])], [S([2, None])],
    shapes=["int32 (3, 1, 2)", "int32 (3, 1, None)", "int32 (3, 1, None)"])
add("reshape_dyn", lambda x, s: tf.reshape(x, s), [x4, c([2, 2])], [S([None]), S([2])],
    shapes=["int32 (None, None)", "int32 (None, None)"])
add("reshape_autopack", lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [m23], [S([None, 3])],
    shapes=[GAP, "int32 (None, None)"])
add("reshape_shape_of", lambda x: tf.reshape(x, tf.shape(x)), [m23], [S([None, 3])], shapes=["int32 (2, 3)", GAP])
add("transpose", lambda x: tf.transpose(x), [m23], [S([None, 3])], [S(None)],
    shapes=["int32 (3, 2)", "int32 (3, None)", "int32 <unknown>"])
add("transpose_scalar", lambda x: tf.transpose(x), [i1], [S(None)], shapes=["int32 ()", "int32 <unknown>"])
add("transpose_3d", lambda x: tf.transpose(tf.reshape(x, [1, 2, 3])), [m23], [S([None, 3])],
    shapes=["int32 (3, 2, 1)", "int32 (3, 2, 1)"])
add("transpose_perm_const", lambda x: tf.transpose(x, [1, 0]), [m23], [S([None, 3])], [S(None)],
    shapes=["int32 (3, 2)", "int32 (3, None)", "int32 (None, None)"])
add("transpose_perm", lambda x, p: tf.transpose(x, p), [m23, c([1, 0])], [S([None, 3]), S([2])],
    shapes=["int32 (None, None)", "int32 (None, None)"])
add("expand_dims", lambda x: tf.expand_dims(x, 0), [x4], [S([None])], [S(None)],
    shapes=["int32 (1, 4)", "int32 (1, None)", "int32 <unknown>"])
add("expand_dims_neg", lambda x: tf.expand_dims(x, -1), [m23], [S([None, 3])],
    shapes=["int32 (2, 3, 1)", "int32 (None, 3, 1)"])
add("expand_dims_dyn", lambda x, a: tf.expand_dims(x, a), [x4, i0], [S([None]), S([])],
    shapes=["int32 <unknown>", "int32 <unknown>"])
add("squeeze", lambda x: tf.squeeze(x), [c([[1, 2]])], [S([1, 2])], [S([None, 2])], [S([1, None])], [S(None)],
    shapes=["int32 (2,)", "int32 (2,)", "int32 <unknown>", "int32 <unknown>", "int32 <unknown>"])
add("squeeze_axis", lambda x: tf.squeeze(x, [0]), [c([[1, 2]])], [S([None, 2])], [S(None)],
    shapes=["int32 (2,)", "int32 (2,)", "int32 <unknown>"])
add("concat", lambda x: tf.concat([x, x], 0), [x4], [S([None])], [S(None)],
    shapes=["int32 (8,)", "int32 (None,)", "int32 <unknown>"])
add("concat_axis1", lambda x, y: tf.concat([x, y], 1), [m23, m23],
    [S([None, 3]), S([2, None])], [S([None, 3]), S(None)],
    shapes=["int32 (2, 6)", "int32 (2, None)", "int32 (None, None)"])
add("concat_dyn_axis", lambda x, a: tf.concat([x, x], a), [x4, i0], [S([None]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("concat_one", lambda x: tf.concat([x], 0), [x4], [S([None])], shapes=["int32 (4,)", "int32 (None,)"])
add("stack", lambda x: tf.stack([x, x]), [x4], [S([None])], [S(None)],
    shapes=["int32 (2, 4)", "int32 (2, None)", "int32 <unknown>"])
add("stack_axis1", lambda x: tf.stack([x, x], axis=1), [x4], [S([None])],
    shapes=["int32 (4, 2)", "int32 (None, 2)"])
add("stack_mixed", lambda x: tf.stack([x, 5]), [i1], [S([])], shapes=["int32 (2,)", "int32 (2,)"])
add("stack_scalars", lambda x: tf.stack([x[0], x[1], 7]), [x4], [S([None])], shapes=["int32 (3,)", "int32 (3,)"])
add("stack_tensor", lambda x: tf.stack(x), [m23], [S([2, None])], shapes=["int32 (2, 3)", "int32 (2, None)"])
add("unstack", lambda x: tf.unstack(x), [x4], [S([4])],
    shapes=[["int32 ()", "int32 ()", "int32 ()", "int32 ()"], ["int32 ()", "int32 ()", "int32 ()", "int32 ()"]])
add("unstack_axis1", lambda x: tf.unstack(x, axis=1), [m23], [S([None, 3])],
    shapes=[["int32 (2,)", "int32 (2,)", "int32 (2,)"], ["int32 (None,)", "int32 (None,)", "int32 (None,)"]])
add("unstack_num", lambda x: tf.unstack(x, num=2), [m23], [S([None, 3])],
    shapes=[["int32 (3,)", "int32 (3,)"], ["int32 (3,)", "int32 (3,)"]])
add("gather", lambda x, i: tf.gather(x, i), [x4, c([0, 2])], [S([None]), S([None])], [S(None), S(None)],
    shapes=["int32 (2,)", "int32 (None,)", "int32 <unknown>"])
add("gather_axis", lambda x, i: tf.gather(x, i, axis=1), [m23, c([2, 0])], [S([None, 3]), S([None])],
    shapes=["int32 (2, 2)", "int32 (None, None)"])
add("gather_dyn_axis", lambda x, i, a: tf.gather(x, i, axis=a), [m23, c([1]), i1], [S([None, 3]), S([1]), S([])],
    shapes=["int32 (None, None)", "int32 (None, None)"])
add("gather_scalar", lambda x, i: tf.gather(x, i), [x4, i1], [S([None]), S([])], shapes=["int32 ()", "int32 ()"])
add("gather_batch", lambda x, i: tf.gather(x, i, axis=1, batch_dims=1), [m23, c([[0], [2]])],
    [S([None, 3]), S([None, 1])],
    shapes=["int32 (2, 1)", "int32 (None, 1)"])
add("getitem", lambda x: x[0], [x4], [S([None])], [S(None)], shapes=["int32 ()", "int32 ()", "int32 <unknown>"])
add("getitem_neg", lambda x: x[-1], [m23], [S([None, 3])], shapes=["int32 (3,)", "int32 (3,)"])
add("getitem_slice", lambda x: x[1:, ::-1], [m23], [S([None, 3])], [S([None, None])], [S(None)],
    shapes=["int32 (1, 3)", "int32 (None, 3)", "int32 (None, None)", "int32 <unknown>"])
add("getitem_col", lambda x: x[:, 1], [m23], [S([None, 3])], [S(None)],
    shapes=["int32 (2,)", "int32 (None,)", "int32 <unknown>"])
add("getitem_newaxis", lambda x: x[..., None, 1:2], [m23], [S([None, 3])],
    shapes=["int32 (2, 1, 1)", "int32 (None, 1, 1)"])
add("getitem_step", lambda x: x[::2], [x4], [S([None])], shapes=["int32 (2,)", "int32 (None,)"])
add("getitem_tensor", lambda x, i: x[i], [x4, i1], [S([None]), S([])], shapes=["int32 ()", "int32 ()"])
add("getitem_tensor_slice", lambda x, i: x[i:], [x4, i1], [S([None]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("getitem_tensor_stop", lambda x, i: x[:i], [x4, i1], [S([4]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("getitem_tensor_both", lambda x, i, j: x[i:j], [x4, i1, c(3)], [S([None]), S([]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("getitem_tensor_step", lambda x, i: x[::i], [x4, c(2)], [S([4]), S([])],
    shapes=["int32 <unknown>", "int32 <unknown>"])
add("getitem_tensor_col", lambda x, i: x[:, i], [m23, i1], [S([None, 3]), S([])],
    shapes=["int32 (2,)", "int32 (None,)"])
add("getitem_tensor_mixed", lambda x, i: x[i, 1:], [m23, i1], [S([2, 3]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("getitem_int64", lambda x, i: x[i], [x4, c(2, tf.int64)], [S([None]), S([], tf.int64)],
    shapes=["int32 ()", "int32 ()"])
add("getitem_bool_mask", lambda x, m: x[m], [x4, c([True, False, True, True])], [S([None]), S([None], B)],
    shapes=["int32 (None,)", "int32 (None,)"])
add("slice", lambda x: tf.slice(x, [1], [2]), [x4], [S([None])], [S(None)],
    shapes=["int32 (2,)", "int32 (2,)", "int32 (2,)"])
add("slice_rest", lambda x: tf.slice(x, [0, 1], [-1, 2]), [m23], [S([None, 3])], [S([None, None])],
    shapes=["int32 (2, 2)", "int32 (None, 2)", "int32 (None, 2)"])
add("slice_dyn", lambda x, b, s: tf.slice(x, b, s), [x4, c([1]), c([2])], [S([None]), S([1]), S([1])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("strided", lambda x, b, e, s: tf.strided_slice(x, b, e, s), [x4, c([0]), c([4]), c([2])],
    [S([None]), S([1]), S([1]), S([1])],
    shapes=["int32 <unknown>", "int32 <unknown>"])
add("strided_const", lambda x: tf.strided_slice(x, [1], [3]), [x4], [S([None])],
    shapes=["int32 (2,)", "int32 (None,)"])
add("shape", lambda x: tf.shape(x), [m23], [S([None, 3])], [S(None)],
    shapes=["int32 (2,)", "int32 (2,)", "int32 (None,)"])
add("shape_int64", lambda x: tf.shape(x, out_type=tf.int64), [m23], [S([None, 3])],
    shapes=["int64 (2,)", "int64 (2,)"])
add("size", lambda x: tf.size(x), [m23], [S([None, 3])], [S(None)], shapes=["int32 ()", "int32 ()", "int32 ()"])
add("rank", lambda x: tf.rank(x), [m23], [S([None, 3])], [S(None)], shapes=["int32 ()", "int32 ()", "int32 ()"])
add("fill", lambda d, v: tf.fill(d, v), [c([2, 3]), c(1.5)], [S([2]), S([], F)], [S([None]), S([], F)],
    shapes=["float32 (None, None)", "float32 (None, None)", "float32 <unknown>"])
add("fill_const", lambda v: tf.fill([2, 3], v), [c(1.5)], [S(None, F)],
    shapes=["float32 (2, 3)", "float32 (2, 3)"])
add("zeros", lambda x: x + tf.zeros([4], tf.int32), [x4], [S([None])], shapes=["int32 (4,)", "int32 (4,)"])
add("zeros_dyn", lambda d: tf.zeros(d), [c([2, 3])], [S([2])],
    shapes=["float32 (None, None)", "float32 (None, None)"])
add("zeros_autopack", lambda x: tf.zeros([tf.shape(x)[0], 2]), [m23], [S([None, 3])], shapes=[GAP, GAP])
add("ones_dyn", lambda d: tf.ones(d, tf.int32), [c([2, 3])], [S([2])],
    shapes=["int32 (None, None)", "int32 (None, None)"])
add("zeros_like", lambda x: tf.zeros_like(x), [x4], [S([None])], [S(None)],
    shapes=["int32 (4,)", "int32 (None,)", "int32 <unknown>"])
add("zeros_like_dtype", lambda x: tf.zeros_like(x, dtype=tf.float32), [x4], [S([None])],
    shapes=["float32 (4,)", "float32 (None,)"])
add("ones_like", lambda x: tf.ones_like(x), [x4], [S([None])], shapes=["int32 (4,)", "int32 (None,)"])
add("ones_like_dtype", lambda x: tf.ones_like(x, dtype=tf.float32), [m23], [S([None, 3])], [S(None)],
    shapes=["float32 (2, 3)", "float32 (None, 3)", "float32 <unknown>"])
add("eye", lambda: tf.eye(3), [], shapes=["float32 (3, 3)"])
add("eye_dyn", lambda n: tf.eye(n), [c(3)], [S([])], shapes=["float32 (None, None)", "float32 (None, None)"])
add("eye_dyn_cols", lambda n: tf.eye(2, n), [c(3)], [S([])], shapes=["float32 (2, None)", "float32 (2, None)"])
add("eye_batch", lambda n: tf.eye(n, batch_shape=[2]), [c(2)], [S([])],
    shapes=["float32 (2, None, None)", "float32 (2, None, None)"])
add("eye_dtype", lambda: tf.eye(2, 3, dtype=tf.int32), [], shapes=["int32 (2, 3)"])
add("range_dyn", lambda n: tf.range(n), [c(5)], [S([])], shapes=["int32 (None,)", "int32 (None,)"])
add("range3", lambda a, b, d: tf.range(a, b, d), [i1, c(10), c(3)], [S([]), S([]), S([])],
    shapes=["int32 (None,)", "int32 (None,)"])
add("range_float", lambda n: tf.range(n, dtype=tf.float32), [c(3.0)], [S([], F)],
    shapes=["float32 (None,)", "float32 (None,)"])
add("range_mixed", lambda n: tf.range(1, n, 2), [c(8)], [S([])], shapes=["int32 (None,)", "int32 (None,)"])
add("range_const", lambda: tf.range(2, 8, 2), [], shapes=["int32 (3,)"])
add("where3", lambda cond, x, y: tf.where(cond, x, y), [c([True, False]), c([1, 2]), c([3, 4])],
    [S([None], B), S([None]), S([None])],
    shapes=["int32 (2,)", "int32 (None,)"])
add("where3_py", lambda cond: tf.where(cond, 1, 0), [c([True, False])], [S([None], B)],
    shapes=["int32 (2,)", "int32 (None,)"])
add("where3_bcast", lambda cond, x: tf.where(cond, x, 0), [c([[True], [False]]), c([1, 2])],
    [S([None, 1], B), S([None])],
    shapes=["int32 (2, 2)", "int32 (None, None)"])
add("where1", lambda cond: tf.where(cond), [c([True, False, True])], [S([None], B)], [S(None, B)],
    shapes=["int64 (None, 1)", "int64 (None, 1)", "int64 (None, None)"])
add("one_hot", lambda i: tf.one_hot(i, 3), [c([0, 2])], [S([None])], [S(None)],
    shapes=["float32 (2, 3)", "float32 (None, 3)", "float32 <unknown>"])
add("one_hot_dyn", lambda i, d: tf.one_hot(i, d), [c([0, 2]), c(3)], [S([None]), S([])],
    shapes=["float32 (2, None)", "float32 (None, None)"])
add("one_hot_axis0", lambda i: tf.one_hot(i, 3, axis=0, dtype=tf.int32), [c([0, 2])], [S([None])],
    shapes=["int32 (3, 2)", "int32 (3, None)"])
add("one_hot_values", lambda i, on: tf.one_hot(i, 3, on_value=on, off_value=-1.0), [c([0, 2]), c(5.0)],
    [S([None]), S([], F)],
    shapes=["float32 (2, 3)", "float32 (None, 3)"])
add("boolean_mask", lambda x, m: tf.boolean_mask(x, m), [x4, c([True, False, True, True])],
    [S([None]), S([None], B)], [S([4]), S([4], B)], [S(None), S([4], B)],
    shapes=["int32 (None,)", "int32 (None,)", "int32 (None,)", "int32 <unknown>"])
add("boolean_mask_2d", lambda x, m: tf.boolean_mask(x, m), [m23, c([True, False])],
    [S([None, 3]), S([None], B)], [S([2, 3]), S([2], B)],
    shapes=["int32 (None, 3)", "int32 (None, 3)", "int32 (None, 3)"])
add("boolean_mask_axis", lambda x, m: tf.boolean_mask(x, m, axis=1), [m23, c([True, False, True])],
    [S([None, 3]), S([3], B)], [S([None, None]), S([None], B)],
    shapes=["int32 (2, None)", "int32 (None, None)", "int32 (None, None)"])
add("boolean_mask_full", lambda x, m: tf.boolean_mask(x, m), [m23, c([[True, False, True], [False, True, True]])],
    [S([None, 3]), S([None, 3], B)],
    shapes=["int32 (None,)", "int32 (None,)"])


def _static(result):
    if isinstance(result, (list, tuple)):
        return [_static(t) for t in result]
    return "%s %s" % (result.dtype.name, result.shape)


def _value(result):
    if isinstance(result, (list, tuple)):
        return [_value(t) for t in result]
    return result.dtype, result.shape, result.numpy().tolist()


def _recording(fn, num_args, seen):
    """fn with the same number of positional parameters (input_signature binds them by position),
    recording the static shape of what it returns each time it is traced."""
    def record(result):
        seen.append(_static(result))
        return result
    return [lambda: record(fn()), lambda a: record(fn(a)), lambda a, b: record(fn(a, b)),
            lambda a, b, c: record(fn(a, b, c)), lambda a, b, c, d: record(fn(a, b, c, d))][num_args]


@pytest.mark.parametrize("fn,args,signature,tf_shape", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_traced_function_matches_eager_and_tf_static_shapes(fn, args, signature, tf_shape):
    seen = []
    traced = tf.function(_recording(fn, len(args), seen), input_signature=signature)
    assert _value(traced(*args)) == _value(fn(*args))
    assert len(seen) == 1
    if tf_shape != GAP:
        assert seen[0] == tf_shape


# Shapes TF derives from shape tensors built by other ops (tf.shape(x), a list packing
# tf.shape(x)[0]): its shape inference looks at the ops producing the tensor, and so does
# graphfn's (cpp/graphfn/ir/shape_value.cc).
_TF_SHAPES_FROM_SHAPE_TENSORS = [
    ("reshape_autopack", lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), None, "int32 (2, 3)"),
    ("reshape_shape_of", lambda x: tf.reshape(x, tf.shape(x)), [S([None, 3])], "int32 (None, 3)"),
    ("zeros_autopack", lambda x: tf.zeros([tf.shape(x)[0], 2]), None, "float32 (2, 2)"),
    ("zeros_autopack/sig0", lambda x: tf.zeros([tf.shape(x)[0], 2]), [S([None, 3])], "float32 (None, 2)"),
    ("fill_shape_of", lambda x: tf.fill(tf.shape(x), 1), [S([None, 3])], "int32 (None, 3)"),
]


@pytest.mark.parametrize("fn,signature,tf_shape", [case[1:] for case in _TF_SHAPES_FROM_SHAPE_TENSORS],
                         ids=[case[0] for case in _TF_SHAPES_FROM_SHAPE_TENSORS])
def test_shapes_tf_derives_from_shape_tensors(fn, signature, tf_shape):
    seen = []
    tf.function(_recording(fn, 1, seen), input_signature=signature)(m23)
    assert seen == [tf_shape]


def test_graph_nodes_are_named_as_in_tf(capsys):
    # Names TF 2.21 gives these ops' output tensors in a function.
    @tf.function(input_signature=[S([None, 3]), S([]), S([None], B), S([2, 3])])
    def f(x, i, m, k):
        results = [tf.reshape(x, [-1]), tf.transpose(x), tf.expand_dims(x, 0), tf.squeeze(x), tf.concat([x, x], 0),
                   tf.stack([x, x]), tf.unstack(k)[0], tf.gather(x, [0]), x[0], x[i], x[1:],
                   tf.strided_slice(x, [0], [1]), tf.slice(x, [0, 0], [1, 1]), tf.shape(x), tf.size(x), tf.rank(x),
                   tf.shape(k), tf.fill([2], i), tf.zeros([2]), tf.zeros(tf.shape(x)), tf.ones(tf.shape(x)),
                   tf.zeros_like(x), tf.ones_like(k), tf.zeros_like(x, tf.float32), tf.range(i), tf.where(m),
                   tf.where(m, 1, 2), tf.one_hot([1], 3), tf.identity(x), tf.constant(1), tf.convert_to_tensor(2),
                   tf.stack([1, 2]), tf.stack([i, 2]), tf.reshape(x, [-1], name="r"), tf.reshape(x, [-1], name="r"),
                   tf.convert_to_tensor([i, 2]), tf.constant([1, 2], name="k")]
        print(" ".join(t.name for t in results))
        return 0

    f.get_concrete_function()
    assert capsys.readouterr().out.split() == [
        "Reshape:0", "transpose:0", "ExpandDims:0", "Squeeze:0", "concat:0", "stack:0", "unstack:0", "GatherV2:0",
        "strided_slice:0", "strided_slice_1:0", "strided_slice_2:0", "StridedSlice:0", "Slice:0", "Shape:0",
        "Size:0", "Rank:0", "Shape_1:0", "Fill:0", "zeros:0", "zeros_1:0", "ones:0", "zeros_like:0",
        "ones_like_1:0", "zeros_like_1:0", "range:0", "Where:0", "SelectV2:0", "one_hot:0", "Identity:0", "Const:0",
        "Const_1:0", "stack_1:0", "stack_2:0", "r:0", "r_1:0", "packed:0", "k_1:0"]


def test_constants_made_while_tracing_are_graph_tensors(capsys):
    @tf.function
    def f():
        print(tf.constant(1), tf.convert_to_tensor(2.0), tf.stack([1, 2]), tf.zeros([2]), tf.ones([2, 2], tf.int32))
        print(tf.zeros([2000]), tf.shape(tf.zeros([3, 2])))
        return 0

    f()
    assert capsys.readouterr().out == (
        'Tensor("Const:0", shape=(), dtype=int32) Tensor("Const_1:0", shape=(), dtype=float32) '
        'Tensor("stack:0", shape=(2,), dtype=int32) Tensor("zeros:0", shape=(2,), dtype=float32) '
        'Tensor("ones:0", shape=(2, 2), dtype=int32)\n'
        'Tensor("zeros_1:0", shape=(2000,), dtype=float32) Tensor("Shape:0", shape=(2,), dtype=int32)\n')


@pytest.mark.parametrize("fn,signature,error,message", [
    (lambda x: tf.unstack(x), [S(None)], ValueError, "Cannot infer argument `num` from shape <unknown>"),
    (lambda x: tf.unstack(x), [S([None])], ValueError, "Cannot infer argument `num` from shape (None,)"),
    (lambda x: tf.unstack(x, axis=1), [S([2, None])], ValueError, "Cannot infer argument `num` from shape (2, None)"),
    (lambda x: tf.unstack(x, axis=2), [S([2, None])], ValueError, "Argument `axis` = 2 not in range [-2, 2)"),
    (lambda x: tf.constant(x), [S([2])], TypeError, "Expected any non-tensor type, but got a tensor instead."),
    (lambda x: tf.constant(x, tf.float32), [S([2])], TypeError,
     "Expected float32, but got Tensor(\"x:0\", shape=(2,), dtype=int32) of type 'SymbolicTensor'."),
    (lambda x: tf.constant([x[0], 1]), [S([2])], TypeError, "Expected any non-tensor type, but got a tensor instead."),
    (lambda x: tf.stack(x, axis=1), [S([2, 3])], TypeError,
     "Expected list for 'values' argument to 'pack' Op, not <tf.Tensor 'x:0' shape=(2, 3) dtype=int32>."),
    (lambda x, m: tf.boolean_mask(x, m), [S([3]), S(None, B)], ValueError,
     "Number of mask dimensions must be specified, even if some dimensions are None.  E.g. shape=[None] is ok, "
     "but shape=None is not."),
    (lambda x, m: tf.boolean_mask(x, m), [S([3]), S([], B)], ValueError, "mask cannot be scalar."),
    (lambda x, m: tf.boolean_mask(x, m), [S([None, 3]), S([None, 2], B)], ValueError,
     "Shapes (None, 3) and (None, 2) are incompatible"),
    (lambda x: tf.size(x, out_type=tf.float32), [S([None, 3])], TypeError,
     "Value passed to parameter 'out_type' has DataType float32 not in list of allowed values: int32, int64"),
    (lambda x, i: x[i], [S([2, 3]), S([1])], TypeError,
     "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are "
     "valid indices, got <tf.Tensor 'i:0' shape=(1,) dtype=int32>"),
    (lambda x, i: x[i], [S([2, 3]), S([], F)], TypeError,
     "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are "
     "valid indices, got <tf.Tensor 'i:0' shape=() dtype=float32>"),
])
def test_tracing_errors_are_tfs(fn, signature, error, message):
    with pytest.raises(error) as info:
        tf.function(fn, input_signature=signature).get_concrete_function()
    # AutoGraph rewrites tracing errors as TF does: "in user code: ... <Type>: <message>".
    assert str(info.value).endswith("    %s: %s\n" % (error.__name__, message))


def test_values_known_only_at_run_time_are_checked_when_the_function_runs():
    cases = [
        (lambda x, i: x[i], [S([None]), S([])], [c([1, 2, 3]), c(7)], "slice index 7 of dimension 0 out of bounds."),
        (lambda x: tf.unstack(x, num=2), [S([None, 3])], [c([[1, 2, 3]])],
         "Input shape axis 0 must equal 2, got shape [1,3]"),
        (lambda n: tf.eye(n), [S([])], [c(-1)], "Dimension -1 must be >= 0"),
        (lambda d: tf.range(0, 5, d), [S([])], [c(0)], "Requires delta != 0: 0"),
        (lambda x, s: tf.reshape(x, s), [S([None]), S([None])], [c([1, 2, 3]), c([2, 2])],
         "Input to reshape is a tensor with 3 values, but the requested shape has 4"),
        (lambda i, d: tf.one_hot(i, d), [S([None]), S([])], [c([1]), c(-1)], "depth must be non-negative, got: -1"),
        (lambda d: tf.fill(d, 1), [S([None])], [c([-1])], "Dimension -1 must be >= 0"),
        (lambda x, i: tf.gather(x, i), [S([None]), S([None])], [c([1, 2]), c([5])], "indices[0] = 5 is not in [0, 2)"),
    ]
    for fn, signature, args, message in cases:
        f = tf.function(fn, input_signature=signature)
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            f(*args)
        assert message in str(info.value)


def test_one_trace_serves_every_length():
    @tf.function(input_signature=[S([None]), S([])])
    def f(x, i):
        return tf.stack([tf.size(x[i:]), x[i]])

    assert f(c([5, 6, 7]), c(1)).numpy().tolist() == [2, 6]
    assert f(c([5, 6, 7, 8, 9]), c(-1)).numpy().tolist() == [1, 9]
    assert f.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("num", [2**31, 10**12])
def test_unstack_of_unknown_shape_with_a_huge_num_fails_at_once(num):
    # TF 2.21: ValueError "Number of outputs is too big: <num>" while tracing (nothing allocated)
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def split(x):
        return tf.unstack(x, num=num)

    with pytest.raises(ValueError, match="Number of outputs is too big: %d" % num):
        split.get_concrete_function()
