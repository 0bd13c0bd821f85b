"""Code blocks of seed 002 (a lecture transcript on AutoGraph: ``` blocks, some with `>>>` lines
and the output the slides show), with `import graphfn as tf`. Same fields as seed000_cells.py.

Ids are "002:L<line>", the seed line where the block starts. The transcript has no cells as
such: its runnable code blocks become cells, run in order in one namespace; `>>> expr` lines
become plain statements whose values are shown ("each" display). The slides repeat blocks and
mix in blocks that are not code to run; those are listed in NOT_CELLS with the reason."""

from ._masks import NONLOCAL_ORDER

NOT_CELLS = {
    "repeated slide copies of a block listed as a cell":
        "L58 L76 L96 L110 L137 L151 L232 L418 L430 L487 L492 L760-L772 L842 L918 L928",
    "fragments of a block listed as a cell (one line per slide)":
        "L341 (with L346) L660-L682 L688-L710 L751-L772",
    "AutoGraph output shown as a sketch of generated code (`...`, undefined names such as "
    "fscope), not code to run": "L360 L530 L583-L635 L712-L749 L775-L840",
    "worked arithmetic on the slides, not code": "L442 L465 L471 L500 L506 L518",
    "output shown for a cell, kept with that cell": "L867 L899 L961",
}

