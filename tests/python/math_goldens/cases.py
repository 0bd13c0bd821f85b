"""The cases of the math op tests, recorded from TensorFlow by record.py: TABLES[table] has
"exprs" (expressions whose value or error TF gave), "graph_errors" (expressions
that fail inside a tf.function) and "grads" ((function source, x, dtype):
TF's gradient of sum(f(x)) at x)."""

_F32 = "tf.constant([-2.5, -1.5, -0.5, 0.0, 0.25, 0.5, 1.5, 2.5, 3.7], tf.float32)"
_F64 = "tf.constant([-0.9, -0.5, 0.0, 0.3, 0.5, 0.99], tf.float64)"
_BIG = "tf.constant([[1.2, 2.0, 3.5], [4.0, 10.0, 100.0]], tf.float64)"
_SPECIAL = "tf.constant([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0], tf.float32)"

_UNARY = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor",
          "ceil", "round", "rint", "log1p", "expm1", "rsqrt", "reciprocal", "erf", "erfc", "lgamma", "digamma",
          "is_nan", "is_inf", "is_finite"]
_TOP_LEVEL = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "floor", "round"]

_unary_exprs = []
for _op in _UNARY:
    for _x in (_F32, _F64, _BIG, _SPECIAL):
        _unary_exprs.append("tf.math.%s(%s)" % (_op, _x))
    _unary_exprs.append("tf.math.%s(tf.constant([1, 2]))" % _op)  # int32: TF's error (round: as is)
    _unary_exprs.append("tf.math.%s(2.5)" % _op)
for _op in _TOP_LEVEL:
    _unary_exprs.append("tf.%s(tf.constant([0.5, 0.75]))" % _op)
_unary_exprs += [
    "tf.math.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 2.6]))",
    "tf.math.rint(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, 2.6], tf.float64))",
    "tf.math.round(tf.constant([1, -2], tf.int64))",
    "tf.math.round(tf.constant([1, 2], tf.uint8))",
    "tf.math.round([1, 2])",
    "tf.math.round(tf.constant(['a']))",
    "tf.math.sin([1.0, 2.0])",
    "tf.math.sin([1, 2])",
    "tf.math.sin(tf.constant([True]))",
    "tf.math.is_nan(tf.constant(['a']))",
    "tf.math.reciprocal(tf.constant([0, 2]))",
    "tf.math.lgamma(tf.constant([0.5, -1.5, 0.0, -2.0, 1e-8, 30.0]))",
    "tf.math.digamma(tf.constant([0.5, -1.5, 0.0, -1.0, 1e-8, 30.0]))",
    "tf.math.erf(tf.zeros([2, 0, 3]))",
    "tf.math.sin(tf.zeros([]))",
]

_unary_grads = [
    ("lambda x: tf.math.%s(x)" % op, x, "float64")
    for op, x in [("sin", [-1.0, 0.5, 2.0]), ("cos", [-1.0, 0.5, 2.0]), ("tan", [-1.0, 0.5, 1.2]),
                  ("asin", [-0.9, 0.1, 0.5]), ("acos", [-0.9, 0.1, 0.5]), ("atan", [-3.0, 0.1, 2.0]),
                  ("sinh", [-1.0, 0.5, 2.0]), ("cosh", [-1.0, 0.5, 2.0]), ("tanh", [-1.0, 0.5, 2.0]),
                  ("asinh", [-1.0, 0.5, 2.0]), ("acosh", [1.5, 2.0, 5.0]), ("atanh", [-0.5, 0.1, 0.9]),
                  ("log1p", [-0.5, 0.1, 3.0]), ("expm1", [-1.0, 0.5, 2.0]), ("rsqrt", [0.25, 1.0, 4.0]),
                  ("reciprocal", [-2.0, 0.5, 4.0]), ("erf", [-1.0, 0.5, 2.0]), ("erfc", [-1.0, 0.5, 2.0]),
                  ("lgamma", [0.5, 2.5, 7.0]), ("digamma", [0.5, 2.5, 7.0]), ("floor", [0.5, 1.5]),
                  ("ceil", [0.5, 1.5]), ("round", [0.5, 1.7]), ("rint", [0.5, 1.7])]
] + [("lambda x: tf.math.sin(x) * tf.math.cos(x)", [0.3, 1.1], "float32")]

