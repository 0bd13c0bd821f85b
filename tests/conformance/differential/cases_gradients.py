"""Differential cases: eager tf.GradientTape (gradients through functions are not covered here)."""

from run_differential import case

CASES = [
    case("gradients/square", '''
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
'''),
    case("gradients/watch_constant", '''
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x ** 3
tape.gradient(y, x)
'''),
    case("gradients/unwatched_constant_none", '''
x = tf.constant(2.0)
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
'''),
    case("gradients/multiple_sources", '''
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([0.5, -0.5])
x = tf.constant([[1.0, 1.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.matmul(x, w) + b)
tape.gradient(y, [w, b])
'''),
    case("gradients/dict_sources", '''
a = tf.Variable(1.0); b = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = a * b + b
g = tape.gradient(y, {"a": a, "b": b})
sorted(g.items())
'''),
    case("gradients/persistent_tape", '''
x = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    z = y * y
(tape.gradient(y, x), tape.gradient(z, x))
'''),
    case("gradients/non_persistent_twice_error", '''
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x)
tape.gradient(y, x)
''', message=False),
    case("gradients/nested_tapes_second_order", '''
x = tf.Variable(2.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3
    dy = inner.gradient(y, x)
d2y = outer.gradient(dy, x)
(dy, d2y)
'''),
    case("gradients/output_gradients", '''
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * x
tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
'''),
    case("gradients/unconnected_none", '''
x = tf.Variable(1.0); y = tf.Variable(2.0)
with tf.GradientTape() as tape:
    z = x * 2
tape.gradient(z, [x, y])
'''),
    case("gradients/unconnected_zero", '''
x = tf.Variable(1.0); y = tf.Variable(2.0)
with tf.GradientTape() as tape:
    z = x * 2
tape.gradient(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO)
'''),
    case("gradients/stop_gradient", '''
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x * tf.stop_gradient(x)
tape.gradient(y, x)
'''),
    case("gradients/relu_sigmoid_tanh", '''
x = tf.Variable([-1.0, 0.5, 2.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.nn.relu(x) + tf.sigmoid(x) + tf.tanh(x))
tape.gradient(y, x)
''', rtol=1e-5),
    case("gradients/exp_log_sqrt", '''
x = tf.Variable([1.0, 4.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.exp(x) + tf.math.log(x) + tf.sqrt(x))
tape.gradient(y, x)
''', rtol=1e-5),
    case("gradients/broadcast_add_reduces", '''
a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = tf.Variable([1.0, 1.0, 1.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum((a + b) * 2.0)
tape.gradient(y, [a, b])
'''),
    case("gradients/matmul", '''
a = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[5.0], [6.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.matmul(a, b))
tape.gradient(y, a)
'''),
    case("gradients/reduce_mean", '''
x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_mean(x)
tape.gradient(y, x)
'''),
    case("gradients/reduce_max_ties", '''
x = tf.Variable([1.0, 3.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_max(x)
tape.gradient(y, x)
'''),
    case("gradients/gather_indexed_slices_dense", '''
x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.gather(x, [0, 2, 2]))
tf.convert_to_tensor(tape.gradient(y, x))
'''),
    case("gradients/slicing", '''
x = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x[:, 1:] * 3.0)
tape.gradient(y, x)
'''),
    case("gradients/reshape_transpose", '''
x = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
with tf.GradientTape() as tape:
    y = tf.transpose(tf.reshape(x, [2, 3]))
    z = tf.reduce_sum(y * tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
tape.gradient(z, x)
'''),
    case("gradients/concat_split", '''
a = tf.Variable([1.0, 2.0]); b = tf.Variable([3.0])
with tf.GradientTape() as tape:
    c = tf.concat([a, b], 0)
    y = tf.reduce_sum(c * c)
tape.gradient(y, [a, b])
'''),
    case("gradients/cast_float64", '''
x = tf.Variable(2.0, dtype=tf.float64)
with tf.GradientTape() as tape:
    y = x * x * x
tape.gradient(y, x)
'''),
    case("gradients/softmax_cross_entropy", '''
logits = tf.Variable([[2.0, 1.0, 0.1]])
labels = tf.constant([[1.0, 0.0, 0.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
tape.gradient(loss, logits)
''', rtol=1e-5),
    case("gradients/where_select", '''
x = tf.Variable([-2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(tf.where(x > 0, x * x, -x))
tape.gradient(y, x)
'''),
    case("gradients/tape_watched_variables", '''
a = tf.Variable(1.0, name="a"); b = tf.Variable(2.0, name="b"); c = tf.Variable(3.0, trainable=False, name="c")
with tf.GradientTape() as tape:
    y = a * b * c
[v.name for v in tape.watched_variables()]
'''),
    case("gradients/watch_accessed_variables_false", '''
a = tf.Variable(1.0); b = tf.Variable(2.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(a)
    y = a * b
tape.gradient(y, [a, b])
'''),
    case("gradients/jacobian", '''
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * x
tape.jacobian(y, x)
'''),
    case("gradients/stop_recording", '''
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * x
    with tape.stop_recording():
        z = y * x
    w = y + z
tape.gradient(w, x)
'''),
    case("gradients/gradient_of_integer_target", '''
x = tf.constant(2)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
tape.gradient(y, x)
''',
         deliberate="warnings go through Python's logging with no handler of graphfn's, so they print without TF's `WARNING:tensorflow:` prefix"),
    case("gradients/linear_regression_step", '''
w = tf.Variable(0.0); b = tf.Variable(0.0)
xs = tf.constant([1.0, 2.0, 3.0, 4.0]); ys = tf.constant([3.0, 5.0, 7.0, 9.0])
for _ in range(50):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(w * xs + b - ys))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.05 * dw)
    b.assign_sub(0.05 * db)
(round(float(w.numpy()), 3), round(float(b.numpy()), 3), round(float(loss.numpy()), 4))
'''),
    case("gradients/variable_target_is_source", '''
v0 = tf.Variable(2.0); v1 = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    y = v0 * v1
(tape.gradient(v0, [v0, v1]), tape.gradient([v0, y], [v0, v1]), tape.gradient(v1, v1))
'''),
    case("gradients/variable_target_is_source_in_function", '''
v0 = tf.Variable(2.0); v1 = tf.Variable([1.0, 2.0])

@tf.function
def f(v):
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(v, [v, v0]), tape.gradient(v1, v1)

f(v0)
'''),
]
