"""Code cells of seed 000 (TF guide "Introduction to graphs and tf.function", TF 2.8 notebook
export), with `import tensorflow as tf` -> `import graphfn as tf`.

`stdout`/`stderr`/`error` are what the cell prints (error: "Type: message" of an exception the
cell raises). Where TF changed since 2.8, they hold TensorFlow 2.21's text and `seed_stdout`
keeps what the seed shows, with a `note`. `masks` are (regex, replacement) pairs applied to
expected and actual text before comparing (random values, timings, versions)."""

from ._masks import NONLOCAL_ORDER, RANDOM_INTS, RANDOM_NUMPY, TIMING, VERSION

CELLS = [
    dict(id="000:In[1]", code='''\
import graphfn as tf

import timeit
from datetime import datetime
'''),
    dict(id="000:In[2]", code='''\
print(tf.__version__)
''', stdout="2.8.0\n", masks=[VERSION],
         note="version number masked: TF's and graphfn's versions differ by design"),
    dict(id="000:In[3]", code='''\
# Define a Python function.
def a_regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x

# `a_function_that_uses_a_graph` is a TensorFlow `Function`.
a_function_that_uses_a_graph = tf.function(a_regular_function)

# Make some tensors.
x1 = tf.constant([[1.0, 2.0]])
y1 = tf.constant([[2.0], [3.0]])
b1 = tf.constant(4.0)

orig_value = a_regular_function(x1, y1, b1).numpy()

# Call a `Function` like a Python function.
tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()

assert(orig_value == tf_function_value)
'''),
    dict(id="000:In[4]", code='''\
def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x

# Use the decorator to make `outer_function` a `Function`.
@tf.function
def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)

    return inner_function(x, y, b)


# Note that the callable will create a graph that
# includes `inner_function` as well as `outer_function`.
outer_function(tf.constant([[1.0, 2.0]])).numpy()
''', stdout="array([[12.]], dtype=float32)\n"),
    dict(id="000:In[5]", code='''\
def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0

# `tf_simple_relu` is a TensorFlow `Function` that wraps `simple_relu`.
tf_simple_relu = tf.function(simple_relu)

print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
''', stdout="First branch, with graph: 1\nSecond branch, with graph: 0\n"),
    dict(id="000:In[6]", code='''\
# This is the graph-generating output of AutoGraph.
print(tf.autograph.to_code(simple_relu))
''', stdout="""\
def tf__simple_relu(x):
    with ag__.FunctionScope('simple_relu', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (do_return, retval_)

        def set_state(vars_):
            nonlocal retval_, do_return
            do_return, retval_ = vars_

        def if_body():
            nonlocal retval_, do_return
            try:
                do_return = True
                retval_ = ag__.ld(x)
            except:
                do_return = False
                raise

        def else_body():
            nonlocal retval_, do_return
            try:
                do_return = True
                retval_ = 0
            except:
                do_return = False
                raise
        ag__.if_stmt(ag__.converted_call(ag__.ld(tf).greater, (ag__.ld(x), 0), None, fscope), if_body, else_body, get_state, set_state, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)

""",
         masks=[NONLOCAL_ORDER],
         note="the seed (TF 2.8) cuts the listing off at `if_bo`; TF 2.21 unparses "
              "`(do_return, retval_) = vars_` as `do_return, retval_ = vars_`, so the expected "
              "text is TF 2.21's full listing. `nonlocal` names are compared sorted (TF's order "
              "follows PYTHONHASHSEED)"),
    dict(id="000:In[7]", code='''\
# This is the graph itself.
print(tf_simple_relu.get_concrete_function(tf.constant(1)).graph.as_graph_def())
''', stdout="""\
node {
  name: "x"
  op: "Placeholder"
  attr {
    key: "_user_specified_name"
    value {
      s: "x"
    }
  }
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
  attr {
    key: "shape"
    value {
      shape {
      }
    }
  }
}
node {
  name: "Greater/y"
  op: "Const"
  attr {
    key: "dtype"
    value {
      type: DT_INT32
    }
  }
  attr {
    key: "value"
    value {
      tensor {
        dtype: DT_INT32
        tensor_shape {
        }
        int_val: 0
      }
    }
  }
}
node {
  name: "Greater"
  op: "Greater"
  input: "x"
  input: "Greater/y"
  attr {
    key: "T"
    value {
      type: DT_INT32
    }
  }
}
node {
  name: "cond"
  op: "StatelessIf"
  input: "Greater"
  input: "x"
  attr {
    key: "Tcond"
    value {
      type: DT_BOOL
    }
  }
  attr {
    key: "Tin"
    value {
      list {
        type: DT_INT32
      }
    }
  }
  attr {
    key: "Tout"
    value {
      list {
        type: DT_BOOL
        type: DT_INT32
      }
    }
""",
         match="prefix",
         note="the seed shows only the start of the GraphDef (cut off inside the `cond` node), "
              "compared as a prefix. TF 2.21 prints attr map entries unsorted (protobuf upb) "
              "where TF 2.8 sorted them by key, and adds internal attrs (_read_only_resource_inputs, "
              "_lower_using_switch_merge, _construction_context) after the part the seed shows"),
    dict(id="000:In[8]", code='''\
@tf.function
def my_relu(x):
    return tf.maximum(0., x)

# `my_relu` creates new graphs as it observes more signatures.
print(my_relu(tf.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(tf.constant([3., -3.])))
''', stdout="""\
tf.Tensor(5.5, shape=(), dtype=float32)
tf.Tensor([1. 0.], shape=(2,), dtype=float32)
tf.Tensor([3. 0.], shape=(2,), dtype=float32)
"""),
    dict(id="000:In[9]", code='''\
# These two calls do *not* create new graphs.
print(my_relu(tf.constant(-2.5)))       # Signature matches `tf.constant(5.5)`.
print(my_relu(tf.constant([-1., 1.])))  # Signature matches `tf.constant([3., -3.])`.
''', stdout="""\
tf.Tensor(0.0, shape=(), dtype=float32)
tf.Tensor([0. 1.], shape=(2,), dtype=float32)
"""),
    dict(id="000:In[10]", code='''\
# There are three `ConcreteFunction`s (one for each graph) in `my_relu`.
# The `ConcreteFunction` also knows the return type and shape!
print(my_relu.pretty_printed_concrete_signatures())
''', stdout="""\
Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None
""",
         note="TF 2.21 prints signatures as Input Parameters/Output Type/Captures",
         seed_stdout="""\
my_relu(x)
  Args:
    x: float32 Tensor, shape=()
  Returns:
    float32 Tensor, shape=()

my_relu(x=[1, -1])
  Returns:
    float32 Tensor, shape=(2,)

my_relu(x)
  Args:
    x: float32 Tensor, shape=(2,)
  Returns:
    float32 Tensor, shape=(2,)
"""),
    dict(id="000:In[11]", code='''\
@tf.function
def get_MSE(y_true, y_pred):
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)
'''),
    dict(id="000:In[12]", code='''\
y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
print(y_true)
print(y_pred)
''', stdout="""\
tf.Tensor([7 2 7 5 2], shape=(5,), dtype=int32)
tf.Tensor([9 9 0 8 8], shape=(5,), dtype=int32)
""", masks=[RANDOM_INTS], note="random values masked"),
    dict(id="000:In[13]", code='''\
get_MSE(y_true, y_pred)
''', stdout="<tf.Tensor: shape=(), dtype=int32, numpy=29>\n",
         masks=[RANDOM_NUMPY], note="depends on random inputs"),
    dict(id="000:In[14]", code='''\
tf.config.run_functions_eagerly(True)
'''),
    dict(id="000:In[15]", code='''\
get_MSE(y_true, y_pred)
''', stdout="<tf.Tensor: shape=(), dtype=int32, numpy=29>\n",
         masks=[RANDOM_NUMPY], note="depends on random inputs"),
    dict(id="000:In[16]", code='''\
# Don't forget to set it back when you are done.
tf.config.run_functions_eagerly(False)
'''),
    dict(id="000:In[17]", code='''\
@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)
'''),
    dict(id="000:In[18]", code='''\
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
''', stdout="Calculating MSE!\n"),
    dict(id="000:In[19]", code='''\
# Now, globally set everything to run eagerly to force eager execution.
tf.config.run_functions_eagerly(True)
'''),
    dict(id="000:In[20]", code='''\
# Observe what is printed below.
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
''', stdout="Calculating MSE!\nCalculating MSE!\nCalculating MSE!\n"),
    dict(id="000:In[21]", code='''\
tf.config.run_functions_eagerly(False)
'''),
    dict(id="000:In[22]", code='''\
def unused_return_eager(x):
    # Get index 1 will fail when `len(x) == 1`
    tf.gather(x, [1]) # unused 
    
    return x

try:
    print(unused_return_eager(tf.constant([0.0])))
except tf.errors.InvalidArgumentError as e:
    # All operations are run during eager execution so an error is raised.
    print(f'{type(e).__name__}: {e}')
''', stdout='InvalidArgumentError: {{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} indices[0] = 1 is not in [0, 1) [Op:GatherV2]\n',
         seed_stdout="tf.Tensor([0.], shape=(1,), dtype=float32)\n",
         note="the seed's run printed the tensor (its author remarks that Colab raises instead); "
              "TF 2.21 on CPU raises. The list index takes TF's slow path: no trailing ' name: '"),
    dict(id="000:In[23]", code='''\
@tf.function
def unused_return_graph(x):
    tf.gather(x, [1]) # unused
    return x

# Only needed operations are run during graph exection. The error is not raised.
print(unused_return_graph(tf.constant([0.0])))
''', stdout="tf.Tensor([0.], shape=(1,), dtype=float32)\n"),
    dict(id="000:In[24]", code='''\
x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result
'''),
    dict(id="000:In[25]", code='''\
print("Eager execution:", timeit.timeit(lambda: power(x, 100), number=1000))
''', stdout="Eager execution: 2.536226200000101\n", masks=[TIMING], note="timing masked"),
    dict(id="000:In[26]", code='''\
power_as_graph = tf.function(power)
print("Graph execution:", timeit.timeit(lambda: power_as_graph(x, 100), number=1000))
''', stdout="Graph execution: 0.4258823999999777\n", masks=[TIMING], note="timing masked"),
    dict(id="000:In[28]", code='''\
@tf.function
def a_function_with_python_side_effect(x):
    print("Tracing!")    # An eager-only side effect.
    return x * x + tf.constant(2)

# This is traced the first time.
print(a_function_with_python_side_effect(tf.constant(2)))

print()

# The second time through, you won't see the side effect.
print(a_function_with_python_side_effect(tf.constant(3)))
''', stdout="""\
Tracing!
tf.Tensor(6, shape=(), dtype=int32)

tf.Tensor(11, shape=(), dtype=int32)
"""),
    dict(id="000:In[29]", code='''\
# This retraces each time the Python argument changes,
# as a Python argument could be an epoch count or other
# hyperparameter.
print(a_function_with_python_side_effect(2))

print()

print(a_function_with_python_side_effect(3))
''', stdout="""\
Tracing!
tf.Tensor(6, shape=(), dtype=int32)

Tracing!
tf.Tensor(11, shape=(), dtype=int32)
"""),
]
