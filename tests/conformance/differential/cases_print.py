"""Differential cases: tf.print (stderr, formatting, summarize, streams) and Python print/repr
of tensors."""

from run_differential import case

CASES = [
    case("print/tf_print_eager_scalar", '''
tf.print(tf.constant(3))
tf.print(tf.constant(2.5))
tf.print(tf.constant(True))
tf.print(tf.constant("text"))
'''),
    case("print/tf_print_mixed_args", '''
tf.print("value:", tf.constant([1, 2]), 7, 2.5, None, [1, tf.constant(2)], {"k": tf.constant(3)})
'''),
    case("print/tf_print_sep_end", '''
tf.print("a", "b", tf.constant(1), sep="|", end="<END>\\n")
'''),
    case("print/tf_print_summarize_default", '''
tf.print(tf.range(10))
tf.print(tf.reshape(tf.range(36), [6, 6]))
'''),
    case("print/tf_print_summarize_all", '''
tf.print(tf.range(10), summarize=-1)
tf.print(tf.range(10), summarize=2)
'''),
    case("print/tf_print_to_stdout", '''
import sys
tf.print("to stdout", tf.constant([1.5, 2.5]), output_stream=sys.stdout)
'''),
    case("print/tf_print_float_formats", '''
tf.print(tf.constant([0.1, 1e-8, 123456.789, -2.0]))
tf.print(tf.constant([1.0, 2.0], dtype=tf.float64))
tf.print(tf.constant(float("nan")), tf.constant(float("inf")))
'''),
    case("print/tf_print_strings_and_bools", '''
tf.print(tf.constant(["a", "bc"]))
tf.print(tf.constant([[True, False], [False, True]]))
'''),
    case("print/tf_print_empty_and_3d", '''
tf.print(tf.zeros([0]))
tf.print(tf.reshape(tf.range(8), [2, 2, 2]))
'''),
    case("print/tf_print_in_function", '''
@tf.function
def f(x):
    tf.print("x =", x, "x*2 =", x * 2)
    return x

f(tf.constant([1, 2, 3]))
'''),
    case("print/tensor_str_and_repr", '''
t = tf.constant([[1.5, 2.0], [3.0, 4.25]])
print(t)
print(repr(t))
print(str(tf.constant("s")))
print(repr(tf.constant([b"a", b"b"])))
'''),
    case("print/tensor_repr_dtypes", '''
for dt in (tf.int8, tf.uint8, tf.int16, tf.int64, tf.float64, tf.bool, tf.float32):
    print(repr(tf.cast(tf.constant([1, 0]), dt)))
'''),
    case("print/large_tensor_repr_summarized", '''
print(tf.range(2000))
print(tf.zeros([100, 100]))
'''),
    case("print/scalar_reprs", '''
print(repr(tf.constant(1)))
print(repr(tf.constant(1.0)))
print(repr(tf.constant(1, dtype=tf.int64)))
print(repr(tf.constant(True)))
'''),
    case("print/dtype_and_shape_reprs", '''
print(repr(tf.float32), tf.float32, repr(tf.TensorShape([None, 3])), tf.TensorShape([2, 3]))
print(repr(tf.TensorShape(None)), tf.TensorShape([]))
print(repr(tf.TensorSpec([2], tf.int32)), repr(tf.TensorSpec(None, tf.string, name="s")))
'''),
    case("print/format_of_tensor", '''
t = tf.constant(3.14159)
print("{}".format(t))
print(f"{t.numpy():.2f}")
print("%s" % tf.constant([1, 2]))
'''),
    case("print/python_print_in_graph", '''
@tf.function
def f(x):
    print("graph tensor:", x)
    print("graph tensor + 1:", x + 1)
    return x

f(tf.constant([1.0, 2.0]))
'''),
    case("print/tf_print_nested_structure", '''
tf.print({"a": tf.constant([1, 2]), "b": (tf.constant(3.5), "str")})
'''),
    case("print/tf_print_variable", '''
v = tf.Variable([1, 2, 3])
tf.print(v)
tf.print("v:", v)
'''),
]
