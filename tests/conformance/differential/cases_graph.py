"""Differential cases: graph execution (non-strict execution, run-time errors, control
dependencies, captured tensors, asserts)."""

from run_differential import case

CASES = [
    case("graph/matches_eager_values", '''
def f(x, y, b):
    return tf.matmul(x, y) + b

x = tf.constant([[1.0, 2.0]]); y = tf.constant([[2.0], [3.0]]); b = tf.constant(4.0)
(f(x, y, b), tf.function(f)(x, y, b))
'''),
    case("graph/non_strict_unused_op_skipped", '''
def unused_return_eager(x):
    tf.gather(x, [1])
    return x

@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])
    return x

print(unused_return_graph(tf.constant([0.0])))
try:
    unused_return_eager(tf.constant([0.0]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
'''),
    case("graph/runtime_error_used_op", '''
@tf.function
def f(x):
    return tf.gather(x, [3])

f(tf.constant([0.0, 1.0]))
''', message=False),
    case("graph/runtime_reshape_error", '''
@tf.function
def f(x, n):
    return tf.reshape(x, [n, -1])

f(tf.constant([1, 2, 3]), tf.constant(2))
''', message=False),
    case("graph/shape_error_at_trace_time", '''
@tf.function
def f(x):
    return tf.reshape(x, [2, 2])

f(tf.constant([1, 2, 3]))
''', message=False),
    case("graph/dtype_error_at_trace_time", '''
@tf.function
def f(x):
    return x + tf.constant(1.0)

f(tf.constant(1))
'''),
    case("graph/matmul_shape_error_at_trace", '''
@tf.function
def f(a, b):
    return tf.matmul(a, b)

f(tf.ones([2, 3]), tf.ones([2, 3]))
''', message=False),
    case("graph/stateful_print_runs_although_unused", '''
@tf.function
def f(x):
    tf.print("side effect", x)
    unused = x * 100
    return x + 1

f(tf.constant(1))
'''),
    case("graph/print_order_follows_program", '''
@tf.function
def f(x):
    tf.print("first")
    y = x * 2
    tf.print("second", y)
    tf.print("third")
    return y

f(tf.constant(21))
'''),
    case("graph/captured_eager_tensor", '''
c = tf.constant([1.0, 2.0])

@tf.function
def f(x):
    return x * c

f(tf.constant([3.0, 4.0]))
'''),
    case("graph/captured_numpy_array", '''
arr = np.arange(4, dtype=np.float32)

@tf.function
def f(x):
    return x + arr

f(tf.ones([4]))
'''),
    case("graph/shape_of_unknown_dim", '''
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def f(x):
    print("static", x.shape)
    return tf.shape(x)

f(tf.zeros([5, 2]))
'''),
    case("graph/static_shape_propagation", '''
@tf.function
def f(x):
    y = tf.transpose(x)
    z = tf.reshape(y, [-1])
    w = tf.expand_dims(z, 0)
    print(y.shape, z.shape, w.shape)
    return w

f(tf.zeros([2, 3])).shape
'''),
    case("graph/partial_shapes_propagation", '''
@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def f(x):
    a = x + 1.0
    b = tf.reduce_sum(x, axis=1)
    c = tf.matmul(x, tf.ones([3, 4]))
    d = tf.concat([x, x], axis=0)
    print(a.shape, b.shape, c.shape, d.shape)
    return d

f(tf.zeros([2, 3])).shape
'''),
    case("graph/unknown_rank_input", '''
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def f(x):
    print(x.shape, tf.reduce_sum(x).shape)
    return tf.reduce_sum(x)

(f(tf.ones([2, 3])), f(tf.ones([4])))
'''),
    case("graph/assert_fails_at_runtime", '''
@tf.function
def f(x):
    tf.debugging.assert_equal(x, 1, message="x must be one")
    return x

print(f(tf.constant(1)))
f(tf.constant(2))
''', message=False),
    case("graph/control_dependencies", '''
@tf.function
def f(x):
    with tf.control_dependencies([tf.print("before")]):
        y = tf.identity(x)
    return y

f(tf.constant(3))
'''),
    case("graph/cond_branches_return_ops", '''
@tf.function
def f(x):
    r = tf.cond(x > 0, lambda: tf.print("pos"), lambda: tf.print("neg"))
    print("cond result:", r)
    return x

print(f(tf.constant(1)))
print(f(tf.constant(-1)))
'''),
    case("graph/return_an_operation", '''
@tf.function
def g(x):
    return tf.print("z")

g(tf.constant(1))
''', masks=((r"<function g at [^>]*>", "<function g>"),)),
    case("graph/control_dependencies_nodes", '''
@tf.function
def f(x):
    p = tf.print("a")
    print(repr(p), p.name, p.type, p.inputs, p.outputs, p.control_inputs)
    with tf.control_dependencies([p, x]):
        y = x + 1
        with tf.control_dependencies(None):
            z = x * 2
        with tf.control_dependencies([y]):
            w = z - 1
    print(repr(tf.group(y, w)), repr(tf.no_op()))
    return y + w

print(f(tf.constant(3)))
for n in sorted(f.get_concrete_function(tf.constant(3)).graph.as_graph_def().node, key=lambda n: n.name):
    print(n.name, n.op, list(n.input))
with tf.control_dependencies([tf.constant(1)]) as cm:
    print(cm, tf.print("eager"), tf.group(), tf.no_op())
'''),
    case("graph/identity_outputs_distinct", '''
@tf.function
def f(x):
    return x, x

a, b = f(tf.constant(1))
(a, b)
'''),
    case("graph/returns_input_unchanged", '''
@tf.function
def f(x):
    return x

f(tf.constant([[1, 2], [3, 4]]))
'''),
    case("graph/string_ops_in_graph", '''
@tf.function
def f(s):
    return s + tf.constant("!")

f(tf.constant("hi"))
'''),
    case("graph/python_side_effect_vs_tf", '''
counter = []

@tf.function
def f(x):
    counter.append(len(counter))
    tf.print("graph side effect", x)
    return x

for i in range(3):
    f(tf.constant(i))
counter
'''),
    case("graph/large_unrolled_graph", '''
@tf.function
def power(x, y):
    result = x
    for _ in range(y):
        result = tf.matmul(x, result)
    return result

x = tf.constant([[1, 1, 0], [0, 1, 0], [0, 0, 2]])
print(power(x, 10))
len(power.get_concrete_function(x, 10).graph.get_operations())
'''),
    case("graph/eye_graph_nodes", '''
@tf.function
def f(x):
    return tf.matmul(x, tf.eye(3, dtype=tf.int32))

print(f(tf.ones([3, 3], tf.int32)))
print([(op.name, op.type) for op in f.get_concrete_function(tf.ones([3, 3], tf.int32)).graph.get_operations()])
''', deliberate="tf.eye is one `Eye` node in graphfn; TF builds it from `ones` and `MatrixDiagV3` "
                  "(an op graphfn does not have). Values, dtypes and shapes are the same."),
    case("graph/dtype_error_named_inputs_at_trace", '''
@tf.function
def f(x, y):
    return tf.matmul(x, y)

f(tf.ones([2, 2]), tf.ones([2, 2], dtype=tf.float64))
'''),
    case("graph/fill_and_range_in_graph", '''
@tf.function
def f(n):
    return tf.fill([n, 2], 7), tf.range(n), tf.zeros([n])

f(tf.constant(3))
'''),
    case("graph/where_and_boolean_mask", '''
@tf.function
def f(x):
    return tf.boolean_mask(x, x > 2), tf.where(x > 2, x, 0)

f(tf.constant([1, 5, 2, 7]))
'''),
    case("graph/integer_division_by_zero", '''
@tf.function
def f(a, b):
    return a // b

f(tf.constant(4), tf.constant(0))
''', message=False),
    case("graph/float_division_by_zero", '''
@tf.function
def f(a, b):
    return a / b

f(tf.constant([1.0, -1.0, 0.0]), tf.constant(0.0))
'''),
]
