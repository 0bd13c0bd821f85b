"""Code cells of seed 001 (study notes in Chinese on the same guide, run on TF 2.x in Jupyter),
with `import tensorflow as tf` -> `import graphfn as tf`. Same fields as seed000_cells.py. The
notebook's cells are listed in document order (the import cell, In[27], comes first)."""

from ._masks import FUNCTION_MODULE, NONLOCAL_ORDER, RANDOM_INTS, RANDOM_NUMPY, TIMING

CELLS = [
    dict(id="001:In[27]", code='''\
import graphfn as tf
import timeit
'''),
    dict(id="001:In[3]", code='''\
def regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x

tensorflow_function = tf.function(regular_function)
'''),
    dict(id="001:In[4]", code='''\
x1 = tf.constant([
    [1.0, 2.0]
])

y1 = tf.constant([
    [2.0],
    [3.0]
])

b1 = tf.constant(4.0)
'''),
    dict(id="001:In[5]", code='''\
tensorflow_function(x1, y1, b1).numpy()
''', stdout="array([[12.]], dtype=float32)\n",
         note="the seed also shows two TF C++ log lines (MLIR passes, CPU frequency): log lines "
              "are not compared"),
    dict(id="001:In[6]", code='''\
regular_function(x1, y1, b1).numpy()
''', stdout="array([[12.]], dtype=float32)\n"),
    dict(id="001:In[7]", code='''\
@tf.function
def regular_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x
'''),
    dict(id="001:In[8]", code='''\
regular_function
''', stdout='<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object at 0x7f6cf16b0fd0>\n',
         masks=[FUNCTION_MODULE],
         note="the seed shows IPython's pretty form of TF 2.x's old def_function.Function; the "
              "expected text is TF 2.21's repr(); the defining module's path is masked",
         seed_stdout="<tensorflow.python.eager.def_function.Function at 0x11b886880>\n"),
    dict(id="001:In[9]", code='''\
regular_function(x1, y1, b1).numpy()
''', stdout="array([[12.]], dtype=float32)\n"),
    dict(id="001:In[10]", code='''\
def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0
    
tf_simple_relu = tf.function(simple_relu)
'''),
    dict(id="001:In[11]", code='''\
# graph-generating code
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

""", masks=[NONLOCAL_ORDER],
         note="as seed 000 In[6]: the seed cuts the listing off; TF 2.21's full listing"),
    dict(id="001:In[12]", code='''\
@tf.function
def my_relu(x):
    return tf.maximum(0., x)
'''),
    dict(id="001:In[13]", code='''\
# 3 個 TensorFlow Graph 被建立
print(my_relu(tf.constant(5.0)))
print(my_relu(tf.constant([1.0, -1.0, 3.0])))
print(my_relu(tf.constant([1.0, -1.0])))
''', stdout="""\
tf.Tensor(5.0, shape=(), dtype=float32)
tf.Tensor([1. 0. 3.], shape=(3,), dtype=float32)
tf.Tensor([1. 0.], shape=(2,), dtype=float32)
"""),
    dict(id="001:In[14]", code='''\
print(my_relu.pretty_printed_concrete_signatures())
''', stdout="""\
Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(3,), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(3,), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None
""", note="TF 2.21 prints signatures as Input Parameters/Output Type/Captures",
         seed_stdout="""\
my_relu(x)
  Args:
    x: float32 Tensor, shape=()
  Returns:
    float32 Tensor, shape=()

my_relu(x)
  Args:
    x: float32 Tensor, shape=(2,)
  Returns:
    float32 Tensor, shape=(2,)

my_relu(x)
  Args:
    x: float32 Tensor, shape=(3,)
  Returns:
    float32 Tensor, shape=(3,)
"""),
    dict(id="001:In[15]", code='''\
@tf.function
def get_MSE(y_true, y_pred):
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)
'''),
    dict(id="001:In[16]", code='''\
y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)

print(y_true)
print(y_pred)
''', stdout="""\
tf.Tensor([6 6 3 1 9], shape=(5,), dtype=int32)
tf.Tensor([4 0 3 8 7], shape=(5,), dtype=int32)
""", masks=[RANDOM_INTS], note="random values masked"),
    dict(id="001:In[17]", code='''\
get_MSE(y_true, y_pred)
''', stdout="<tf.Tensor: shape=(), dtype=int32, numpy=18>\n", masks=[RANDOM_NUMPY],
         note="depends on random inputs"),
    dict(id="001:In[18]", code='''\
# TensorFlow Function 預設是 Graph Execution，手動調成 Eager Execution
tf.config.run_functions_eagerly(True)
'''),
    dict(id="001:In[19]", code='''\
# 發現 Graph Execution 與 Eager Execution 結果相同
get_MSE(y_true, y_pred)
''', stdout="<tf.Tensor: shape=(), dtype=int32, numpy=18>\n", masks=[RANDOM_NUMPY],
         note="depends on random inputs"),
    dict(id="001:In[20]", code='''\
# 必須再手動調回來
tf.config.run_functions_eagerly(False)
'''),
    dict(id="001:In[21]", code='''\
@tf.function
def get_MSE(y_true, y_pred):
    sq_diff = tf.pow(y_true - y_pred, 2)
    print("get_MSE is called !")
    return tf.reduce_mean(sq_diff)
'''),
    dict(id="001:In[22]", code='''\
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
''', stdout="get_MSE is called !\n"),
    dict(id="001:In[23]", code='''\
tf.config.run_functions_eagerly(True)
'''),
    dict(id="001:In[24]", code='''\
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
''', stdout="get_MSE is called !\nget_MSE is called !\nget_MSE is called !\n"),
    dict(id="001:In[25]", code='''\
tf.config.run_functions_eagerly(False)
'''),
    dict(id="001:In[26]", code='''\
x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result
'''),
    dict(id="001:In[29]", code='''\
# eager execution
timeit.timeit(lambda: power(x, 100), number=1000)
''', stdout="1.0946794999999838\n", masks=[TIMING], note="timing masked"),
    dict(id="001:In[30]", code='''\
power = tf.function(power)

# graph execution
timeit.timeit(lambda: power(x, 100), number=1000)
''', stdout="0.21099879100006547\n", masks=[TIMING], note="timing masked"),
    dict(id="001:In[42]", code='''\
@tf.function
def tracing_function(x):
    print("Tracing")
    return x*x + tf.constant(2)
'''),
    dict(id="001:In[43]", code='''\
print("#1: ", tracing_function(tf.constant(5))) # tracing
print("#2: ", tracing_function(tf.constant(6))) # no tracing
''', stdout="""\
Tracing
#1:  tf.Tensor(27, shape=(), dtype=int32)
#2:  tf.Tensor(38, shape=(), dtype=int32)
"""),
    dict(id="001:In[44]", code='''\
# 只要 "Input Signatur" 改變，就要重新 Tracing 建立 TensorFlow Graph
print("#1: ", tracing_function(5)) # tracing
print("#2: ", tracing_function(6)) # tracing
''', stdout="""\
Tracing
#1:  tf.Tensor(27, shape=(), dtype=int32)
Tracing
#2:  tf.Tensor(38, shape=(), dtype=int32)
"""),
]
