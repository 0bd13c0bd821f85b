"""Differential cases: op semantics (dtypes, conversion, broadcasting, shapes, indexing, errors)."""

from run_differential import case

CASES = [
    case("ops/constant_dtype_inference", '''
[tf.constant(v).dtype.name for v in (1, 1.0, True, "s", [1, 2], [1.0, 2], np.int64(3), np.float64(2.0), 2**40, b"x", np.int16(2))]
'''),
    case("ops/constant_with_dtype_and_shape", '''
(tf.constant(1, dtype=tf.float64), tf.constant(0.5, shape=[2, 2]), tf.constant([1, 2, 3, 4], shape=[2, 2]))
'''),
    case("ops/constant_bad_shape", '''
tf.constant([1, 2, 3], shape=[2, 2])
''', message=False),
    case("ops/constant_ragged_list_error", '''
tf.constant([[1, 2], [3]])
''', message=False),
    case("ops/int_plus_float_error", '''
tf.constant(1) + tf.constant(1.0)
'''),
    case("ops/python_scalar_adopts_tensor_dtype", '''
(tf.constant(2) * 3, tf.constant(2.0) * 3, tf.constant([1, 2], dtype=tf.int64) + 1, 1.5 + tf.constant(1.0, dtype=tf.float64))
'''),
    case("ops/python_float_with_int_tensor_error", '''
tf.constant(2) * 1.5
'''),
    case("ops/broadcasting", '''
a = tf.ones([3, 1]); b = tf.constant([1.0, 2.0, 3.0, 4.0])
(a + b).shape, tf.broadcast_to(tf.constant([1, 2]), [3, 2])
'''),
    case("ops/broadcast_incompatible_error", '''
tf.ones([2, 3]) + tf.ones([4])
'''),
    case("ops/matmul_and_operator", '''
a = tf.constant([[1, 2], [3, 4]]); b = tf.constant([[5], [6]])
(tf.matmul(a, b), a @ b, tf.matmul(a, a, transpose_b=True))
'''),
    case("ops/matmul_shape_error", '''
tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))
'''),
    case("ops/matmul_dtype_error", '''
tf.matmul(tf.ones([2, 2]), tf.ones([2, 2], dtype=tf.int32))
'''),
    case("ops/reshape", '''
x = tf.range(12)
(tf.reshape(x, [3, 4]), tf.reshape(x, [-1, 6]).shape, tf.reshape(x, [2, -1, 3]).shape)
'''),
    case("ops/reshape_bad_size", '''
tf.reshape(tf.range(6), [4, 2])
'''),
    case("ops/reshape_two_unknowns", '''
tf.reshape(tf.range(6), [-1, -1])
'''),
    case("ops/integer_division_semantics", '''
a = tf.constant([7, -7, 7, -7]); b = tf.constant([2, 2, -2, -2])
(a // b, a % b, tf.math.floordiv(a, b), tf.math.floormod(a, b), tf.math.mod(a, b))
'''),
    case("ops/float_division_and_truediv_int", '''
(tf.constant([1.0, 2.0]) / 4, tf.constant([1, 2]) / tf.constant([4, 4]), tf.divide(tf.constant([3.0]), 2.0), tf.truediv(7, 2))
'''),
    case("ops/integer_division_by_zero_eager", '''
tf.constant(1) // tf.constant(0)
'''),
    case("ops/integer_overflow_wraps", '''
(tf.constant(2**31 - 1) + 1, tf.constant([200], dtype=tf.uint8) + tf.constant([100], dtype=tf.uint8))
'''),
    case("ops/comparisons_and_logic", '''
a = tf.constant([1, 2, 3])
(a > 2, a == 2, tf.logical_and(a > 1, a < 3), tf.logical_not(a > 1), tf.logical_or(a > 2, a < 2), (a > 1) & (a < 3), ~(a > 1))
'''),
    case("ops/tensor_eq_is_elementwise", '''
a = tf.constant([1, 2]); b = tf.constant([1, 3])
(a == b, a != b, a == [1, 2])
'''),
    case("ops/bool_of_multielement_error", '''
bool(tf.constant([1, 2]))
'''),
    case("ops/scalar_python_conversions", '''
t = tf.constant(3.7)
(float(t), int(t), bool(tf.constant(0)), int(tf.constant(5)), t.numpy().item())
'''),
    case("ops/cast", '''
x = tf.constant([-1.7, 0.5, 2.9])
(tf.cast(x, tf.int32), tf.cast(x, tf.bool), tf.cast(tf.constant([300, -1]), tf.uint8), tf.cast(x, tf.float64), tf.cast(tf.constant([True, False]), tf.float32))
''', rtol=1e-3),
    case("ops/reductions", '''
x = tf.constant([[1, 2, 3], [4, 5, 6]])
(tf.reduce_sum(x), tf.reduce_sum(x, 0), tf.reduce_sum(x, 1, keepdims=True), tf.reduce_mean(x), tf.reduce_max(x, -1),
 tf.reduce_prod(x), tf.reduce_min(x, [0, 1]))
'''),
    case("ops/reduce_mean_int_truncates", '''
tf.reduce_mean(tf.constant([1, 2]))
'''),
    case("ops/reduce_bad_axis", '''
tf.reduce_sum(tf.ones([2, 2]), axis=2)
'''),
    case("ops/argmax_argmin", '''
x = tf.constant([[1, 9, 3], [7, 2, 8]])
(tf.argmax(x), tf.argmax(x, 1), tf.argmin(x, axis=1, output_type=tf.int32))
'''),
    case("ops/any_all", '''
x = tf.constant([[True, False], [True, True]])
(tf.reduce_any(x), tf.reduce_all(x, 1), tf.reduce_all(x, 0))
'''),
    case("ops/slicing", '''
x = tf.reshape(tf.range(24), [2, 3, 4])
(x[1], x[:, 1], x[..., -1], x[0, ::2, 1:3], x[:, tf.newaxis, 0].shape, x[::-1, 0, 0])
'''),
    case("ops/slice_index_out_of_range", '''
tf.constant([1, 2, 3])[5]
'''),
    case("ops/slice_with_tensor_index", '''
x = tf.constant([10, 20, 30])
(x[tf.constant(1)], x[tf.constant(1):])
'''),
    case("ops/gather_and_gather_nd", '''
x = tf.constant([[1, 2], [3, 4], [5, 6]])
(tf.gather(x, [2, 0]), tf.gather(x, [1], axis=1), tf.gather(x, [[0, 1], [2, 2]]), tf.gather(x, 1))
'''),
    case("ops/gather_out_of_range_eager", '''
tf.gather(tf.constant([1, 2, 3]), [5])
'''),
    case("ops/concat_stack_unstack", '''
a = tf.constant([[1, 2]]); b = tf.constant([[3, 4]])
(tf.concat([a, b], 0), tf.concat([a, b], axis=-1), tf.stack([a, b]), tf.unstack(tf.constant([[1, 2], [3, 4]])))
'''),
    case("ops/concat_rank_mismatch", '''
tf.concat([tf.ones([2, 2]), tf.ones([2])], 0)
'''),
    case("ops/transpose_and_expand_squeeze", '''
x = tf.ones([2, 1, 3])
(tf.transpose(x).shape, tf.transpose(x, [1, 0, 2]).shape, tf.squeeze(x).shape, tf.expand_dims(x, -1).shape, tf.squeeze(x, 1).shape)
'''),
    case("ops/squeeze_non_one_dim_error", '''
tf.squeeze(tf.ones([2, 3]), axis=0)
'''),
    case("ops/zeros_ones_fill_eye", '''
(tf.zeros([2, 3], tf.int32), tf.ones([2]), tf.fill([2, 2], 9), tf.eye(2), tf.zeros_like(tf.constant([1.5])), tf.ones_like(tf.constant([[True]])))
'''),
    case("ops/range_variants", '''
(tf.range(5), tf.range(2, 10, 3), tf.range(5.0), tf.range(10, 0, -3), tf.range(3, dtype=tf.float64))
'''),
    case("ops/range_zero_delta", '''
tf.range(0, 5, 0)
'''),
    case("ops/math_functions", '''
x = tf.constant([0.25, 1.0, 4.0])
(tf.sqrt(x), tf.math.log(x), tf.exp(x), tf.square(x), tf.abs(-x), tf.pow(x, 2.0), x ** 0.5, tf.sign(-x), tf.negative(x))
''', rtol=1e-6),
    case("ops/sqrt_of_int_error", '''
tf.sqrt(tf.constant(4))
'''),
    case("ops/nn_functions", '''
x = tf.constant([[-1.0, 0.0, 2.0]])
(tf.nn.relu(x), tf.nn.softmax(x), tf.nn.sigmoid(x), tf.nn.tanh(x), tf.nn.log_softmax(x), tf.math.softmax(x, axis=0))
''', rtol=1e-6),
    case("ops/maximum_minimum_clip", '''
x = tf.constant([-2, 0, 5])
(tf.maximum(x, 1), tf.minimum(x, 1), tf.clip_by_value(x, -1, 3))
'''),
    case("ops/where_variants", '''
c = tf.constant([True, False, True])
(tf.where(c), tf.where(c, tf.constant([1, 2, 3]), tf.constant([10, 20, 30])))
'''),
    case("ops/shape_size_rank", '''
x = tf.ones([2, 3, 4])
(tf.shape(x), tf.size(x), tf.rank(x), x.shape, x.shape.as_list(), x.ndim, len(x))
'''),
    case("ops/len_of_scalar_error", '''
len(tf.constant(1))
'''),
    case("ops/tensor_iteration", '''
[t.numpy().tolist() for t in tf.constant([[1, 2], [3, 4]])]
'''),
    case("ops/iterate_scalar_error", '''
for t in tf.constant(1):
    pass
'''),
    case("ops/add_string_and_int_error", '''
tf.constant("a") + tf.constant(1)
'''),
    case("ops/numpy_interop", '''
t = tf.constant([1.0, 2.0])
(np.add(t, 1), np.asarray(t).dtype, t.numpy().tolist(), tf.constant(np.array([[1, 2]], dtype=np.int16)))
'''),
    case("ops/one_hot_and_cumsum", '''
(tf.one_hot([0, 2], 3), tf.math.cumsum([1, 2, 3]), tf.math.cumsum([1, 2, 3], exclusive=True, reverse=True), tf.math.cumprod([1, 2, 3]))
'''),
    case("ops/convert_to_tensor_dtype_mismatch", '''
tf.convert_to_tensor(tf.constant(1), dtype=tf.float32)
'''),
    case("ops/convert_to_tensor_python", '''
(tf.convert_to_tensor([1, 2]), tf.convert_to_tensor(1.5, dtype=tf.float64), tf.convert_to_tensor(True))
'''),
    case("ops/dtype_objects", '''
(tf.float32.is_floating, tf.int32.is_integer, tf.as_dtype("float64") == tf.float64, tf.int8.max, tf.uint8.min, tf.float64.size, tf.bool.as_numpy_dtype.__name__, tf.as_dtype(np.int16).name, tf.int64.is_unsigned, tf.uint8.is_unsigned)
'''),
    case("ops/tensorshape_api", '''
s = tf.TensorShape([2, None, 3])
(s.rank, s.as_list(), s.is_fully_defined(), s[0], s[1:].as_list(), s.is_compatible_with([2, 5, 3]), tf.TensorShape([1, 2]).num_elements())
'''),
    case("ops/einsum", '''
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
(tf.matmul(a, a, transpose_a=True), tf.matmul(tf.ones([3, 2, 2]), a).shape, tf.linalg.matmul(a, a, adjoint_b=True))
'''),
    case("ops/linalg_basics", '''
a = tf.constant([[2.0, 0.0], [0.0, 4.0]])
(tf.linalg.eye(2, 3), tf.eye(2, batch_shape=[2]).shape, tf.eye(3, dtype=tf.int32))
'''),
    case("ops/random_shapes_and_dtypes", '''
tf.random.set_seed(1)
u = tf.random.uniform([2, 3])
n = tf.random.normal([4], dtype=tf.float64)
i = tf.random.uniform([5], minval=0, maxval=10, dtype=tf.int32)
(u.shape, u.dtype, n.dtype, i.dtype, bool(tf.reduce_all((i >= 0) & (i < 10))), bool(tf.reduce_all((u >= 0) & (u < 1))))
'''),
    case("ops/random_int_needs_maxval", '''
tf.random.uniform([2], dtype=tf.int32)
'''),
    case("ops/unknown_op_attribute_error", '''
tf.constant(1).not_an_attribute
'''),
    case("ops/item_assignment_error", '''
t = tf.constant([1, 2])
t[0] = 5
'''),
    case("ops/identity_and_hash", '''
t = tf.constant(1)
(tf.identity(t), t.ref() == t.ref(), type(hash(t.ref())).__name__)
'''),
    case("ops/unhashable_tensor", '''
{tf.constant(1): 1}
'''),
    case("ops/name_argument_ignored_eager", '''
tf.add(1, 2, name="my_add")
'''),
    case("ops/add_n_and_accumulate", '''
tf.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])])
'''),
    case("ops/add_n_shape_mismatch", '''
tf.add_n([tf.constant([1, 2]), tf.constant([1, 2, 3])])
'''),
    case("ops/strided_slice_and_slice", '''
x = tf.reshape(tf.range(12), [3, 4])
(tf.slice(x, [1, 0], [2, 3]), tf.strided_slice(x, [0, 1], [3, 4], [2, 2]), tf.slice(x, [0, 1], [-1, -1]))
'''),
    case("ops/slice_bad_size", '''
tf.slice(tf.range(4), [2], [5])
'''),
    case("ops/string_tensors", '''
s = tf.constant(["hello", "world"])
(s, s + "!", tf.constant("a") + tf.constant("b"), tf.equal(s, "world"), tf.reshape(s, [2, 1]))
'''),
    case("ops/boolean_mask_variants", '''
x = tf.constant([[1, 2], [3, 4], [5, 6]])
(tf.boolean_mask(x, [True, False, True]), tf.boolean_mask(x, x > 3))
'''),
    case("ops/boolean_mask_shape_error", '''
tf.boolean_mask(tf.constant([1, 2, 3]), [True, False])
'''),
    case("ops/unsorted_segment_sum_and_invert_permutation", '''
(tf.math.unsorted_segment_sum(tf.constant([1, 2, 3, 4]), [0, 1, 0, 1], 2), tf.math.invert_permutation([2, 0, 1]))
'''),
    case("ops/int64_and_int8_arithmetic", '''
(tf.constant([2**40], dtype=tf.int64) * 2, tf.constant([100], dtype=tf.int8) + tf.constant([100], dtype=tf.int8), tf.constant([-7], dtype=tf.int16) // 2)
'''),
    case("ops/float64_precision", '''
(tf.constant(1.0, dtype=tf.float64) / 3, tf.constant(0.1, dtype=tf.float64) + 0.2)
'''),
    case("ops/pow_integer", '''
(tf.pow(tf.constant([2, 3]), 3), tf.constant(2) ** tf.constant(10))
'''),
    case("ops/nan_and_inf", '''
x = tf.constant([0.0, 1.0, -1.0])
(x / 0.0, tf.sqrt(tf.constant(-1.0)), tf.math.log(tf.constant(0.0)), tf.reduce_max(tf.constant([float("nan"), 1.0])))
'''),
    case("ops/empty_tensors", '''
e = tf.zeros([0, 3])
(e, tf.reduce_sum(e, 0), tf.reduce_sum(e), tf.concat([e, tf.ones([1, 3])], 0), tf.reduce_max(tf.zeros([0])))
'''),
    case("ops/tensor_shape_converts", '''
layer = tf.keras.layers.Dense(10)
layer.build((None, 4))
x = tf.ones([2, 3])
(tf.reduce_prod(layer.kernel.shape), tf.convert_to_tensor(x.shape, tf.int64), tf.zeros(x.shape),
 tf.reshape(tf.range(6), x.shape), tf.constant(x.shape, tf.float32))
'''),
    case("ops/tensor_shape_converts_in_function", '''
@tf.function
def f(t):
    return tf.reduce_prod(t.shape), tf.convert_to_tensor(t.shape), tf.fill(t.shape, 2.0)

f(tf.ones([2, 3]))
'''),
    case("ops/tensor_shape_partially_known", '''
tf.reduce_prod(tf.TensorShape([None, 3]))
'''),
    case("ops/tensor_shape_to_float", '''
tf.convert_to_tensor(tf.TensorShape([4, 10]), tf.float32)
'''),
    case("ops/tensor_shape_constant_in_function", '''
@tf.function
def f(t):
    return tf.constant(t.shape)

f(tf.ones([2, 3]))
''', deliberate="tf.constant(shape) converts a fully known TensorShape inside a function as it does eagerly; "
                   "TF 2.21's graph-mode constant does not know TensorShape and raises"),
]
