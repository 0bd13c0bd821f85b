"""A TensorFlow 1.x-style program on graphfn: build a graph by hand, run it with a session.

    python examples/tf1_graph_session.py

Fits y = 3x + 0.5 by gradient descent. The parameters live in NumPy and are fed on each step:
the graph (loss and its gradient) is built once and each `sess.run` with the same feeds and
fetches reuses the plan compiled the first time (docs/graphs.md)."""

import numpy as np

import graphfn as tf

tf1 = tf.compat.v1


def build_graph():
    """The loss of a line w[0] * x + w[1] against y, and its gradient with respect to w."""
    graph = tf.Graph()
    with graph.as_default():
        x = tf1.placeholder(tf.float32, shape=[None], name="x")
        y = tf1.placeholder(tf.float32, shape=[None], name="y")
        w = tf1.placeholder(tf.float32, shape=[2], name="w")
        loss = tf.reduce_mean(tf.square(w[0] * x + w[1] - y), name="loss")
        (gradient,) = tf.gradients(loss, [w])
    return graph, gradient


def fit(steps=200, learning_rate=0.5):
    graph, gradient = build_graph()
    xs = np.linspace(-1, 1, 50).astype(np.float32)
    ys = 3 * xs + 0.5
    params = np.zeros(2, np.float32)
    with tf1.Session(graph=graph) as sess:
        feeds = {"x:0": xs, "y:0": ys}
        for _ in range(steps):
            loss, grad = sess.run(["loss:0", gradient], {**feeds, "w:0": params})
            params -= learning_rate * grad
    return loss, params


if __name__ == "__main__":
    loss, params = fit()
    print("loss %.3g, w = %s" % (loss, params))  # TF 2.21: loss 2.34e-14, w = [2.9999998 0.5      ]