_B = "tf.constant([[-3.0, -1.5, 0.0, 2.0], [4.0, 0.5, -0.25, 7.0]], tf.float32)"
_B2 = "tf.constant([2.0, 0.0, -1.5, 4.0], tf.float32)"
_binary_exprs = []
for _op in ["atan2", "squared_difference", "divide_no_nan", "multiply_no_nan", "xlogy", "xdivy", "truncatediv",
            "truncatemod"]:
    _fn = "tf.%s" % _op if _op.startswith("truncate") else "tf.math.%s" % _op
    _binary_exprs += [
        "%s(%s, %s)" % (_fn, _B, _B2),
        "%s(%s, %s)" % (_fn, _B2, _B),
        "%s(tf.cast(%s, tf.float64), tf.cast(%s, tf.float64))" % (_fn, _B, _B2),
        "%s(tf.constant([7, -7, 9, -9]), tf.constant([2, 2, -4, -4]))" % _fn,
        "%s(tf.constant([7, -7], tf.int64), tf.constant([2, 3], tf.int64))" % _fn,
        "%s(tf.constant([7, 9], tf.uint8), tf.constant([2, 4], tf.uint8))" % _fn,
        "%s(tf.constant([7, 9], tf.int8), tf.constant([2, 4], tf.int8))" % _fn,
        "%s(tf.constant([1.0, 2.0]), tf.constant([[1.0], [2.0], [3.0]]))" % _fn,
        "%s(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))" % _fn,
        "%s(tf.constant([1.0]), tf.constant([1]))" % _fn,
        "%s(2.0, 3)" % _fn,
        "%s(tf.constant([np.nan, np.inf, 0.0, 1.0]), tf.constant([0.0, 0.0, np.nan, np.inf]))" % _fn,
    ]
