# Run by test_defined_at.py as `python defined_at_script.py graphfn`; its output was recorded under
# TF 2.21 with `tf` (defined_at_expected_tf.txt). Line numbers matter: edit both together.
import sys
if sys.argv[1] == "tf":
    import tensorflow as tf
else:
    import graphfn as tf

spec = [tf.TensorSpec(None, tf.int32)]


@tf.function(input_signature=spec)
def reshape(x):
    y = tf.reshape(x, [5])
    return y


@tf.function(input_signature=spec)
def in_cond(x):
    if tf.reduce_sum(x) > 0:
        y = tf.reshape(x, [5])
    else:
        y = tf.zeros([5], tf.int32)
    return y


@tf.function(input_signature=spec)
def in_while(x):
    i = tf.constant(0)
    while i < 3:
        x = tf.reshape(x, [5])
        i += 1
    return x


@tf.function(input_signature=spec)
def in_for(x):
    for i in tf.range(3):
        x = tf.reshape(x, [5])
    return x


@tf.function(input_signature=spec, autograph=False)
def lambda_branch(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reshape(x, [5]), lambda: tf.zeros([5], tf.int32))


@tf.function(input_signature=spec)
def converted_lambda(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reshape(x, [5]), lambda: tf.zeros([5], tf.int32))


@tf.function(input_signature=spec)
def calls_reshape(x):
    return reshape(x) + 1


@tf.function(input_signature=spec)
def nested_def(x):
    def inner(z):
        return tf.reshape(z, [5])
    return inner(x)


def check_positive(x):
    tf.debugging.Assert(x > 5, [x])


@tf.function
def asserts(x):
    check_positive(x)
    return x


@tf.function
def assert_equal(x):
    tf.debugging.assert_equal(x, 0)
    return x + 1


@tf.function
def divides(x, y):
    return tf.math.floordiv(x, y)


@tf.function
def gathers(x, i):
    return tf.gather(x, i)


class Model(tf.Module):
    @tf.function(input_signature=spec)
    def __call__(self, x):
        return tf.reshape(x, [5])


@tf.function
def leak_cond(x):
    def branch():
        global leaked
        leaked = x * 2
        return leaked
    tf.cond(x > 0, branch, lambda: x)
    return leaked + 1


@tf.function
def leak_while(x):
    res = []
    i = tf.constant(0)
    while i < 3:
        z = x + 1
        res.append(z)
        i += 1
    return res[0]


store = []


@tf.function
def inner(x):
    t = x * 3
    store.append(t)
    return t


@tf.function
def uses_inner(x):
    inner(x)
    return store[-1] + 1


def run(fn, *args):
    try:
        fn(*args)
        print("no error\n")  # two lines, as each error
    except Exception as e:  # noqa: BLE001
        print(type(e).__name__)
        print(repr(str(e)))


v = tf.constant([1, 2, 3])
run(reshape, v)
run(in_cond, v)
run(in_while, v)
run(in_for, v)
run(lambda_branch, v)
run(converted_lambda, v)
run(calls_reshape, v)
run(nested_def, v)
run(asserts, tf.constant(1))
run(assert_equal, tf.constant(1))
run(divides, tf.constant(1), tf.constant(0))
run(gathers, tf.constant([1, 2]), tf.constant(5))
run(Model(), v)
run(leak_cond, tf.constant(1))
run(leak_while, tf.constant(1))
run(uses_inner, tf.constant(1))
