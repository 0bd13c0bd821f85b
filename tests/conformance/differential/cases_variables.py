"""Differential cases: tf.Variable (eager and in functions), assignment, tf.Module."""

from run_differential import case

CASES = [
    case("variables/repr", '''
v = tf.Variable([1.0, 2.0], name="weights")
print(repr(v))
print(v)
'''),
    case("variables/properties", '''
v = tf.Variable([[1, 2], [3, 4]], name="m")
(v.name, v.dtype.name, v.shape.as_list(), v.trainable)
'''),
    case("variables/assign_methods", '''
v = tf.Variable(10)
v.assign(3)
v.assign_add(4)
v.assign_sub(2)
v
'''),
    case("variables/assign_returns", '''
v = tf.Variable(1.0)
r = v.assign_add(2.0)
(r.numpy().item(), v.numpy().item())
'''),
    case("variables/arithmetic_reads_value", '''
v = tf.Variable([1, 2, 3])
(v + 1, v * v, -v, tf.reduce_sum(v))
'''),
    case("variables/assign_wrong_shape", '''
v = tf.Variable([1.0, 2.0])
v.assign([1.0, 2.0, 3.0])
''', message=False),
    case("variables/assign_wrong_dtype", '''
v = tf.Variable([1, 2])
v.assign([1.5, 2.5])
''', message=False),
    case("variables/dtype_argument", '''
v = tf.Variable(3, dtype=tf.float64)
v
'''),
    case("variables/not_trainable", '''
v = tf.Variable(1.0, trainable=False)
v.trainable
'''),
    case("variables/shape_none_allows_reshape", '''
v = tf.Variable([1.0], shape=tf.TensorShape(None))
v.assign([1.0, 2.0, 3.0])
(v.shape, v.numpy().tolist())
'''),
    case("variables/in_function_assign", '''
v = tf.Variable(0)

@tf.function
def step():
    v.assign_add(1)
    return v.read_value()

step(); step()
(step(), v)
'''),
    case("variables/in_function_order_of_effects", '''
v = tf.Variable(1.0)

@tf.function
def f():
    v.assign(v * 2)
    a = v.read_value()
    v.assign_add(1.0)
    b = v.read_value()
    return a, b

(f(), v)
'''),
    case("variables/created_once_in_function", '''
class Counter(tf.Module):
    def __init__(self):
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(0.0)
        self.v.assign_add(x)
        return self.v.read_value()

c = Counter()
(c(tf.constant(1.0)), c(tf.constant(2.0)))
'''),
    case("variables/created_every_call_error", '''
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x

f(tf.constant(1.0))
''', message=False),
    case("variables/module_variables", '''
class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
        self.b = tf.Variable(tf.zeros([n_out]), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b

layer = Dense(2, 3, name="dense")
print(layer(tf.constant([[1.0, 2.0]])))
print(sorted(v.name for v in layer.trainable_variables))
print(layer.name)
'''),
    case("variables/nested_modules", '''
class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.0, name="inner_v")

class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.u = tf.Variable(2.0, name="outer_u", trainable=False)

m = Outer()
print(len(m.variables), len(m.trainable_variables), len(m.submodules))
'''),
    case("variables/variable_as_function_argument", '''
@tf.function
def f(v):
    print("tracing")
    return v * 2

a = tf.Variable(1.0)
b = tf.Variable(5.0)
print(f(a)); print(f(b))
f.experimental_get_tracing_count()
'''),
    case("variables/assign_in_cond", '''
v = tf.Variable(0)

@tf.function
def f(x):
    if x > 0:
        v.assign(x)
    else:
        v.assign(-x)
    return v.read_value()

(f(tf.constant(5)), f(tf.constant(-7)))
'''),
    case("variables/assign_in_loop", '''
v = tf.Variable(0)

@tf.function
def f(n):
    for i in tf.range(n):
        v.assign_add(i)
    return v.read_value()

f(tf.constant(5))
'''),
    case("variables/numpy_and_conversion", '''
v = tf.Variable([[1.5, 2.5]])
(v.numpy(), tf.convert_to_tensor(v), np.asarray(v))
'''),
    case("variables/indexing", '''
v = tf.Variable([[1, 2, 3], [4, 5, 6]])
(v[0], v[:, 1], v[1, 2])
'''),
    case("variables/assign_from_expression", '''
v = tf.Variable([1, 2, 3, 4])
v.assign(tf.where(tf.range(4) % 2 == 0, v * 10, v))
v
'''),
    case("variables/comparison_ops", '''
v = tf.Variable([1, 5, 3])
(v > 2, tf.equal(v, 5))
'''),
    case("variables/int_variable_not_trainable_grad", '''
v = tf.Variable(2)
with tf.GradientTape() as tape:
    y = v * v
tape.gradient(y, v)
'''),
    case("variables/captured_variable_nodes", '''
v = tf.Variable(1.0)

@tf.function
def f(x):
    v.assign_add(x)
    return v.read_value()

print([op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()])
''', deliberate="captured variables are constants of the graph, not Placeholders fed per call"),
    case("variables/numpy_left_operand", '''
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
X = np.array([[1.0, 0.5], [2.0, -1.0]], dtype=np.float32)
(X @ v, np.float32(3) * v, X + v, X - v, X / v, X < v, np.float64(2) ** v)
'''),
    case("variables/numpy_left_operand_gradient", '''
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
X = np.array([[1.0, 0.5], [2.0, -1.0]], dtype=np.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(X @ v) + tf.reduce_sum(np.float32(3) * v)
tape.gradient(loss, v)
'''),
    case("variables/numpy_left_operand_in_function", '''
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
X = np.array([[1.0, 0.5], [2.0, -1.0]], dtype=np.float32)

@tf.function
def f():
    with tf.GradientTape() as tape:
        y = X @ v
        loss = tf.reduce_sum(y)
    return y, tape.gradient(loss, v)

f()
'''),
    case("variables/keras_optimizer_variable_argument", '''
opt = tf.keras.optimizers.Adam(0.1)
v = tf.Variable([1.0, -2.0])

@tf.function
def step(v):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v)
    grads = tape.gradient(loss, [v])
    opt.apply_gradients(zip(grads, [v]))
    return loss

losses = [step(v) for _ in range(3)]
(losses, v, int(opt.iterations.numpy()), step.experimental_get_tracing_count())
''', rtol=1e-6),
]
