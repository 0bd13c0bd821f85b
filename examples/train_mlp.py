"""Trains a small MLP classifier with tf.keras (the real Keras 3 on graphfn: pip install graphfn[keras])
and prints the falling loss.

    PYTHONPATH=python python3 examples/train_mlp.py            # the custom training loop
    PYTHONPATH=python python3 examples/train_mlp.py --fit      # the same model with compile/fit

The data: 3 Gaussian clusters in 20 dimensions. The model: Dense(32, relu) -> Dense(3)
logits, trained with Adam on SparseCategoricalCrossentropy(from_logits=True). The script also
runs unchanged with `import tensorflow as tf` (with graphfn it needs no TensorFlow)."""

import argparse

import numpy as np

import graphfn as tf


def make_data(n=512, features=20, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((classes, features)) * 0.3
    labels = rng.integers(0, classes, n)
    x = centers[labels] + rng.standard_normal((n, features))
    return x.astype(np.float32), labels.astype(np.int32)


class MLP(tf.keras.Model):
    def __init__(self, hidden=32, classes=3):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(hidden, activation="relu")
        self.logits = tf.keras.layers.Dense(classes)

    def call(self, x):
        return self.logits(self.hidden(x))


def train_loop(model, x, y, epochs, batch_size):
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.003)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    mean_loss = tf.keras.metrics.Mean()

    # Eager; decorate with @tf.function to trace it once GradientTape works inside functions.
    def train_step(xb, yb):
        with tf.GradientTape() as tape:
            logits = model(xb, training=True)
            loss = loss_fn(yb, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        mean_loss.update_state(loss)
        accuracy.update_state(yb, logits)

    for epoch in range(epochs):
        mean_loss.reset_state()
        accuracy.reset_state()
        for start in range(0, len(x), batch_size):
            train_step(tf.constant(x[start:start + batch_size]), tf.constant(y[start:start + batch_size]))
        print("epoch %2d  loss %.4f  accuracy %.4f" % (epoch + 1, float(mean_loss.result()),
                                                       float(accuracy.result())))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="train with compile/fit instead of a custom loop")
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    tf.keras.utils.set_random_seed(1)
    x, y = make_data()
    model = MLP()
    if args.fit:
        model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.003),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
        model.fit(x, y, batch_size=32, epochs=args.epochs, verbose=2)
    else:
        train_loop(model, x, y, args.epochs, batch_size=32)
    model.summary()


if __name__ == "__main__":
    main()