_binary_exprs += [
    "tf.truncatediv(tf.constant([7, -7]), tf.constant([0, 2]))",
    "tf.truncatemod(tf.constant([7, -7], tf.int64), tf.constant([2, 0], tf.int64))",
    "tf.truncatediv(tf.constant([-2147483648, 5]), tf.constant([-1, -1]))",
    "tf.truncatemod(tf.constant([-2147483648, 5]), tf.constant([-1, -1]))",
    "tf.math.divide_no_nan(tf.constant([1, 2], tf.int8), tf.constant([0, 1], tf.int8))",
    "tf.math.divide_no_nan(tf.constant([1.0, 2.0]), 0)",
    "tf.math.divide_no_nan(3, 0)",
    "tf.math.divide_no_nan(3, tf.constant(2.0))",
    "tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0, 1]))",
    "tf.math.divide_no_nan(tf.constant([True]), tf.constant([True]))",
    "tf.math.multiply_no_nan(tf.constant([np.inf, np.nan, 2.0]), tf.constant([0.0, 0.0, 3.0]))",
    "tf.math.multiply_no_nan(tf.constant([1.0, 2.0]), 2)",
    "tf.math.multiply_no_nan(2, 3)",
    "tf.math.polygamma(tf.constant([0.0, 1.0, 2.0, 3.0]), tf.constant([0.5, 1.5, 2.5, 4.0]))",
    "tf.math.zeta(tf.constant([2.0, 3.0, 4.5]), tf.constant([1.0, 2.0, 0.5]))",
    "tf.math.polygamma(tf.constant([1, 2]), tf.constant([1, 2]))",
    "tf.math.atan2(tf.constant([0.0, -0.0, 1.0, -1.0]), tf.constant([-1.0, -1.0, 0.0, 0.0]))",
    "tf.atan2(tf.constant([1.0]), tf.constant([2.0]))",
    "tf.math.polyval([1.0, 2.0, 3.0], tf.constant([1.0, 2.0, -1.5]))",
    "tf.math.polyval([], tf.constant([1.0, 2.0]))",
    "tf.math.polyval([tf.constant(2), 3], 4)",
    "tf.math.polyval([2.0], tf.constant([[1.0, 2.0]]))",
    "tf.math.polyval((1.0, 2.0), 2.0)",
    "tf.dtypes.saturate_cast(tf.constant([300.0, -5.0, 1e10, 7.6]), tf.uint8)",
    "tf.saturate_cast(tf.constant([300, -500, 5]), tf.int8)",
    "tf.saturate_cast(tf.constant([1e40, -1e40, 1.5], tf.float64), tf.float32)",
    "tf.saturate_cast(tf.constant([3e9, -3e9, 7.0]), tf.int32)",
    "tf.saturate_cast(tf.constant([3e9, -3e9]), tf.int64)",
    "tf.saturate_cast(tf.constant([200, 100], tf.uint8), tf.int8)",
    "tf.saturate_cast(tf.constant([-1, 300], tf.int64), tf.uint8)",
    "tf.saturate_cast(tf.constant([1, 2]), tf.float64)",
]
_binary_grads = [
    ("lambda x: tf.math.%s(x, tf.constant([[0.5], [2.0]], tf.float64))" % op, [0.5, -1.0, 3.0], "float64")
    for op in ["atan2", "squared_difference", "divide_no_nan", "multiply_no_nan", "xlogy", "xdivy"]
] + [
    ("lambda x: tf.math.%s(tf.constant([[0.5], [2.0], [0.0]], tf.float64), x)" % op, [0.5, 1.5, 3.0], "float64")
    for op in ["atan2", "squared_difference", "divide_no_nan", "multiply_no_nan", "xlogy", "xdivy"]
] + [
    ("lambda x: tf.math.xlogy(x, x + 1.0)", [0.0, 1.0, 2.0], "float64"),
    ("lambda x: tf.math.divide_no_nan(x, x - 1.0)", [1.0, 2.0, 3.0], "float64"),
    ("lambda x: tf.math.zeta(tf.constant(3.0, tf.float64), x)", [1.0, 2.5], "float64"),
    ("lambda x: tf.math.polygamma(tf.constant(1.0, tf.float64), x)", [1.0, 2.5], "float64"),
    ("lambda x: tf.truncatediv(x, tf.constant(2.0, tf.float64))", [1.0, 2.5], "float64"),
    ("lambda x: tf.math.polyval([x, 2.0 * x], x)", [1.0, 2.5], "float64"),
    ("lambda x: tf.saturate_cast(x * 100.0, tf.float32)", [1.0, 2.5], "float64"),
]

_D = "tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [-1.0, 0.5]])"
_segment_exprs = []
for _op in ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"]:
    _segment_exprs += [
        "tf.math.%s(%s, tf.constant([0, 0, 1, 3]))" % (_op, _D),
        "tf.math.%s(tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 0, 2, 2, 2]))" % _op,
        "tf.math.%s(tf.constant([1.5, 2.5], tf.float64), tf.constant([1, 1], tf.int64))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 1]))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([-1, 0, 1]))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([-3, -2, -2]))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0]))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([[0, 0, 1]]))" % _op,
        "tf.math.%s(tf.constant(1.0), tf.constant([0]))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0]), tf.constant([0.0, 0.0]))" % _op,
        "tf.math.%s(tf.constant([True]), tf.constant([0]))" % _op,
        "tf.math.%s(tf.zeros([0, 2]), tf.constant([], tf.int32))" % _op,
    ]
