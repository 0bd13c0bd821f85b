"""Differential cases: concrete functions, their signatures and graphs."""

from run_differential import case

CASES = [
    case("concrete/pretty_printed_signature", '''
@tf.function
def f(x, y):
    return x + y

print(f.get_concrete_function(tf.constant(1), tf.constant(2)).pretty_printed_signature())
'''),
    case("concrete/pretty_printed_concrete_signatures", '''
@tf.function
def double(a):
    return a + a

double(tf.constant(1)); double(tf.constant(1.5)); double(tf.constant("a"))
print(double.pretty_printed_concrete_signatures())
'''),
    case("concrete/signature_with_python_literal", '''
@tf.function
def f(x, n):
    return x * n

print(f.get_concrete_function(tf.constant([1.0]), 3).pretty_printed_signature())
'''),
    case("concrete/signature_from_tensorspec", '''
@tf.function
def f(x):
    return tf.reduce_sum(x, axis=0)

cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32, name="batch"))
print(cf.pretty_printed_signature())
print(cf(tf.ones([2, 3])))
'''),
    case("concrete/signature_nested_outputs", '''
@tf.function
def f(x):
    return {"sum": x + 1, "pair": (x * 2, x * 3)}

print(f.get_concrete_function(tf.constant(1.0)).pretty_printed_signature())
'''),
    case("concrete/call_with_wrong_dtype", '''
@tf.function
def f(x):
    return x

cf = f.get_concrete_function(tf.constant(1))
cf(tf.constant(1.0))
''', message=False),
    case("concrete/call_with_wrong_shape", '''
@tf.function
def f(x):
    return x

cf = f.get_concrete_function(tf.TensorSpec([2], tf.int32))
cf(tf.constant([1, 2, 3]))
''', message=False),
    case("concrete/call_concrete_runs_graph", '''
@tf.function
def f(x):
    return x * x + 1

cf = f.get_concrete_function(tf.TensorSpec([], tf.int32))
cf(tf.constant(7))
'''),
    case("concrete/call_concrete_with_keyword", '''
@tf.function
def f(x, y):
    return x - y

cf = f.get_concrete_function(tf.constant(1.0), tf.constant(2.0))
cf(y=tf.constant(1.0), x=tf.constant(4.0))
'''),
    case("concrete/structured_outputs_dict", '''
@tf.function
def f(x):
    return {"a": x, "b": x + 1}

cf = f.get_concrete_function(tf.constant(1))
out = cf(tf.constant(5))
sorted(out.items())
'''),
    case("concrete/graph_inputs_and_outputs", '''
@tf.function
def f(x, y):
    return tf.matmul(x, y)

cf = f.get_concrete_function(tf.TensorSpec([2, 3]), tf.TensorSpec([3, 4]))
print([t.name for t in cf.graph.inputs])
print([(t.dtype, t.shape) for t in cf.graph.outputs])
'''),
    case("concrete/graph_operation_names", '''
@tf.function
def f(x):
    y = x + 1
    z = y * 2
    return tf.reduce_sum(z)

cf = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
print([op.name for op in cf.graph.get_operations()])
'''),
    case("concrete/graph_def_node_ops", '''
@tf.function
def f(x):
    return tf.nn.relu(x) - 1.0

g = f.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.as_graph_def()
print([(n.name, n.op) for n in g.node])
'''),
    case("concrete/graph_def_text", '''
@tf.function
def f(x):
    return x * 2

print(f.get_concrete_function(tf.constant(1)).graph.as_graph_def())
''',
         deliberate="GraphDef text: graphfn prints each node's attrs in the order the seed documents show (TF 2.8) and their `producer` number; TF 2.21's protobuf prints the attr map in another order and a newer producer"),
    case("concrete/name_scope_in_node_names", '''
@tf.function
def f(x):
    with tf.name_scope("block"):
        y = x + 1
        with tf.name_scope("inner"):
            z = y * 2
    return z

print([op.name for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()])
'''),
    case("concrete/named_ops", '''
@tf.function
def f(x):
    a = tf.add(x, 1, name="first")
    b = tf.add(a, 1, name="first")
    return tf.identity(b, name="result")

print([op.name for op in f.get_concrete_function(tf.constant(1)).graph.get_operations()])
'''),
    case("concrete/structured_outputs_attr", '''
@tf.function
def f(x):
    return (x, [x + 1])

cf = f.get_concrete_function(tf.constant(1))
print(cf.structured_outputs)
'''),
    case("concrete/output_dtypes_shapes", '''
@tf.function
def f(x):
    return tf.cast(x, tf.float64), tf.shape(x)

cf = f.get_concrete_function(tf.TensorSpec([None, 2], tf.int32))
print([(o.dtype, o.shape) for o in cf.outputs])
'''),
    case("concrete/concrete_function_reused", '''
@tf.function
def f(x):
    print("tracing")
    return x

a = f.get_concrete_function(tf.constant(1))
b = f.get_concrete_function(tf.constant(2))
a is b
'''),
    case("concrete/get_concrete_function_with_default", '''
@tf.function
def f(x, k=3):
    return x * k

cf = f.get_concrete_function(tf.constant(2))
print(cf(tf.constant(5)))
print(cf.pretty_printed_signature())
'''),
    case("concrete/returns_python_value", '''
@tf.function
def f(x):
    return 3

print(f(tf.constant(1)))
print(f.get_concrete_function(tf.constant(1)).pretty_printed_signature())
'''),
    case("concrete/returns_none", '''
@tf.function
def f(x):
    tf.print(x)

print(f(tf.constant(1)))
'''),
    case("concrete/input_signature_concrete_no_args", '''
@tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
def f(x):
    return x + 1

cf = f.get_concrete_function()
print(cf.pretty_printed_signature())
print(cf(tf.constant([1.0, 2.0])))
'''),
]
