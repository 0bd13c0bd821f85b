"""Expressions over ragged tensors whose repr (or error) TF 2.21 printed: recorded into
ragged_goldens.json by record_ragged_goldens.py, checked by test_ragged_goldens.py. `SETUP` runs
first (under TF or graphfn as `tf`); "fn:" cases run the expression inside a tf.function that
takes the ragged tensors as arguments and returns the result."""

SETUP = """
rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])
r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
ru = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
rf = tf.ragged.constant([[1.5, 2.0], [], [3.25]])
"""

CASES = [
    # tf.ragged.constant and printing
    "tf.ragged.constant([[1, 2], [3]])", "tf.ragged.constant([1, 2])", "tf.ragged.constant([])",
    "tf.ragged.constant([[], []])", "tf.ragged.constant([[1.5, 2], [3]])", "tf.ragged.constant([[0.1]])",
    "tf.ragged.constant([[b'a', 'b'], []])", "tf.ragged.constant([[[1, 2], [3]], [[4]]])",
    "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)", "tf.ragged.constant([[1, [2]]])",
    "tf.ragged.constant([[[1, 2], [3]]], ragged_rank=1)", "tf.ragged.constant([[1,2]], dtype=tf.float64)",
    "tf.ragged.constant([[1,2]], row_splits_dtype=tf.int32).row_splits", "tf.ragged.constant([[True], [False, True]])",
    "tf.ragged.constant(5)", "tf.ragged.constant([[1, 2], [3]]).shape", "tf.ragged.constant([[[1, 2], [3]], [[4]]]).shape",
    "ru.shape", "tf.ragged.constant([[1], [2, 3]], inner_shape=())", "str(rt)", "rt.numpy()",
    "tf.ragged.constant([[1, 2], [3, 4]]).numpy()", "rt.to_list()", "rf.to_list()", "r3.to_list()",
    "rt.ragged_rank", "r3.ragged_rank", "rt.dtype", "rt.row_splits", "rt.values", "r3.values", "r3.flat_values",
    "rt.nrows()", "rt.nrows(out_type=tf.int32)", "rt.row_lengths()", "rt.value_rowids()", "rt.bounding_shape()",
    "r3.bounding_shape()", "ru.bounding_shape()", "rt.row_starts()", "rt.row_limits()", "r3.nested_row_splits",
    "r3.nested_row_lengths()", "rt.uniform_row_length", "rt.with_row_splits_dtype(tf.int32).row_splits",
    "r3.row_lengths(axis=2)", "rt.row_lengths(axis=2)", "rt.with_values(rt.values * 10)", "r3.with_flat_values(r3.flat_values * 2)",
    # to_tensor / merge_dims
    "rt.to_tensor()", "rt.to_tensor(default_value=9)", "rt.to_tensor(shape=[3, 1])", "rt.to_tensor(shape=[5, 4])",
    "r3.to_tensor()", "ru.to_tensor()", "rf.to_tensor(default_value=-1.0)", "rt.merge_dims(0, 1)", "r3.merge_dims(1, 2)",
    "r3.merge_dims(0, 2)", "ru.merge_dims(1, 2)",
    # factories
    "tf.RaggedTensor.from_row_splits([1,2,3], [0,2,3])", "tf.RaggedTensor.from_row_splits([1,2,3], [0,2,4])",
    "tf.RaggedTensor.from_row_splits([1,2,3], [1,2,3])", "tf.RaggedTensor.from_row_splits([1,2,3], [0,3,2])",
    "tf.RaggedTensor.from_row_lengths([1,2,3], [2,1])", "tf.RaggedTensor.from_row_lengths([1,2,3], [2,2])",
    "tf.RaggedTensor.from_value_rowids([1,2,3], [0,0,2])", "tf.RaggedTensor.from_value_rowids([1,2,3], [0,0,2], nrows=4)",
    "tf.RaggedTensor.from_value_rowids([1,2,3], [0,2,0])", "tf.RaggedTensor.from_nested_row_splits([1,2,3,4], ([0,1,3],[0,2,3,4]))",
    "tf.RaggedTensor.from_nested_row_lengths([1,2,3,4], ([1,2],[2,1,1]))",
    "tf.RaggedTensor.from_nested_value_rowids([1,2,3,4], ([0,1,1],[0,0,1,2]))",
    "tf.RaggedTensor.from_row_starts([1,2,3], [0,2])", "tf.RaggedTensor.from_row_limits([1,2,3], [2,3])",
    "tf.RaggedTensor.from_uniform_row_length([1,2,3,4], 2)", "tf.RaggedTensor.from_tensor([[1,0],[2,3]])",
    "tf.RaggedTensor.from_tensor([[1,0],[2,3]], padding=0)", "tf.RaggedTensor.from_tensor([[1,0],[2,3]], lengths=[1,2])",
    "tf.RaggedTensor.from_tensor([[[1,0],[2,3]]], ragged_rank=2)", "tf.RaggedTensor.from_tensor([[[1, 0], [0, 0]], [[2, 3], [4, 0]]], padding=[0, 0])",
    "tf.RaggedTensor.from_row_splits([1.,2.,3.], tf.constant([0,2,3],tf.int32))",
    "tf.RaggedTensor.from_row_splits([1,2,3], [0,2,3], validate=False)", "tf.RaggedTensor([1], [0, 1])",
    # specs
    "tf.RaggedTensorSpec([2, None], tf.int32)", "tf.RaggedTensorSpec([2, None, 3], tf.int32, ragged_rank=1)",
    "tf.RaggedTensorSpec([2, None, None], tf.int32)._component_specs", "tf.RaggedTensorSpec(None, tf.int32, ragged_rank=1)",
    "tf.RaggedTensorSpec()", "tf.RaggedTensorSpec([2,None], tf.int32, ragged_rank=2)", "rt._type_spec", "r3._type_spec",
    "tf.type_spec_from_value(ru)", "rt._type_spec == tf.RaggedTensorSpec([4, None], tf.int32)",
    "rt._type_spec.is_subtype_of(tf.RaggedTensorSpec([None, None], tf.int32))",
    "rt._type_spec.most_specific_common_supertype([tf.RaggedTensorSpec([3, None], tf.int32)])",
    "tf.RaggedTensorSpec([None, None], tf.int32).is_compatible_with(rt)",
    "tf.RaggedTensorSpec([None, None], tf.float32).is_compatible_with(rt)",
    # tf.ragged.range
    "tf.ragged.range([3, 0, 5])", "tf.ragged.range([0, 5, 8], [3, 3, 12])", "tf.ragged.range(0, 10, [3, 4])",
    "tf.ragged.range([0.], [1.], 0.25)", "tf.ragged.range([1], [2], 0)", "tf.ragged.range([1,2], [2,3,4])",
    "tf.ragged.range(3, row_splits_dtype=tf.int32)", "tf.ragged.range([3], dtype=tf.float32)", "tf.ragged.range(5, 1, -2)",
    "tf.ragged.range([5, 5], [0, 10], [-2, 3])",
    # indexing
    "rt[0]", "rt[-1]", "rt[4]", "rt[-5]", "rt[1:3]", "rt[::2]", "rt[::-1]", "rt[:, 1:]", "rt[:, :2]", "rt[:, -1:]",
    "rt[:, 0]", "rt[1, 0]", "rt[0, 5]", "rt[..., :1]", "rt[:, ::2]", "r3[0]", "r3[:, :, :1]", "r3[1, 0]",
    "r3[0, 1, 0]", "ru[:, :, 0]", "ru[0, 1]", "rt[tf.constant(1)]", "rt[:, tf.newaxis]", "rt[1:3].shape",
    # element-wise ops and operators
    "rt + 1", "rt * rt", "1 - rt", "rt + tf.constant([[10], [20], [30], [40]])", "rt + tf.constant([1, 2])",
    "rt + tf.ragged.constant([[1, 2, 3], [4], [], [5]])", "rt == 1", "rt == rt", "rt != 1", "tf.math.abs(-rt)",
    "tf.sqrt(tf.cast(rt, tf.float32))", "tf.cast(rt, tf.float32)", "tf.ones_like(rt)", "tf.zeros_like(rf)",
    "tf.maximum(rt, 3)", "tf.add(rt, 1)", "tf.math.add(rt, 1)", "tf.math.equal(rt, 1)", "-rt", "abs(-rt)",
    "~(rt > 2)", "rt < 3", "rt / 2", "rt // 2", "rt % 2", "rt ** 2", "tf.math.logical_and(rt > 1, rt < 5)",
    "tf.nn.relu(rf - 2.0)", "tf.math.exp(rf)", "ru * tf.constant([10, 100])", "2.0 * rf", "tf.where(rt > 2, rt, 0 * rt)",
    "r3 * 2", "r3 + r3",
    # reductions
    "tf.reduce_sum(rt)", "tf.reduce_sum(rt, axis=0)", "tf.reduce_sum(rt, axis=1)", "tf.reduce_sum(rt, axis=-1)",
    "tf.reduce_max(rt, axis=1)", "tf.reduce_min(rt, axis=1)", "tf.reduce_max(rt, axis=0)", "tf.reduce_mean(rt, axis=1)",
    "tf.reduce_mean(rf, axis=1)", "tf.reduce_mean(tf.cast(rt, tf.float32), axis=0)", "tf.reduce_mean(rt)",
    "tf.reduce_prod(rt, axis=1)", "tf.reduce_any(rt > 4, axis=1)", "tf.reduce_all(rt > 1, axis=1)",
    "tf.reduce_sum(rt, axis=1, keepdims=True)", "tf.reduce_sum(r3, axis=0)", "tf.reduce_sum(r3, axis=1)",
    "tf.reduce_sum(r3, axis=2)", "tf.reduce_sum(r3, axis=[1, 2])", "tf.reduce_sum(r3, axis=[0, 1])", "tf.reduce_sum(rt, axis=2)",
    "tf.reduce_sum(ru, axis=2)", "tf.reduce_sum(ru, axis=1)", "tf.reduce_sum(ru, axis=0)", "tf.math.reduce_max(r3, axis=1)",
    "tf.reduce_sum(rt, axis=5)",
    # concat, stack, gather & co.
    "tf.concat([rt, rt], axis=0)", "tf.concat([rt, rt], axis=1)", "tf.concat([rt, tf.ragged.constant([[1]])], axis=1)",
    "tf.concat([rt, tf.constant([[7], [8], [9], [0]])], axis=1)", "tf.concat([rt, tf.constant([[7], [8]])], axis=0)",
    "tf.stack([rt, rt], axis=0)", "tf.stack([rt, rt], axis=1)", "tf.stack([rt, rt])", "tf.concat([r3, r3], axis=2)",
    "tf.concat([r3, r3], axis=1)", "tf.ragged.stack([tf.constant([[1, 2]]), tf.ragged.constant([[3]])])",
    "tf.gather(rt, [2, 0])", "tf.gather(rt, [[2, 0], [1, 1]])", "tf.gather(rt, [5])",
    "tf.gather([10, 20, 30], tf.ragged.constant([[0, 2], [1]]))", "tf.gather(r3, [1])",
    "tf.ragged.map_flat_values(tf.ones_like, rt)", "tf.ragged.map_flat_values(lambda x: x * 2, rt)",
    "tf.ragged.map_flat_values(tf.reduce_sum, rt)", "tf.ragged.map_flat_values(tf.add, rt, rt)",
    "tf.size(rt)", "tf.rank(rt)", "tf.rank(r3)", "tf.expand_dims(rt, 0)", "tf.expand_dims(rt, 1)", "tf.expand_dims(rt, 2)",
    "tf.ragged.boolean_mask(rt, rt > 2)", "tf.ragged.boolean_mask(rt, [True, False, True, False])",
    "tf.ragged.row_splits_to_segment_ids([0, 2, 2, 3])", "tf.ragged.segment_ids_to_row_splits([0, 0, 2])",
    "bool(rt)", "len(rt)", "hash(rt)", "tf.convert_to_tensor(rt)",
    # reverse, tile, squeeze, variance
    "tf.reverse(rt, [0])", "tf.reverse(rt, [1])", "tf.reverse(rt, [0, 1])", "tf.reverse(r3, [2])", "tf.reverse(r3, [1])",
    "tf.reverse(ru, [2])", "tf.reverse(rt, [-1])", "tf.reverse(rt, [2])", "tf.tile(rt, [1, 2])", "tf.tile(rt, [2, 1])",
    "tf.tile(rt, [2, 3])", "tf.tile(ru, [1, 1, 2])", "tf.tile(rt, [1, 0])", "tf.tile(r3, [1, 2, 1])",
    "tf.concat([rt, tf.reverse(rt, [1])], axis=1)", "tf.squeeze(tf.expand_dims(rt, 0), [0])", "tf.squeeze(rt)",
    "tf.squeeze(rt, [1])", "tf.squeeze(tf.ragged.constant([[[1], [3]], [[5]]], ragged_rank=1), [-1])",
    "tf.math.reduce_variance(tf.cast(rt, tf.float32), axis=1)", "tf.math.reduce_std(tf.cast(rt, tf.float32), axis=1)",
    "tf.math.reduce_std(tf.cast(rt, tf.float32), axis=0)", "tf.math.reduce_variance(rt, axis=1)",
    "tf.reduce_sum(rt, axis=tf.constant(1))", "tf.strings.as_string(rt)",
    "fn:tf.reverse(x, [1])", "fn:tf.tile(x, [2, 2])", "fn:tf.math.reduce_std(tf.cast(x, tf.float32), axis=1)",
    # tf.nest
    "tf.nest.flatten(rt, expand_composites=True)", "tf.nest.flatten({'a': rt, 'b': 1}, expand_composites=True)",
    "tf.nest.flatten(rt)", "tf.nest.map_structure(lambda t: t + 1, rt, expand_composites=True)",
    "tf.nest.pack_sequence_as(rt, [tf.constant([5, 6, 7]), tf.constant([0, 1, 3], tf.int64)], expand_composites=True)",
    "tf.nest.flatten(r3._type_spec, expand_composites=True)",
    "tf.nest.assert_same_structure(rt, tf.ragged.constant([[1.0]]), expand_composites=True)",
    "tf.nest.assert_same_structure(rt, tf.constant([1]), expand_composites=True)",
    # inside tf.function (the ragged tensors are arguments)
    "fn:x * 2", "fn:tf.reduce_sum(x, axis=1)", "fn:tf.reduce_sum(x, axis=0)", "fn:x.to_tensor()", "fn:x[1:]", "fn:x[:, 1:]",
    "fn:x.row_lengths()", "fn:x.nrows()", "fn:x.bounding_shape()", "fn:tf.concat([x, x], axis=1)",
    "fn:tf.stack([x, x], axis=1)", "fn:tf.gather(x, [3, 0])", "fn:tf.reduce_mean(tf.cast(x, tf.float32), axis=1)",
    "fn:x.merge_dims(0, 1)", "fn:tf.ragged.map_flat_values(tf.square, x)", "fn:tf.ragged.range(x.row_lengths())",
    "fn:x[2]", "fn:x.value_rowids()", "fn:tf.RaggedTensor.from_row_lengths(x.flat_values, [3, 3])",
    "fn:tf.expand_dims(x, 1)", "fn:tf.reduce_max(x, axis=0)", "fn:x.to_tensor(default_value=-1, shape=[2, 5])",
]