for _op in ["unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max", "unsorted_segment_min",
            "unsorted_segment_prod", "unsorted_segment_sqrt_n"]:
    _segment_exprs += [
        "tf.math.%s(%s, tf.constant([2, 0, 2, -1]), 4)" % (_op, _D),
        "tf.math.%s(tf.constant([1, 2, 3, 4]), tf.constant([1, 0, 1, 1]), 3)" % _op,
        "tf.math.%s(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[0, 1], [1, 1]]), 3)" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0], tf.float64), tf.constant([1, 1], tf.int64), tf.constant(2, tf.int64))" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 5, 2]), 4)" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1]), 4)" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 1]), -1)" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 1]), [2])" % _op,
        "tf.math.%s(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 1]), 0)" % _op,
    ]
_segment_grads = [
    ("lambda x: tf.math.%s(x, tf.constant([0, 0, 1, 3]))" % op, [[1.0, 2.0], [3.0, 2.0], [5.0, 6.0], [0.0, 0.5]],
     "float64")
    for op in ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"]
] + [
    ("lambda x: tf.math.%s(x, tf.constant([2, 0, 2, -1]), 4)" % op,
     [[1.0, 2.0], [3.0, 2.0], [1.0, 6.0], [0.0, 0.5]], "float64")
    for op in ["unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max", "unsorted_segment_min",
               "unsorted_segment_prod", "unsorted_segment_sqrt_n"]
] + [
    ("lambda x: tf.math.segment_prod(x, tf.constant([0, 0, 0, 1]))", [2.0, 0.0, 3.0, 0.0], "float64"),
    ("lambda x: tf.math.segment_prod(x, tf.constant([0, 0, 0, 1]))", [2.0, 0.0, 0.0, 5.0], "float64"),
    ("lambda x: tf.math.unsorted_segment_prod(x, tf.constant([1, 1, 0, 1]), 2)", [2.0, 0.0, 3.0, 4.0], "float64"),
    ("lambda x: tf.math.unsorted_segment_max(x, tf.constant([[0, 1], [1, 0]]), 2)", [[1.0, 3.0], [3.0, 1.0]],
     "float64"),
]

_R = "tf.constant([[1.0, 2.0, 3.5], [3.0, 5.0, -1.0]])"
_reduction_exprs = []
for _op in ["reduce_std", "reduce_variance", "reduce_logsumexp", "reduce_euclidean_norm"]:
    _reduction_exprs += [
        "tf.math.%s(%s)" % (_op, _R),
        "tf.math.%s(%s, axis=0)" % (_op, _R),
        "tf.math.%s(%s, axis=-1, keepdims=True)" % (_op, _R),
        "tf.math.%s(%s, axis=[0, 1])" % (_op, _R),
        "tf.math.%s(tf.cast(%s, tf.float64), 1)" % (_op, _R),
        "tf.math.%s(tf.constant([3, 4]))" % _op,
        "tf.math.%s(%s, axis=2)" % (_op, _R),
        "tf.math.%s(tf.zeros([0, 3]), axis=0)" % _op,
    ]
