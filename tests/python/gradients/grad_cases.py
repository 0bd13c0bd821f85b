"""Gradient cases shared by the tests and by make_expected.py (which runs them under real
TensorFlow). Each case: name -> (source of `lambda tf, *xs: ...`, input values). Inputs are
float64 lists; tests also run them as float32. Values stay away from kinks (|x| = 0, ties) except
where a case tests the tie-breaking rule itself."""

A23 = [[0.5, -1.2, 2.0], [1.5, 0.7, -0.3]]
B3 = [0.9, -0.4, 1.3]
P23 = [[0.5, 1.2, 2.0], [1.5, 0.7, 0.3]]  # positive
M34 = [[0.1, 0.2, -0.3, 0.4], [0.5, -0.6, 0.7, 0.8], [-0.9, 1.0, 1.1, 0.2]]

CASES = {
    # element-wise binary, with broadcasting
    "add": ("lambda tf, x, y: x + y", [A23, B3]),
    "add_col_row": ("lambda tf, x, y: tf.add(x, y)", [[[1.0], [2.0]], [[3.0, 4.0, 5.0]]]),
    "sub": ("lambda tf, x, y: x - y", [A23, B3]),
    "sub_scalar": ("lambda tf, x, y: tf.subtract(x, y)", [0.7, A23]),
    "mul": ("lambda tf, x, y: x * y", [A23, B3]),
    "mul_col_row": ("lambda tf, x, y: x * y", [[[1.0], [2.0]], [[3.0, 4.0, 5.0]]]),
    "div": ("lambda tf, x, y: x / y", [A23, B3]),
    "div_scalar": ("lambda tf, x, y: tf.math.truediv(x, y)", [2.5, B3]),
    "pow": ("lambda tf, x, y: tf.pow(x, y)", [P23, B3]),
    "pow_negative_base": ("lambda tf, x, y: tf.pow(x, y)", [[-1.5, 2.0], [2.0, 3.0]]),
    "floormod": ("lambda tf, x, y: tf.math.floormod(x, y)", [[2.3, -1.7, 5.1], [1.1, 0.7, 2.0]]),
    "maximum": ("lambda tf, x, y: tf.maximum(x, y)", [A23, B3]),
    "minimum": ("lambda tf, x, y: tf.minimum(x, y)", [A23, B3]),
    "maximum_ties": ("lambda tf, x, y: tf.maximum(x, y)", [[1.0, 2.0, 3.0], [1.0, 5.0, 3.0]]),
    "minimum_ties": ("lambda tf, x, y: tf.minimum(x, y)", [[1.0, 2.0, 3.0], [1.0, 5.0, 3.0]]),
    # element-wise unary
    "neg": ("lambda tf, x: -x", [A23]),
    "abs": ("lambda tf, x: tf.abs(x)", [A23]),
    "sign": ("lambda tf, x: tf.sign(x) * x", [A23]),
    "square": ("lambda tf, x: tf.square(x)", [A23]),
    "sqrt": ("lambda tf, x: tf.sqrt(x)", [P23]),
    "exp": ("lambda tf, x: tf.exp(x)", [A23]),
    "log": ("lambda tf, x: tf.math.log(x)", [P23]),
    "tanh": ("lambda tf, x: tf.tanh(x)", [A23]),
    "sigmoid": ("lambda tf, x: tf.sigmoid(x)", [A23]),
    "relu": ("lambda tf, x: tf.nn.relu(x)", [A23]),
    "chain": ("lambda tf, x: tf.exp(tf.tanh(x) * x) / (1.0 + x * x)", [A23]),
    # linear algebra
    "matmul": ("lambda tf, a, b: tf.matmul(a, b)", [A23, M34]),
    "matmul_ta": ("lambda tf, a, b: tf.matmul(a, b, transpose_a=True)", [[[1.0, 2.0], [3.0, -1.0], [0.5, 0.2]], M34]),
    "matmul_tb": ("lambda tf, a, b: tf.matmul(a, b, transpose_b=True)", [A23, A23]),
    "matmul_ta_tb": ("lambda tf, a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True)",
                     [[[1.0, 2.0], [3.0, -1.0], [0.5, 0.2]], [[0.3, 0.1, 0.4], [-0.2, 0.6, 0.9]]]),
    "matmul_operator": ("lambda tf, a, b: a @ b", [A23, M34]),
    "batch_matmul": ("lambda tf, a, b: tf.matmul(a, b)", [[A23, P23], M34]),
    "batch_matmul_adjoint": ("lambda tf, a, b: tf.matmul(a, b, adjoint_a=True)", [[A23, P23], [A23, P23]]),
    # reductions
    "reduce_sum": ("lambda tf, x: tf.reduce_sum(x)", [A23]),
    "reduce_sum_axis": ("lambda tf, x: tf.reduce_sum(x, axis=0)", [A23]),
    "reduce_sum_keepdims": ("lambda tf, x: tf.reduce_sum(x, axis=-1, keepdims=True)", [A23]),
    "reduce_mean": ("lambda tf, x: tf.reduce_mean(x, axis=1)", [A23]),
    "reduce_mean_all": ("lambda tf, x: tf.reduce_mean(x)", [A23]),
    "reduce_max": ("lambda tf, x: tf.reduce_max(x, axis=1)", [A23]),
    "reduce_max_ties": ("lambda tf, x: tf.reduce_max(x)", [[1.0, 3.0, 3.0]]),
    "reduce_min": ("lambda tf, x: tf.reduce_min(x, axis=[0, 1], keepdims=True)", [A23]),
    # shapes
    "reshape": ("lambda tf, x: tf.reshape(x, [3, 2]) * [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]", [A23]),
    "transpose": ("lambda tf, x: tf.transpose(x) * [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]", [A23]),
    "transpose_perm": ("lambda tf, x: tf.transpose(tf.reshape(x, [1, 2, 3]), perm=[2, 0, 1]) * 3.0", [A23]),
    "expand_dims": ("lambda tf, x: tf.expand_dims(x, 1) * x", [B3]),
    "squeeze": ("lambda tf, x: tf.squeeze(x) * [1.0, 2.0, 3.0]", [[[0.5], [1.0], [2.0]]]),
    "concat": ("lambda tf, x, y: tf.concat([x, y, x], axis=0) * 2.0", [A23, [[1.0, 2.0, 3.0]]]),
    "concat_axis1": ("lambda tf, x, y: tf.concat([x, y], -1)", [A23, [[1.0], [2.0]]]),
    "stack": ("lambda tf, x, y: tf.stack([x, y, x], axis=1)", [B3, B3]),
    "unstack": ("lambda tf, x: tf.unstack(x)[0] * 3.0 + tf.unstack(x, axis=0)[1]", [A23]),
    "where": ("lambda tf, x, y: tf.where(x > 0.6, x, y)", [A23, B3]),
    "cast": ("lambda tf, x: tf.cast(tf.cast(x, tf.float32) * 2.0, x.dtype) * tf.cast(tf.cast(x, tf.int32), x.dtype)", [A23]),
    "clip_by_value": ("lambda tf, x: tf.clip_by_value(x, -0.5, 1.0)", [A23]),
    "clip_by_value_bounds": ("lambda tf, x, lo, hi: tf.clip_by_value(x, lo, hi)", [A23, -0.5, [1.0, 1.0, 1.0]]),
    "identity": ("lambda tf, x: tf.identity(x) * x", [A23]),
    "broadcast_to": ("lambda tf, x: tf.broadcast_to(x, [4, 3]) * 1.5", [B3]),
    # indexing
    "slice_operator": ("lambda tf, x: x[1:, ::2] * 2.0", [A23]),
    "slice_reversed": ("lambda tf, x: x[:, ::-1] * [1.0, 2.0, 3.0]", [A23]),
    "slice_index": ("lambda tf, x: x[1] * x[0, 2]", [A23]),
    "slice_ellipsis_newaxis": ("lambda tf, x: x[..., tf.newaxis, 1:2] * 3.0", [A23]),
    "strided_slice": ("lambda tf, x: tf.strided_slice(x, [0, 1], [2, 3], [1, 1])", [A23]),
    "slice": ("lambda tf, x: tf.slice(x, [0, 1], [2, -1])", [A23]),
    "gather": ("lambda tf, x: tf.gather(x, [2, 0, 2])", [B3]),
    "gather_rows": ("lambda tf, x: tf.gather(x, [[1, 1], [0, 1]])", [A23]),
    "gather_axis1": ("lambda tf, x: tf.gather(x, [2, 0, 0, 1], axis=1)", [A23]),
    "unsorted_segment_sum": ("lambda tf, x: tf.math.unsorted_segment_sum(x, [1, 0, 1], 3)", [B3]),
    # softmax family
    "softmax": ("lambda tf, x: tf.nn.softmax(x)", [A23]),
    "softmax_axis0": ("lambda tf, x: tf.nn.softmax(x, axis=0)", [A23]),
    "log_softmax": ("lambda tf, x: tf.nn.log_softmax(x)", [A23]),
    "sparse_xent": ("lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x)", [A23]),
    "sparse_xent_rank3": ("lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits([[2, 0]], tf.reshape(x, [1, 2, 3]))",
                          [A23]),
    "xent": ("lambda tf, x, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)",
             [A23, [[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]]]),
    "xent_axis0": ("lambda tf, x, y: tf.nn.softmax_cross_entropy_with_logits(y, x, axis=0)", [A23, [[0.2, 0.3, 0.5], [0.8, 0.7, 0.5]]]),
    "xent_1d": ("lambda tf, x, y: tf.nn.softmax_cross_entropy_with_logits(y, x)", [B3, [0.2, 0.3, 0.5]]),
    "fill": ("lambda tf, x: tf.fill([2, 3], x) * [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]", [0.5]),
}
