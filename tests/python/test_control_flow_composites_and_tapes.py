"""Control flow inside a function around composite tensors and gradient tapes: a RaggedTensor as
a while_loop variable, and a GradientTape entered inside a cond branch or a loop body whose
sources are variables or tensors of the enclosing function (TF supports both; Keras's multi-step
training loop runs its train step there). Expected values recorded from TF 2.21."""

import graphfn as tf


def test_ragged_tensor_as_a_while_loop_variable():
    @tf.function
    def h():
        r = tf.ragged.constant([[1], [2, 3]])
        return tf.while_loop(lambda i, r: i < 2, lambda i, r: (i + 1, r * 2), [0, r])

    i, r = h()
    assert int(i) == 2
    assert isinstance(r, tf.RaggedTensor)
    assert r.to_list() == [[4], [8, 12]]  # TF 2.21


def test_tape_in_a_loop_body_differentiates_a_captured_variable():
    v = tf.Variable(2.0)

    @tf.function
    def f():
        def body(i, acc):
            with tf.GradientTape() as t:
                y = v * v * tf.cast(i + 1, tf.float32)
            return i + 1, acc + t.gradient(y, v)

        return tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])

    i, acc = f()
    assert (int(i), float(acc)) == (3, 24.0)  # TF 2.21


def test_tape_in_a_cond_branch_differentiates_a_captured_variable():
    v = tf.Variable(2.0)

    @tf.function
    def h(x):
        def yes():
            with tf.GradientTape() as t:
                y = v * v * x
            return t.gradient(y, v)

        return tf.cond(x > 0, yes, lambda: 0.0)

    assert float(h(tf.constant(3.0))) == 12.0  # TF 2.21
    assert float(h(tf.constant(-1.0))) == 0.0


def test_tape_in_a_loop_body_watches_an_outer_tensor():
    @tf.function
    def k(x):
        def body(i, acc):
            with tf.GradientTape() as t:
                t.watch(x)
                y = x * x * tf.cast(i + 1, tf.float32)
            return i + 1, acc + t.gradient(y, x)

        return tf.while_loop(lambda i, acc: i < 3, body, [0, 0.0])

    i, acc = k(tf.constant(2.0))
    assert (int(i), float(acc)) == (3, 24.0)  # TF 2.21


def test_keras_style_train_step_in_a_cond_inside_a_loop_updates_variables():
    w = tf.Variable([1.0, -2.0])
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def steps(n):
        def body(i, loss):
            def step():
                with tf.GradientTape() as t:
                    value = tf.reduce_sum(w * w)
                opt.apply_gradients([(t.gradient(value, w), w)])
                return value

            return i + 1, tf.cond(i < n, step, lambda: loss)

        return tf.while_loop(lambda i, loss: i < 3, body, [0, 0.0])[1]

    # TF 2.21: the steps' losses are 5.0, 3.2, 2.048 and the loop returns the last; then one more step.
    assert float(steps(tf.constant(3))) == 2.047999858856201
    assert w.numpy().tolist() == [0.5119999647140503, -1.0239999294281006] and int(opt.iterations) == 3
    assert float(steps(tf.constant(1))) == 1.3107198476791382
    assert w.numpy().tolist() == [0.4095999598503113, -0.8191999197006226] and int(opt.iterations) == 4


def test_tape_in_the_body_of_a_loop_over_a_dataset():
    w = tf.Variable(1.0)
    ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0])

    @tf.function
    def train(ds):
        total = 0.0
        for x in ds:
            with tf.GradientTape() as t:
                loss = (w * x - 1.0) ** 2
            w.assign_sub(0.1 * t.gradient(loss, w))
            total += loss
        return total

    assert float(train(ds)) == 1.6400001049041748  # TF 2.21
    assert float(w.numpy()) == 0.12000000476837158