CELLS = [
    dict(id="002:setup", code='''\
import graphfn as tf
''', note="added: the transcript's code assumes `tf` is imported"),
    dict(id="002:L20", code='''\
def f(x):  
    if x > 0:  
        x = x * x  
    return x
'''),
    dict(id="002:L38", code='''\
@tf.function  
def f(x):  
    def if_true():  
        return x * x  
    def if_false():  
        return x  
    x = tf.cond(  
        tf.greater(x, 0),  
        if_true,  
        if_false)  
    return x
'''),
    dict(id="002:L178", code='''\
def add(a, b):  
    return a + b
'''),
    dict(id="002:L189", code='''\
@tf.function
def add(a, b):
    return a + b
'''),
    dict(id="002:L205", code='''\
print(tf.autograph.to_code(add.python_function))
''', stdout="""\
def tf__add(a, b):
    with ag__.FunctionScope('add', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.ld(a) + ag__.ld(b)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)

""", masks=[NONLOCAL_ORDER], seed_stdout="""\
def tf__add(a, b):
    do_return = False
    retval_ = ag__.UndefinedReturnValue()
    with ag__.FunctionScope('add', 'fscope',
        ag__.ConversionOptions(recursive=True, user_requested=True,
            optional_features=(), internal_convert_user_code=True)) as fscope:
        try:
            do_return = True
            retval_ = fscope.mark_return_value((a + b))
        except:
            do_return = False
            raise
    (do_return,)
    return ag__.retval(retval_)
""", note="the slide shows TF 2.0's generated code (mark_return_value, ag__.retval); TF 2.21 "
          "generates fscope.ret(...) inside the FunctionScope"),
    dict(id="002:L238", display="each", code='''\
v = tf.Variable(1.0)

with tf.GradientTape() as tape:
    result = add(v, 1.0)

tape.gradient(result, v).numpy()
''', stdout='np.float32(1.0)\n', seed_stdout="1.0\n",
         note="`>>> tape.gradient(...)` shown; NumPy 2 reprs a float32 scalar as np.float32(1.0)"),
    dict(id="002:L256", display="each", code='''\
def linear_layer(x):
    return 2*x + 1

@tf.function
def deep_net(x):
    return tf.nn.relu(linear_layer(x))

deep_net(tf.constant((1, 2, 3)))
''', stdout='<tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 5, 7], dtype=int32)>\n', seed_stdout="[3, 5, 7]\n",
         note="the slide abbreviates the result; expected is TF 2.21's repr of the tensor"),
    dict(id="002:L270", code='''\
@tf.function
def double(a):
    return a + a
'''),
    dict(id="002:L276", display="each", code='''\
double(tf.constant(1)).numpy()

double(tf.constant(1.1)).numpy()

double(tf.constant("a")).numpy()
''', stdout="np.int32(2)\nnp.float32(2.2)\nb'aa'\n", seed_stdout="2\n2.2\nb'aa'\n",
         note="NumPy 2 reprs scalars with their type: np.int32(2), np.float32(2.2)"),
    dict(id="002:L297", code='''\
class CustomModel(tf.keras.models.Model):  
    @tf.function  
    def call(self, input_data):  
        if tf.reduce_mean(input_data) > 0:  
            return input_data  
        else:  
            return input_data // 2
''', note="tf.keras.models.Model is Keras 3's Model, as in TF 2.16+ (docs/keras.md)"),
    dict(id="002:L317", code='''\
def fizzbuzz(max_num):  
    counter = 0  
    for num in range(max_num):  
        if num % 3 == 0 and num % 5 == 0:  
            print('FizzBuzz')  
        elif num % 3 == 0:  
            print('Fizz')  
        elif num % 5 == 0:  
            print('Buzz')  
        else:  
            print(num)  
        counter += 1  
    return counter
'''),
    dict(id="002:L346", code='''\
@tf.function
def f(x):  
    while tf.reduce_sum(x) > 0:  
        tf.print(x)  
        x = tf.tanh(x)  
    return x
''', note="the slide splits this block: `@tf.function` alone at L341, the def at L346"),
    dict(id="002:L356", display="each", code='''\
tf.autograph.to_code(f.python_function)
''', stdout='"def tf__f(x):\\n    with ag__.FunctionScope(\'f\', \'fscope\', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:\\n        do_return = False\\n        retval_ = ag__.UndefinedReturnValue()\\n\\n        def get_state():\\n            return (x,)\\n\\n        def set_state(vars_):\\n            nonlocal x\\n            x, = vars_\\n\\n        def loop_body():\\n            nonlocal x\\n            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(x),), None, fscope)\\n            x = ag__.converted_call(ag__.ld(tf).tanh, (ag__.ld(x),), None, fscope)\\n\\n        def loop_test():\\n            return ag__.converted_call(ag__.ld(tf).reduce_sum, (ag__.ld(x),), None, fscope) > 0\\n        ag__.while_stmt(loop_test, loop_body, get_state, set_state, (\'x\',), {})\\n        try:\\n            do_return = True\\n            retval_ = ag__.ld(x)\\n        except:\\n            do_return = False\\n            raise\\n        return fscope.ret(retval_, do_return)\\n"\n', masks=[NONLOCAL_ORDER],
         note="the slide (L360) shows an abridged sketch of TF 2.0's code; expected is TF 2.21's "
              "repr() of the returned string"),
    dict(id="002:L398", code='''\
a = tf.Variable(1.0)
b = tf.Variable(2.0)
'''),
    dict(id="002:L403", code='''\
@tf.function
def f(x, y):
    a.assign(y * b)
    b.assign_add(x * a)
    return a + b
'''),
    dict(id="002:L411", display="each", code='''\
f(1.0, 2.0)
''', stdout='<tf.Tensor: shape=(), dtype=float32, numpy=10.0>\n', seed_stdout="10.0\n",
         note="the slide abbreviates the result; expected is TF 2.21's repr of the tensor"),
    dict(id="002:L574", code='''\
@tf.function
def sign(x):
    if x > 0:
        return 'Positive'
    else:
        return 'Negative'
'''),
    dict(id="002:L645", code='''\
@tf.function
def f(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x
'''),
    dict(id="002:L855", code='''\

def f(x):
    print("Traced with", x)

for i in range(5):
    f(2)

''', stdout="Traced with 2\n" * 5),
    dict(id="002:L885", code='''\

@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)

for i in range(5):
    f(2)

''', stdout="Traced with 2\n", stderr="Executed with 2\n" * 5,
         note="the slide shows both streams together; print writes stdout, tf.print stderr"),
    dict(id="002:L945", code='''\
@tf.function
def f(x):
    v = tf.Variable(1.0)
    v.assign_add(x)
    return v
'''),
    dict(id="002:L953", display="each", code='''\
f(1)
''', error="""\
ValueError: in user code:

    File "seed002_cells_21.py", line 3, in f  *
        v = tf.Variable(1.0)

    ValueError: tf.function only supports singleton tf.Variables created on the first call. Make sure the tf.Variable is only created once or created outside tf.function. See https://www.tensorflow.org/guide/function#creating_tfvariables for more information.
""", note="the slide shows TF 2.0's message, cut off after `in converted code:`"),
    dict(id="002:L970", code='''\
v = tf.Variable(1.0)
@tf.function
def f(x):
    v.assign_add(x)
    return v
'''),
]