_reduction_exprs += [
    "tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf]))",
    "tf.reduce_logsumexp(tf.constant([np.inf, 1.0]))",
    "tf.reduce_logsumexp(tf.constant([1000.0, 1000.0]))",
    "tf.math.reduce_euclidean_norm(tf.constant([[1, 1], [2, 2]], tf.int8), 1)",
    "tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0]]), [0, 0])",
    "tf.math.count_nonzero(tf.constant([[1, 0], [0, 0]]))",
    "tf.math.count_nonzero(tf.constant([[1, 0], [2, 0]]), axis=0, keepdims=True, dtype=tf.int32)",
    "tf.math.count_nonzero(tf.constant([[1.0, 0.0], [np.nan, -0.0]]), axis=1)",
    "tf.math.count_nonzero(tf.constant(['a', '']))",
    "tf.math.count_nonzero(tf.constant([True, False, True]))",
    "tf.math.count_nonzero([1, 0, 3], dtype=tf.float32)",
    "tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0, 3.0]))",
    "tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0, 3.0]), exclusive=True)",
    "tf.math.cumulative_logsumexp(tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]]), axis=1, reverse=True)",
    "tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0], tf.float64), exclusive=True, reverse=True)",
    "tf.math.cumulative_logsumexp(tf.constant([-np.inf, -np.inf, 1.0]))",
    "tf.math.cumulative_logsumexp(tf.constant([1, 2]))",
    "tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0]), axis=1)",
    "tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0]), axis=[0])",
    "tf.math.bincount(tf.constant([1, 1, 3]))",
    "tf.math.bincount(tf.constant([1, 1, 3]), minlength=6)",
    "tf.math.bincount(tf.constant([1, 1, 3]), maxlength=2)",
    "tf.math.bincount(tf.constant([1, 1, 3]), weights=tf.constant([0.5, 1.0, 2.0]))",
    "tf.math.bincount(tf.constant([1, -1, 3]))",
    "tf.math.bincount(tf.constant([[1, 1], [3, 0]]))",
    "tf.math.bincount(tf.constant([[1, 1], [3, 0]]), axis=-1)",
    "tf.math.bincount(tf.constant([[1, 1], [3, 0]]), axis=-1, binary_output=True)",
    "tf.math.bincount(tf.constant([1, 1, 3]), binary_output=True)",
    "tf.math.bincount(tf.constant([1, 1, 3]), dtype=tf.float32)",
    "tf.math.bincount(tf.constant([1, 1, 3], tf.int64))",
    "tf.math.bincount(tf.constant([], tf.int32))",
    "tf.math.bincount(tf.constant([1.0, 2.0]))",
    "tf.math.bincount(tf.constant([1, 2]), axis=1)",
    "tf.math.bincount(tf.constant([1, 2]), weights=tf.constant([1.0, 2.0]), binary_output=True)",
    "tf.math.bincount(tf.constant([1, 2]), weights=tf.constant([1.0, 2.0, 3.0]))",
    "tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])",
    "tf.math.confusion_matrix([1, 2, 4], [2, 2, 4], num_classes=6, weights=[1, 2, 3], dtype=tf.float32)",
    "tf.math.confusion_matrix(tf.constant([0, 1]), tf.constant([1, 1]), num_classes=2)",
    "tf.math.confusion_matrix([1, 2, 4], [2, 2, 4], num_classes=3)",
    "tf.math.confusion_matrix([1, 2, 4], [2, 2, 5], num_classes=5)",
    "tf.math.confusion_matrix([1, -2, 4], [2, 2, 4])",
    "tf.math.confusion_matrix([1, 2, 4], [2, -2, 4])",
]
_reduction_grads = [
    ("lambda x: tf.math.%s(x, axis=1)" % op, [[1.0, 2.0, 3.5], [3.0, 5.0, -1.0]], "float64")
    for op in ["reduce_std", "reduce_variance", "reduce_logsumexp", "reduce_euclidean_norm"]
] + [
    ("lambda x: tf.math.reduce_logsumexp(x)", [1.0, 2.0, 3.5], "float32"),
    ("lambda x: tf.math.reduce_euclidean_norm(x, keepdims=True)", [3.0, 4.0], "float64"),
    ("lambda x: tf.math.cumulative_logsumexp(x, axis=1)", [[1.0, 5.0, 3.0, 5.0], [2.0, 0.0, -1.0, 7.0]], "float64"),
    ("lambda x: tf.math.cumulative_logsumexp(x, exclusive=True, reverse=True) * tf.constant([1.0, -2.0, 3.0], "
     "tf.float64)", [1.0, 5.0, 3.0], "float64"),
    ("lambda x: tf.math.bincount(tf.constant([1, 1, 3]), weights=x)", [0.5, 1.0, 2.0], "float32"),
]

