"""vectorized_map cases: each snippet defines `fn` and `elems` (and may use `tf`, `np`).
record.py runs them under TensorFlow 2.21 into goldens.json; test_vectorized_map.py runs them
under graphfn and compares values, dtypes, static shapes and the while_loop fallbacks TF logged."""

_SETUP = """
rng = np.random.RandomState(0)
x34 = rng.uniform(-2, 2, (3, 4)).astype(np.float32)
x324 = rng.uniform(-2, 2, (3, 2, 4)).astype(np.float32)
w42 = rng.uniform(-1, 1, (4, 2)).astype(np.float32)
i35 = rng.randint(0, 4, (3, 5)).astype(np.int32)
"""

CASES = {
    # element-wise math, broadcasting with loop-invariant operands of any rank
    "sum_of_squares": "fn = lambda x: tf.reduce_sum(x * x)\nelems = x34",
    "unary_chain": "fn = lambda x: tf.exp(-tf.abs(x)) + tf.sin(x) * tf.tanh(x) - tf.sigmoid(x)\nelems = x34",
    "broadcast_higher_rank_invariant": "c = tf.constant(x324[0])\nfn = lambda x: x * c + 1.0\nelems = x34",
    "broadcast_scalar_example": "c = tf.constant(w42)\nfn = lambda x: c - x\nelems = tf.constant([1.0, 2.0, 3.0])",
    "two_stacked_ranks": "fn = lambda t: t[0] * t[1]\nelems = (x34, x324)",
    "compare_where": "fn = lambda x: tf.where(x > 0, x, tf.zeros_like(x) - 1.0)\nelems = x34",
    "where_invariant_branch": "fn = lambda x: tf.where(x > 0.5, 2.0, x)\nelems = x34",
    "maximum_minimum_pow": "fn = lambda x: tf.maximum(x, 0.5) ** 2 + tf.minimum(x, -0.5)\nelems = x34",
    "cast_int": "fn = lambda x: tf.cast(x * 10.0, tf.int32) // 3\nelems = x34",
    "clip_by_value": "fn = lambda x: tf.clip_by_value(x, -1.0, 1.0)\nelems = x34",
    "int_math": "fn = lambda v: v * 2 + tf.reduce_max(v)\nelems = i35",
    "logical": "fn = lambda x: tf.logical_and(x > -1.0, x < 1.0)\nelems = x34",
    "add_n": "fn = lambda x: tf.add_n([x, x * 2.0, tf.ones([4])])\nelems = x34",
    # activations
    "activations": ("fn = lambda x: tf.nn.relu(x) + tf.nn.elu(x) + tf.nn.softplus(x) + tf.nn.relu6(x * 4.0)"
                    " + tf.nn.leaky_relu(x, 0.3) + tf.nn.selu(x)\nelems = x34"),
    "softmax": "fn = lambda x: tf.nn.softmax(x)\nelems = x324",
    "log_softmax": "fn = lambda x: tf.nn.log_softmax(x * 3.0)\nelems = x34",
    "bias_add": "b = tf.constant([0.5, -0.5, 1.0, 2.0])\nfn = lambda x: tf.nn.bias_add(x, b)\nelems = x324",
    # matrix products
    "matmul_invariant_right": "w = tf.constant(w42)\nfn = lambda x: tf.matmul(x[None], w)\nelems = x34",
    "matmul_invariant_left": "w = tf.constant(w42)\nfn = lambda x: tf.matmul(w, tf.reshape(x, [4, 1]), transpose_a=True)\nelems = x34",
    "matmul_stacked_left_transposed": "w = tf.constant(w42)\nfn = lambda x: tf.matmul(tf.reshape(x, [4, 1]), w, transpose_a=True)\nelems = x34",
    "matmul_stacked_right_transposed": "w = tf.constant(w42)\nfn = lambda x: tf.matmul(w, tf.reshape(x, [1, 4]), transpose_a=True, transpose_b=True)\nelems = x34",
    "matmul_both_stacked": "fn = lambda x: tf.matmul(x, x, transpose_b=True)\nelems = x324",
    "batched_matmul_in_fn": "fn = lambda x: tf.matmul(x[None], tf.ones([3, 4, 2]))\nelems = x34",
    "matvec": "w = tf.constant(w42)\nfn = lambda x: tf.linalg.matvec(w, x, transpose_a=True)\nelems = x34",
    "einsum": ("w = tf.constant(w42)\nfn = lambda t: (tf.einsum('ij,j->i', tf.transpose(w), t[0]), "
               "tf.einsum('bi,bi->b', t[1], t[1]), tf.einsum('...j,jk->...k', t[1], w))\nelems = (x34, x324)"),
    # reductions
    "reductions": ("fn = lambda x: (tf.reduce_sum(x, 1), tf.reduce_mean(x, -1, keepdims=True), tf.reduce_max(x),"
                   " tf.reduce_min(x, [0, 1]), tf.reduce_prod(x, 0))\nelems = x324"),
    "argmax_argmin": "fn = lambda x: (tf.argmax(x), tf.argmin(x, axis=-1, output_type=tf.int32))\nelems = x324",
    "reduce_any_all": "fn = lambda x: (tf.reduce_any(x > 1.5), tf.reduce_all(x > -1.5, axis=0))\nelems = x34",
    "cumsum": "fn = lambda x: tf.cumsum(x, axis=1, reverse=True)\nelems = x324",
    "logsumexp_norm": "fn = lambda x: (tf.reduce_logsumexp(x, 1), tf.norm(x))\nelems = x324",
    "moments": "fn = lambda x: tf.nn.moments(x, axes=[0])\nelems = x324",
    # shapes
    "reshape": "fn = lambda x: tf.reshape(x, [2, -1])\nelems = x34",
    "transpose": "fn = lambda x: tf.transpose(x)\nelems = x324",
    "transpose_perm": "fn = lambda x: tf.transpose(x[None], [2, 0, 1])\nelems = x324",
    "expand_squeeze": "fn = lambda x: tf.squeeze(tf.expand_dims(x, 0)) + tf.squeeze(tf.expand_dims(x, -1), [-1])\nelems = x34",
    "squeeze_size_one_batch": "fn = lambda x: tf.squeeze(x[None, :, None])\nelems = x34[:1]",
    "concat_stack": "c = tf.constant([9.0, 8.0])\nfn = lambda x: (tf.concat([x, c, x], 0), tf.stack([x, x * 2.0], axis=1))\nelems = x34",
    "unstack": "fn = lambda x: tf.unstack(x, axis=1)[2]\nelems = x324",
    "split": "fn = lambda x: tf.split(x, [1, 3], axis=-1)\nelems = x324",
    "tile": "fn = lambda x: tf.tile(x, [2, 1])\nelems = x324",
    "slicing": "fn = lambda x: (x[1:3], x[::-1], x[..., 0], x[:, None, 2])\nelems = x324",
    "shape_driven": "fn = lambda x: tf.zeros(tf.shape(x)) + tf.cast(tf.size(x), tf.float32) + x\nelems = x324",
    "broadcast_to_fill": "fn = lambda x: tf.broadcast_to(x, [2, 4]) + tf.fill([2, 4], x[0])\nelems = x34",
    "one_hot": "fn = lambda v: tf.one_hot(v, 4)\nelems = i35",
    # indexing
    "gather_invariant_params": "p = tf.constant(x324[0])\nfn = lambda i: tf.gather(p, i[:3] % 2)\nelems = i35",
    "gather_axis1_invariant_params": "p = tf.constant(x34)\nfn = lambda i: tf.gather(p, i, axis=1)\nelems = i35",
    "gather_stacked_params": "fn = lambda x: tf.gather(x, [3, 0, 0], axis=-1)\nelems = x324",
    "gather_both_stacked": "fn = lambda t: tf.gather(t[0], t[1] % 4)\nelems = (x34, i35[:, :2])",
    "embedding_lookup": "table = tf.constant(w42)\nfn = lambda i: tf.nn.embedding_lookup(table, i)\nelems = i35",
    # nested structures, broadcast first dim, invariant outputs
    "nested_dict": "fn = lambda d: {'s': d['a'] + d['b'][0], 'p': d['a'] * 2.0}\nelems = {'a': x34, 'b': x324}",
    "first_dim_broadcast": "fn = lambda t: t[0] + t[1]\nelems = (x34, x34[:1])",
    "invariant_output": "fn = lambda x: tf.constant([1.0, 2.0])\nelems = x34",
    # gradients inside fn (per-example gradients, jacobians)
    "per_example_gradient": """
w = tf.Variable(w42)
def fn(x):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.relu(tf.matmul(x[None], w)) ** 2)
    return tape.gradient(y, w)
elems = x34""",
    "jacobian_diag": """
def fn(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(x) * x
    return tape.gradient(y, x)
elems = x34""",
    "per_example_dense_grads": """
w = tf.Variable(w42)
b = tf.Variable([0.1, -0.2])
def fn(t):
    x, label = t
    with tf.GradientTape() as tape:
        logits = tf.matmul(x[None], w) + b
        loss = tf.reduce_mean(tf.square(tf.sigmoid(logits) - label))
    return tape.gradient(loss, [w, b])
elems = (x34, tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))""",
    "softmax_xent_grad": """
w = tf.Variable(w42)
def fn(t):
    x, label = t
    with tf.GradientTape() as tape:
        logits = tf.matmul(x[None], w)
        loss = -tf.reduce_sum(label * tf.nn.log_softmax(logits))
    return tape.gradient(loss, w)
elems = (x34, tf.constant([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]))""",
    # ops without a batching rule: the while_loop fallback
    "fallback_unique": "fn = lambda v: tf.unique(v)[0] * 2\nelems = np.array([[1, 1, 2], [3, 4, 4], [6, 5, 5]], np.int32)",
    "fallback_partial": ("w = tf.constant(w42)\nfn = lambda x: tf.matmul(x[None], w) * tf.reduce_sum("
                         "tf.linalg.svd(tf.reshape(x, [2, 2]), compute_uv=False))\nelems = x34"),
    "fallback_stateful": "fn = lambda x: x + tf.random.uniform([4], seed=1) * 0.0\nelems = x34",
    "fallback_svd": "fn = lambda x: tf.linalg.svd(tf.reshape(x, [2, 2]), compute_uv=False)\nelems = x34",
}

SETUP = _SETUP

# Gradients through vectorized_map (a tape around it): d sum(result * pattern) / d elems.
GRADIENT_CASES = ["matmul_stacked_left_transposed", "matmul_stacked_right_transposed", "matmul_invariant_left",
                  "sum_of_squares", "unary_chain", "broadcast_higher_rank_invariant", "two_stacked_ranks",
                  "compare_where", "activations", "softmax", "matmul_invariant_right", "matmul_both_stacked",
                  "reductions", "reshape", "transpose_perm", "concat_stack", "slicing", "gather_stacked_params",
                  "nested_dict", "jacobian_diag", "fallback_svd",
                  "fallback_partial", "einsum"]

ERRORS = {
    "no_fallback": "tf.vectorized_map(lambda v: tf.unique(v)[0], tf.constant(i35), fallback_to_while_loop=False)",
    "scalar_elems": "tf.vectorized_map(lambda v: v * 2, tf.constant(3.0))",
    "mismatched_first_dims": "tf.vectorized_map(lambda t: t[0] + t[1], (tf.ones([3, 2]), tf.ones([2, 2])))",
}
