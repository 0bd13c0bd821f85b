"""Differential cases: tracing and retracing (what triggers a trace, Python side effects, cache keys)."""

from run_differential import case

CASES = [
    case("tracing/trace_once_per_dtype", '''
@tf.function
def double(a):
    print("Tracing with", a)
    return a + a

print(double(tf.constant(1)))
print(double(tf.constant(2)))
print(double(tf.constant(1.5)))
print(double(tf.constant("a")))
'''),
    case("tracing/python_int_retraces_per_value", '''
@tf.function
def f(n):
    print("tracing", n)
    return tf.constant(n) * 2

f(1); f(1); f(2)
f(3)
'''),
    case("tracing/python_float_and_int_differ", '''
@tf.function
def f(n):
    print("tracing", type(n).__name__, n)
    return n

f(1); f(1.0); f(True)
'''),
    case("tracing/shape_change_retraces", '''
@tf.function
def f(x):
    print("tracing", x.shape)
    return tf.reduce_sum(x)

f(tf.zeros([2])); f(tf.ones([2])); f(tf.zeros([3])); f(tf.zeros([2, 2]))
'''),
    case("tracing/reduce_retracing_relaxes_shape", '''
@tf.function(reduce_retracing=True)
def f(x):
    print("tracing", x.shape)
    return x + 1

f(tf.zeros([1])); f(tf.zeros([2])); f(tf.zeros([3])); f(tf.zeros([2, 5]))
'''),
    case("tracing/input_signature_fixes_trace", '''
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def f(x):
    print("tracing", x)
    return x * 2

print(f(tf.constant([1.0, 2.0])))
print(f(tf.constant([1.0, 2.0, 3.0])))
'''),
    case("tracing/input_signature_rejects_dtype", '''
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def f(x):
    return x * 2

f(tf.constant([1, 2]))
''', message=False),
    case("tracing/input_signature_rejects_rank", '''
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def f(x):
    return x * 2

f(tf.constant([[1.0]]))
''', message=False),
    case("tracing/print_only_while_tracing", '''
@tf.function
def f(x):
    print("python print")
    tf.print("tf.print", x)
    return x

f(tf.constant(1)); f(tf.constant(2)); f(tf.constant(3))
'''),
    case("tracing/list_argument_key", '''
@tf.function
def f(xs):
    print("tracing", len(xs))
    return tf.add_n(xs)

print(f([tf.constant(1), tf.constant(2)]))
print(f([tf.constant(3), tf.constant(4)]))
print(f([tf.constant(3), tf.constant(4), tf.constant(5)]))
'''),
    case("tracing/dict_argument_key", '''
@tf.function
def f(d):
    print("tracing", sorted(d))
    return d["a"] + d["b"]

print(f({"a": tf.constant(1), "b": tf.constant(2)}))
print(f({"b": tf.constant(5), "a": tf.constant(2)}))
'''),
    case("tracing/tuple_of_python_values", '''
@tf.function
def f(t):
    print("tracing", t)
    return tf.constant(t[0] + t[1])

f((1, 2)); f((1, 2)); f((2, 1))
'''),
    case("tracing/none_argument", '''
@tf.function
def f(x, y=None):
    print("tracing", y)
    return x if y is None else x + y

print(f(tf.constant(1)))
print(f(tf.constant(1), None))
print(f(tf.constant(1), tf.constant(2)))
'''),
    case("tracing/keyword_and_positional_same_trace", '''
@tf.function
def f(x, y):
    print("tracing")
    return x - y

print(f(tf.constant(5), tf.constant(3)))
print(f(x=tf.constant(5), y=tf.constant(3)))
print(f(tf.constant(5), y=tf.constant(3)))
'''),
    case("tracing/default_argument", '''
@tf.function
def f(x, scale=2):
    print("tracing", scale)
    return x * scale

print(f(tf.constant(3)))
print(f(tf.constant(3), 2))
print(f(tf.constant(3), scale=3))
'''),
    case("tracing/experimental_get_tracing_count", '''
@tf.function
def f(x):
    return x + 1

f(tf.constant(1)); f(tf.constant(2)); f(tf.constant(1.0)); f(2); f(3)
f.experimental_get_tracing_count()
'''),
    case("tracing/run_functions_eagerly", '''
@tf.function
def f(x):
    print("python", x.numpy())
    return x * 2

tf.config.run_functions_eagerly(True)
try:
    print(f(tf.constant(3)))
    print(f(tf.constant(4)))
finally:
    tf.config.run_functions_eagerly(False)
print(f(tf.constant(5)))
'''),
    case("tracing/functions_run_eagerly_flag", '''
before = tf.config.functions_run_eagerly()
tf.config.run_functions_eagerly(True)
during = tf.config.functions_run_eagerly()
tf.config.run_functions_eagerly(False)
(before, during, tf.config.functions_run_eagerly())
'''),
    case("tracing/numpy_argument_is_a_tensor", '''
@tf.function
def f(x):
    print("tracing", x.dtype, x.shape)
    return x * 2

print(f(np.array([1.0, 2.0])))
print(f(np.array([3.0, 4.0])))
'''),
    case("tracing/nested_function_call", '''
@tf.function
def inner(x):
    print("tracing inner")
    return x * x

@tf.function
def outer(x):
    print("tracing outer")
    return inner(x) + 1

print(outer(tf.constant(3)))
print(outer(tf.constant(4)))
'''),
    case("tracing/closure_captures_value_at_trace", '''
scale = tf.constant(2)

@tf.function
def f(x):
    return x * scale

print(f(tf.constant(3)))
scale = tf.constant(10)
print(f(tf.constant(3)))
'''),
    case("tracing/python_list_mutation_at_trace_only", '''
calls = []

@tf.function
def f(x):
    calls.append(1)
    return x + 1

f(tf.constant(1)); f(tf.constant(2)); f(tf.constant(3))
len(calls)
'''),
    case("tracing/function_name_and_repr_kind", '''
@tf.function
def my_fn(x):
    return x

(my_fn.__name__, my_fn.python_function.__name__, callable(my_fn))
'''),
    case("tracing/method_traced_per_instance", '''
class M:
    def __init__(self, k):
        self.k = k

    @tf.function
    def apply(self, x):
        print("tracing", self.k)
        return x * self.k

a, b = M(2), M(3)
print(a.apply(tf.constant(1)))
print(b.apply(tf.constant(1)))
print(a.apply(tf.constant(5)))
'''),
    case("tracing/symbolic_tensor_repr", '''
@tf.function
def f(x, y):
    z = tf.add(x, y, name="total")
    print(repr(x))
    print(z)
    print(z.name, z.dtype, z.shape)
    return z

f(tf.constant([1.0]), tf.constant([2.0]))
'''),
    case("tracing/numpy_in_graph_fails", '''
@tf.function
def f(x):
    return x.numpy()

f(tf.constant(1))
''', message=False),
    case("tracing/bool_of_symbolic_in_python_if_autograph_off", '''
@tf.function(autograph=False)
def f(x):
    if x > 0:
        return x
    return -x

f(tf.constant(1))
''', message=False),
    case("tracing/get_concrete_function_traces_once", '''
@tf.function
def f(x):
    print("tracing", x.shape)
    return x

f.get_concrete_function(tf.TensorSpec([2], tf.float32))
f.get_concrete_function(tf.TensorSpec([2], tf.float32))
f(tf.constant([1.0, 2.0]))
f.experimental_get_tracing_count()
'''),
    case("tracing/string_argument_retraces", '''
@tf.function
def f(mode, x):
    print("tracing", mode)
    return x * 2 if mode == "double" else x

print(f("double", tf.constant(4)))
print(f("same", tf.constant(4)))
print(f("double", tf.constant(5)))
'''),
    case("tracing/input_signature_mismatch_text", '''
@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def f(x, scale=2):
    return x * scale

f(tf.constant([1.0]))
'''),
    case("tracing/input_signature_nested_specs", '''
@tf.function(input_signature=[{"a": tf.TensorSpec([None], tf.float32), "b": [tf.TensorSpec([], tf.int32)]}])
def f(x):
    return x["a"] * tf.cast(x["b"][0], tf.float32)

print(f({"a": [1.0, 2.0], "b": [3]}))
f({"a": [1.0], "b": [tf.constant(1.5)]})
'''),
    case("tracing/input_signature_varargs_too_many", '''
@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def f(*args):
    return args[0]

f(1.0, 2.0)
'''),
]