_topk_exprs = [
    "tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]), 3)",
    "tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0, 3.0]))",
    "tf.nn.top_k(tf.constant([[1, 5, 2], [4, 3, 6]]), 2, index_type=tf.int64)",
    "tf.math.top_k(tf.constant([[[1.0, 5.0], [2.0, 2.0]]], tf.float64), k=2)",
    "tf.math.top_k(tf.constant([1.0, np.nan, 3.0, -np.inf]), 3)",
    "tf.math.top_k(tf.constant([1, 2], tf.uint8), 1)",
    "tf.math.top_k(tf.constant([1, 2], tf.int8), 2)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), 0)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), tf.constant(1, tf.int64))",
    "tf.math.top_k(tf.constant([1.0, 2.0]), 3)",
    "tf.math.top_k(tf.constant(1.0), 1)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), -1)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), [1])",
    "tf.math.top_k(tf.constant([True]), 1)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), 1.5)",
    "tf.math.top_k(tf.zeros([3, 0]), 0)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)",
    "tf.nn.in_top_k(tf.constant([2, 0, 1]), tf.constant([[0.1, 0.9, 0.3], [0.5, np.nan, 0.1], [0.2, 0.3, 0.3]]), 2)",
    "tf.math.in_top_k(tf.constant([1, 0], tf.int64), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), tf.constant(1, tf.int64))",
    "tf.math.in_top_k(tf.constant([1]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([0.1, 0.9]), 1)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[1, 2], [3, 4]]), 1)",
    "tf.math.in_top_k(tf.constant([1, -1, 5]), tf.constant([[0.1, 0.9], [0.5, 0.5], [0.5, 0.5]]), 1)",
    "tf.math.in_top_k(tf.constant([1]), tf.constant([[0.1, 0.9]]), -1)",
    "tf.math.in_top_k(tf.constant([[1]]), tf.constant([[0.1, 0.9]]), 1)",
]
_topk_grads = [
    ("lambda x: tf.math.top_k(x, 2).values * tf.constant([[1.0, 2.0]])", [[1.0, 5.0, 3.0, 5.0], [2.0, 0.0, -1.0, 7.0]],
     "float32"),
    ("lambda x: tf.math.top_k(x, 3).values", [3.0, 1.0, 2.0, 0.5], "float64"),
]

_topk_graph_errors = [
    "tf.math.top_k(tf.constant([1.0, 2.0]), 3)",
    "tf.math.top_k(tf.constant(1.0), 1)",
    "tf.math.top_k(tf.constant([1.0, 2.0]), -1)",
    "tf.math.in_top_k(tf.constant([1]), tf.constant([[0.1, 0.9], [0.5, 0.5]]), 1)",
    "tf.math.in_top_k(tf.constant([1, 0]), tf.constant([0.1, 0.9]), 1)",
]
_segment_graph_errors = [
    "tf.math.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0]))",
    "tf.math.segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 1]))",
    "tf.math.unsorted_segment_max(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1]), 4)",
    "tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 1]), -1)",
]
_unary_graph_errors = [
    "tf.math.sin(tf.constant([1, 2]))",
    "tf.math.is_nan(tf.constant([1, 2]))",
]
_binary_graph_errors = [
    "tf.math.atan2(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))",
    "tf.truncatediv(tf.constant([7, -7]), tf.constant([0, 2]))",
]
_reduction_graph_errors = [
    "tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0]]), 2)",
]

TABLES = {
    "math_unary": {"exprs": _unary_exprs, "grads": _unary_grads, "graph_errors": _unary_graph_errors},
    "math_binary_more": {"exprs": _binary_exprs, "grads": _binary_grads, "graph_errors": _binary_graph_errors},
    "segment_ops": {"exprs": _segment_exprs, "grads": _segment_grads, "graph_errors": _segment_graph_errors},
    "math_reductions_more": {"exprs": _reduction_exprs, "grads": _reduction_grads, "graph_errors": _reduction_graph_errors},
    "top_k": {"exprs": _topk_exprs, "grads": _topk_grads, "graph_errors": _topk_graph_errors},
}
