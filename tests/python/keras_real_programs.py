"""Small Keras 3 programs, run in a subprocess by test_keras_real.py: on graphfn
(`python keras_real_programs.py graphfn`, after graphfn.install_as_tensorflow()) or on the real
TensorFlow (`~/tf/bin/python keras_real_programs.py tensorflow`, how the expected values in
test_keras_real.py were recorded). Prints one JSON object: each program's results, or its error."""

import json
import os
import sys
import traceback

os.environ["KERAS_BACKEND"] = "tensorflow"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
if sys.argv[1] == "graphfn":
    import graphfn

    graphfn.install_as_tensorflow()

import numpy as np  # noqa: E402

import keras  # noqa: E402

keras.config.disable_traceback_filtering()
keras.utils.disable_interactive_logging()
rng = np.random.default_rng(0)
X = rng.normal(size=(64, 4)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5], [3.0]], "float32") + 0.1).astype("float32")
LABELS = (X[:, 0] > 0).astype("int32") + (X[:, 1] > 0).astype("int32")  # classes 0, 1, 2
results = {}


def program(function):
    try:
        results[function.__name__] = function()
    except Exception as e:  # the test reports it
        results[function.__name__] = {"error": "%s: %s" % (type(e).__name__, e), "trace": traceback.format_exc()}
    return function


def mlp(activation="relu", units=1):
    """An MLP with fixed initial weights, so that graphfn and TF start from the same point."""
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation=activation),
                              keras.layers.Dense(units)])
    model.set_weights([np.linspace(-1, 1, 32, dtype="float32").reshape(4, 8), np.full(8, 0.1, "float32"),
                       np.linspace(-0.5, 0.5, 8 * units, dtype="float32").reshape(8, units),
                       np.zeros(units, "float32")])
    return model


@program
def ops():
    x = np.arange(6, dtype="float32").reshape(2, 3)
    return [keras.ops.sum(keras.ops.exp(x) * 2.0, axis=1).numpy().tolist(),
            keras.ops.matmul(x, x.T).numpy().tolist(),
            keras.ops.softmax(x).numpy().tolist(),
            str(keras.ops.convert_to_tensor([1, 2]).dtype.name)]


@program
def dense_call():
    layer = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    out = layer(np.arange(6, dtype="float32").reshape(2, 3))
    return [out.numpy().tolist(), [w.shape for w in layer.get_weights()]]


@program
def mlp_fit():
    model = mlp()
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    history = model.fit(X, Y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    return {"history": history.history, "predict": model.predict(X[:3], verbose=0).tolist(),
            "evaluate": model.evaluate(X, Y, batch_size=32, verbose=0)}


@program
def classifier_fit():
    model = mlp(activation="tanh", units=3)
    model.add(keras.layers.Softmax())
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(X, LABELS, batch_size=32, epochs=3, shuffle=False, verbose=0)
    return {"history": history.history, "predict": model.predict(X[:2], verbose=0).tolist()}


@program
def functional():
    inputs = keras.Input((4,))
    hidden = keras.layers.Dense(3, activation="tanh", kernel_initializer="ones")(inputs)
    outputs = keras.layers.Dense(1, kernel_initializer="ones")(keras.layers.Concatenate()([hidden, inputs]))
    model = keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="mse")
    loss = model.train_on_batch(X[:8], Y[:8])
    return {"loss": float(loss), "predict": model.predict(X[:2], verbose=0).tolist(),
            "layers": [layer.__class__.__name__ for layer in model.layers]}


@program
def mixed_precision():
    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = mlp(activation="linear")
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
        history = model.fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        return {"compute_dtype": model.layers[0].compute_dtype, "variable_dtype": str(model.layers[0].kernel.dtype),
                "predict_dtype": str(model.predict(X[:2], verbose=0).dtype), "history": history.history,
                "optimizer": type(model.optimizer).__name__}
    finally:
        keras.mixed_precision.set_global_policy("float32")


@program
def mixed_bfloat16():
    keras.mixed_precision.set_global_policy("mixed_bfloat16")
    try:
        model = mlp(activation="relu")
        model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
        history = model.fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
        return {"compute_dtype": model.layers[0].compute_dtype, "variable_dtype": str(model.layers[0].kernel.dtype),
                "predict_dtype": str(model.predict(X[:2], verbose=0).dtype), "history": history.history,
                "optimizer": type(model.optimizer).__name__}
    finally:
        keras.mixed_precision.set_global_policy("float32")


@program
def loss_scale_optimizer():
    """An explicit LossScaleOptimizer in a custom float16 training step: the scaled loss, the
    unscaled gradients, a step skipped on an infinite gradient (the scale halves)."""
    import tensorflow as tf

    keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        model = mlp(activation="tanh")
        optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.01), initial_scale=1024.0)
        optimizer.build(model.trainable_variables)

        @tf.function
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = keras.ops.mean((keras.ops.cast(model(x, training=True), "float32") - y) ** 2)
                scaled = optimizer.scale_loss(loss)
            grads = tape.gradient(scaled, model.trainable_variables)
            optimizer.apply(grads, model.trainable_variables)
            return loss

        losses = [float(step(X[i:i + 16], Y[i:i + 16])) for i in range(0, 64, 16)]
        scale_before = float(optimizer.dynamic_scale.numpy())
        step(np.full((16, 4), 1e30, "float32"), Y[:16])  # overflows in float16: the step is skipped
        return {"losses": losses, "scale_before": scale_before, "scale_after": float(optimizer.dynamic_scale.numpy()),
                "iterations": int(optimizer.iterations.numpy()),
                "kernel_sum": float(np.sum(model.layers[0].kernel.numpy()))}
    finally:
        keras.mixed_precision.set_global_policy("float32")


@program
def dataset_fit():
    """fit/evaluate/predict on tf.data datasets: Keras recognizes graphfn's dataset class."""
    import tensorflow as tf

    model = mlp()
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    train = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)
    history = model.fit(train, epochs=3, verbose=0)
    return {"history": history.history, "evaluate": model.evaluate(train, verbose=0),
            "predict": model.predict(tf.data.Dataset.from_tensor_slices(X[:3]).batch(2), verbose=0).tolist()}


print(json.dumps(results))
