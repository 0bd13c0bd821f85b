"""Keras cases run under TensorFlow (make_expected.py records expected_tf.json) and under
graphfn (test_keras_vs_tf.py compares). Each case is fn(tf, data) -> a JSON value (nested
lists of numbers and strings); `data` holds the inputs make_inputs() drew once with NumPy and
that the fixture stores, so both sides see the same numbers. On both sides tf.keras is Keras 3
(on graphfn, the real Keras running on graphfn)."""

import re

import numpy as np

CASES = {}


def case(fn):
    """Registers fn; it runs in a fresh Keras session (automatic names start again at
    "dense"), so each case's names do not depend on the cases run before it."""
    def run(tf, data):
        tf.keras.backend.clear_session()
        return fn(tf, data)
    run.__name__ = fn.__name__
    CASES[fn.__name__] = run
    return run


def make_inputs():
    rng = np.random.default_rng(20240521)
    f32 = lambda a: np.asarray(a, np.float32).tolist()  # noqa: E731
    return {
        # The MLP: 20 features, 32 hidden units, 3 classes, a batch of 16.
        "x": f32(rng.standard_normal((16, 20))),
        "y": rng.integers(0, 3, 16).tolist(),
        "w1": f32(rng.standard_normal((20, 32)) * 0.3),
        "b1": f32(rng.standard_normal(32) * 0.1),
        "w2": f32(rng.standard_normal((32, 3)) * 0.3),
        "b2": f32(rng.standard_normal(3) * 0.1),
        "y_reg": f32(rng.standard_normal((16, 3))),
        # Fit data: 50 samples.
        "fit_x": f32(rng.standard_normal((50, 20))),
        "fit_y": rng.integers(0, 3, 50).tolist(),
        # Small layers and losses.
        "small_x": f32(rng.standard_normal((4, 5)) * 2),
        "small_w": f32(rng.standard_normal((5, 3))),
        "small_b": f32(rng.standard_normal(3)),
        "probs": f32(rng.dirichlet(np.ones(4), 6)),
        "logits": f32(rng.standard_normal((6, 4)) * 3),
        "labels": rng.integers(0, 4, 6).tolist(),
        "weights6": f32(rng.random(6)),
        "reg_true": f32(rng.standard_normal((6, 4))),
        "bin_true": rng.integers(0, 2, (6, 4)).astype(float).tolist(),
        "bin_prob": f32(rng.random((6, 4))),
        "grads": f32(rng.standard_normal((6, 2, 3))),
        "var0": f32(rng.standard_normal((2, 3))),
        "act_x": f32(np.concatenate([np.linspace(-8, 8, 17), [-30.0, -1e-3, 1e-3, 30.0]])),
    }


def _arr(data, key, dtype=np.float32):
    return np.asarray(data[key], dtype)


def _num(t):
    return np.asarray(t).astype(np.float64).tolist()


# Training ------------------------------------------------------------------------------------------


def _mlp(tf, data, output_activation=None, hidden_activation="relu"):
    class MLP(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(32, activation=hidden_activation)
            self.out = tf.keras.layers.Dense(3, activation=output_activation)

        def call(self, x):
            return self.out(self.hidden(x))

    model = MLP()
    model(np.zeros((1, 20), np.float32))
    model.set_weights([_arr(data, k) for k in ("w1", "b1", "w2", "b2")])
    return model


# test_keras_vs_tf.py sets this to run the training cases with `train_step` decorated by
# tf.function: the recorded (eager) TF losses must hold for the traced step too.
TRACE_TRAIN_STEP = False


def _train(tf, data, optimizer, loss_fn, model, y, steps=20):
    """The eager training step of the tutorials; decorating `train_step` with @tf.function is
    the one-line change that traces it."""
    x = tf.constant(_arr(data, "x"))

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    if TRACE_TRAIN_STEP:
        train_step = tf.function(train_step)

    losses = [float(train_step(x, y)) for _ in range(steps)]
    weights = [float(np.sum(np.abs(w))) for w in model.get_weights()]
    return {"losses": losses, "weight_abs_sums": weights, "iterations": int(optimizer.iterations.numpy())}


def _scce_train(tf, data, optimizer, **kwargs):
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    return _train(tf, data, optimizer, loss_fn, _mlp(tf, data), tf.constant(data["y"]), **kwargs)


@case
def train_mlp_sgd_momentum(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9))


@case
def train_mlp_adam(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.Adam(learning_rate=0.01))


@case
def train_mlp_sgd_plain(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.SGD())


@case
def train_mlp_sgd_nesterov(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.5, nesterov=True))


@case
def train_mlp_adam_amsgrad(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.Adam(learning_rate=0.02, beta_1=0.8, amsgrad=True))


@case
def train_mlp_rmsprop(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.RMSprop(learning_rate=0.005))


@case
def train_mlp_rmsprop_centered_momentum(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.RMSprop(learning_rate=0.005, momentum=0.5, centered=True))


@case
def train_mlp_adam_clipnorm_weight_decay(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.Adam(learning_rate=0.01, clipnorm=0.5, weight_decay=0.01))


@case
def train_mlp_sgd_global_clipnorm(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.SGD(learning_rate=0.1, global_clipnorm=1.0))


@case
def train_mlp_sgd_clipvalue(tf, data):
    return _scce_train(tf, data, tf.keras.optimizers.SGD(learning_rate=0.1, clipvalue=0.05))


@case
def train_mlp_softmax_output(tf, data):
    """Probabilities from a softmax layer into SparseCategoricalCrossentropy(): Keras computes
    the loss from the softmax's logits."""
    model = _mlp(tf, data, output_activation="softmax")
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()
    return _train(tf, data, tf.keras.optimizers.Adam(0.05), loss_fn, model, tf.constant(data["y"]))


@case
def train_mlp_mse_tanh(tf, data):
    model = _mlp(tf, data, output_activation="tanh", hidden_activation="sigmoid")
    return _train(tf, data, tf.keras.optimizers.SGD(0.2, momentum=0.8), tf.keras.losses.MeanSquaredError(), model,
                  tf.constant(_arr(data, "y_reg")))


@case
def train_learning_rate_change(tf, data):
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
    first = _scce_train(tf, data, optimizer, steps=3)
    optimizer.learning_rate = 0.5
    return {"first": first, "lr": float(optimizer.learning_rate.numpy())}


@case
def fit_sequential(tf, data):
    model = tf.keras.Sequential([tf.keras.Input(shape=(20,)), tf.keras.layers.Dense(32, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    model.set_weights([_arr(data, k) for k in ("w1", "b1", "w2", "b2")])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    x, y = _arr(data, "fit_x"), np.asarray(data["fit_y"])
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False, validation_split=0.2)
    evaluation = model.evaluate(x, y, batch_size=16, verbose=0)
    prediction = model.predict(x[:3], verbose=0)
    return {"history": {k: v for k, v in sorted(history.history.items())}, "evaluate": evaluation,
            "predict": _num(prediction), "metrics_names": model.metrics_names[:1],
            "epoch": history.epoch, "params": history.params}


@case
def fit_mse_sample_weight(tf, data):
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse")
    x, y = _arr(data, "x"), _arr(data, "y_reg")
    weights = np.linspace(0.0, 1.0, 16).astype(np.float32)
    history = model.fit(x, y, sample_weight=weights, batch_size=5, epochs=2, verbose=0, shuffle=False)
    return {"loss": history.history["loss"], "evaluate": model.evaluate(x, y, verbose=0)}


# Layers and activations -----------------------------------------------------------------------------------


@case
def dense_activations(tf, data):
    out = {}
    for activation in ("relu", "sigmoid", "tanh", "softmax", "linear", None, "elu", "selu", "softplus",
                       "softsign", "silu", "swish", "relu6", "leaky_relu", "hard_sigmoid", "exponential",
                       "log_softmax"):
        layer = tf.keras.layers.Dense(3, activation=activation)
        layer(np.zeros((1, 5), np.float32))
        layer.set_weights([_arr(data, "small_w"), _arr(data, "small_b")])
        out[str(activation)] = _num(layer(tf.constant(_arr(data, "small_x"))))
    return out


@case
def dense_variants(tf, data):
    x3 = _arr(data, "small_x").reshape(2, 2, 5)
    layer = tf.keras.layers.Dense(3, use_bias=False, activation=tf.nn.relu)
    layer(np.zeros((1, 5), np.float32))
    layer.set_weights([_arr(data, "small_w")])
    return {"rank3": _num(layer(tf.constant(x3))), "numpy_float64_input": _num(layer(x3.astype(np.float64))),
            "dtype": layer(x3).dtype.name, "shape": list(layer(x3).shape),
            "n_weights": len(layer.weights), "bias": str(layer.bias),
            "output_shape": list(layer.compute_output_shape((None, 7, 5)))}


@case
def activation_functions(tf, data):
    x = tf.constant(_arr(data, "act_x"))
    a = tf.keras.activations
    out = {}
    for name in ("relu", "sigmoid", "tanh", "linear", "elu", "selu", "softplus", "softsign", "silu", "relu6",
                 "leaky_relu", "hard_sigmoid", "exponential"):
        values = np.asarray(a.get(name)(x))
        out[name] = _num(np.where(np.isfinite(values), values, 0.0))
    out["softmax"] = _num(a.softmax(tf.reshape(x[:20], (4, 5))))
    out["relu_params"] = _num(a.relu(x, negative_slope=0.1, max_value=5.0, threshold=1.0))
    out["relu_threshold"] = _num(a.relu(x, threshold=2.0))
    out["relu_max"] = _num(a.relu(x, max_value=6.0))
    out["leaky"] = _num(a.leaky_relu(x, negative_slope=0.3))
    out["elu_alpha"] = _num(a.elu(x, alpha=0.5))
    return out


@case
def activation_gradients(tf, data):
    x = tf.constant(_arr(data, "act_x")[:17])
    out = {}
    for name in ("relu", "sigmoid", "tanh", "elu", "selu", "softplus", "softsign", "silu", "relu6", "leaky_relu"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.keras.activations.get(name)(x) * tf.range(17, dtype=tf.float32))
        out[name] = _num(tape.gradient(y, x))
    return out


# Losses ------------------------------------------------------------------------------------------------


@case
def losses_values(tf, data):
    L = tf.keras.losses
    probs, logits, labels = _arr(data, "probs"), _arr(data, "logits"), np.asarray(data["labels"])
    w = _arr(data, "weights6")
    onehot = np.eye(4, dtype=np.float32)[labels]
    reg_true = _arr(data, "reg_true")
    bin_true, bin_prob = _arr(data, "bin_true"), _arr(data, "bin_prob")
    out = {
        "mse": L.MeanSquaredError()(reg_true, logits),
        "mse_fn": L.MSE(reg_true, logits),
        "mse_weighted": L.MeanSquaredError()(reg_true, logits, sample_weight=w),
        "mse_sum": L.MeanSquaredError(reduction="sum")(reg_true, logits),
        "mse_none": L.MeanSquaredError(reduction=None)(reg_true, logits),
        "mse_mean_sw": L.MeanSquaredError(reduction="mean_with_sample_weight")(reg_true, logits, sample_weight=w),
        "mae": L.MeanAbsoluteError()(reg_true, logits),
        "mae_fn": L.MAE(reg_true, logits),
        "scce_probs": L.SparseCategoricalCrossentropy()(labels, probs),
        "scce_logits": L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits),
        "scce_fn": L.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(probs)),
        "scce_fn_logits": L.sparse_categorical_crossentropy(tf.constant(labels), tf.constant(logits),
                                                            from_logits=True),
        "scce_column_labels": L.SparseCategoricalCrossentropy(from_logits=True)(labels[:, None], logits),
        "scce_weighted": L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits, sample_weight=w),
        "scce_ignore": L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=1)(labels, logits),
        "scce_saturated": L.SparseCategoricalCrossentropy()(np.array([0, 1]), np.array([[1.0, 0.0], [1.0, 0.0]], np.float32)),
        "cce_probs": L.CategoricalCrossentropy()(onehot, probs),
        "cce_logits": L.CategoricalCrossentropy(from_logits=True)(onehot, logits),
        "cce_smoothing": L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)(onehot, logits),
        "cce_fn": L.categorical_crossentropy(tf.constant(onehot), tf.constant(probs * 2.0)),
        "bce": L.BinaryCrossentropy()(bin_true, bin_prob),
        "bce_logits": L.BinaryCrossentropy(from_logits=True)(bin_true, logits),
        "bce_smoothing": L.BinaryCrossentropy(label_smoothing=0.2)(bin_true, bin_prob),
        "bce_fn": L.binary_crossentropy(tf.constant(bin_true), tf.constant(bin_prob)),
        "softmax_layer_into_scce": L.SparseCategoricalCrossentropy()(
            labels, tf.keras.layers.Activation("softmax")(tf.constant(logits * 20.0))),
        "sigmoid_into_bce": L.BinaryCrossentropy()(bin_true, tf.keras.activations.sigmoid(tf.constant(logits * 20.0))),
    }
    return {k: _num(v) for k, v in out.items()}


@case
def loss_gradients(tf, data):
    logits = tf.constant(_arr(data, "logits"))
    labels = tf.constant(data["labels"])
    out = {}
    for name, fn in (("scce_logits", lambda p: tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, p)),
                     ("scce_softmax", lambda p: tf.keras.losses.SparseCategoricalCrossentropy()(
                         labels, tf.keras.activations.softmax(p))),
                     ("scce_probs", lambda p: tf.keras.losses.SparseCategoricalCrossentropy()(labels, tf.nn.softmax(p))),
                     ("mse", lambda p: tf.keras.losses.MeanSquaredError()(tf.constant(_arr(data, "reg_true")), p))):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = fn(logits)
        out[name] = _num(tape.gradient(loss, logits))
    return out


@case
def loss_reprs(tf, data):
    L = tf.keras.losses
    losses = [L.MeanSquaredError(), L.SparseCategoricalCrossentropy(from_logits=True), L.MeanAbsoluteError(),
              L.CategoricalCrossentropy(), L.BinaryCrossentropy(label_smoothing=0.1)]
    return [[loss.name, loss.reduction, str(sorted(loss.get_config().items()))] for loss in losses]


# Metrics ----------------------------------------------------------------------------------------------


@case
def metrics_values(tf, data):
    M = tf.keras.metrics
    probs, labels, w = _arr(data, "probs"), np.asarray(data["labels"]), _arr(data, "weights6")
    out = {}
    mean = M.Mean()
    mean.update_state([1.0, 2.0, 4.0])
    mean.update_state(_arr(data, "reg_true"), sample_weight=w)
    out["mean"] = [float(mean.result()), float(mean.total.numpy()), float(mean.count.numpy())]
    mean.reset_state()
    out["mean_reset"] = float(mean.result())
    total = M.Sum()
    total.update_state(_arr(data, "reg_true"))
    out["sum"] = float(total.result())
    acc = M.SparseCategoricalAccuracy()
    acc.update_state(labels, probs)
    acc.update_state(labels[:, None], probs, sample_weight=w)
    out["sparse_categorical_accuracy"] = float(acc.result())
    cat = M.CategoricalAccuracy()
    cat.update_state(np.eye(4, dtype=np.float32)[labels], probs)
    out["categorical_accuracy"] = float(cat.result())
    binary = M.BinaryAccuracy(threshold=0.4)
    binary.update_state(_arr(data, "bin_true"), _arr(data, "bin_prob"))
    out["binary_accuracy"] = float(binary.result())
    plain = M.Accuracy()
    plain.update_state([1, 2, 3, 4], [1, 2, 0, 4])
    out["accuracy"] = float(plain.result())
    mse = M.MeanSquaredError()
    out["mse_call"] = float(mse(_arr(data, "reg_true"), _arr(data, "logits")))
    out["reprs"] = [repr(m) for m in (M.Mean(), acc, M.Mean(name="loss_tracker"))]
    out["variable_paths"] = [v.path for v in acc.variables]
    return out


# Optimizers on fixed gradients --------------------------------------------------------------------------


def _optimizer_run(tf, data, optimizer, in_function=False):
    var = tf.Variable(_arr(data, "var0"))
    grads = _arr(data, "grads")

    def apply(g):
        optimizer.apply_gradients([(g, var)])

    step = tf.function(apply) if in_function else apply
    for g in grads:
        step(tf.constant(g))
    return {"var": _num(var.numpy()), "slots": [_num(v.numpy()) for v in optimizer.variables[2:]],
            "iterations": int(optimizer.iterations.numpy())}


@case
def optimizers_fixed_gradients(tf, data):
    O = tf.keras.optimizers
    configs = {
        "sgd": lambda: O.SGD(learning_rate=0.1),
        "sgd_momentum": lambda: O.SGD(learning_rate=0.1, momentum=0.9),
        "sgd_nesterov": lambda: O.SGD(learning_rate=0.1, momentum=0.9, nesterov=True),
        "adam": lambda: O.Adam(learning_rate=0.1),
        "adam_eps": lambda: O.Adam(learning_rate=0.1, epsilon=0.1, beta_2=0.9),
        "adam_amsgrad": lambda: O.Adam(learning_rate=0.1, amsgrad=True),
        "rmsprop": lambda: O.RMSprop(learning_rate=0.1),
        "rmsprop_centered": lambda: O.RMSprop(learning_rate=0.1, momentum=0.9, centered=True),
        "sgd_weight_decay": lambda: O.SGD(learning_rate=0.1, weight_decay=0.5),
        "sgd_clipnorm": lambda: O.SGD(learning_rate=0.1, clipnorm=0.3),
    }
    out = {}
    for name, make in configs.items():
        out[name] = _optimizer_run(tf, data, make())
        out[name + "_in_function"] = _optimizer_run(tf, data, make(), in_function=True)
    return out


# Names, paths and reprs -------------------------------------------------------------------------------------


@case
def names_and_reprs(tf, data):
    out = []
    d1, d2, d3 = tf.keras.layers.Dense(2), tf.keras.layers.Dense(2, name="head"), tf.keras.layers.Dense(2)
    out.append([d1.name, d2.name, d3.name, repr(d1)])
    d1(np.ones((1, 3), np.float32))
    d1.set_weights([np.ones((3, 2), np.float32), np.zeros(2, np.float32)])
    out.append([repr(d1), repr(d1.kernel), repr(d1.bias), d1.kernel.name, d1.kernel.path])

    class TwoLayers(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.first = tf.keras.layers.Dense(4, kernel_initializer="ones")
            self.blocks = [tf.keras.layers.Dense(2, kernel_initializer="zeros")]

        def call(self, x):
            return self.blocks[0](self.first(x))

    model = TwoLayers()
    out.append([model.name, repr(model), model.built])
    model(np.ones((2, 3), np.float32))
    out.append([model.built, [v.path for v in model.weights], [v.path for v in model.trainable_variables],
                [repr(layer) for layer in model.layers]])
    seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
    seq(np.ones((1, 3), np.float32))
    out.append([seq.name, [v.path for v in seq.weights], repr(seq)])
    opt = tf.keras.optimizers.Adam()
    opt.apply_gradients(zip([tf.zeros_like(v) for v in model.trainable_variables], model.trainable_variables))
    sgd = tf.keras.optimizers.SGD(momentum=0.5)
    plain = tf.Variable([1.0])
    sgd.apply_gradients([(tf.constant([1.0]), plain)])
    out.append([opt.name, sgd.name, [v.path for v in opt.variables], [v.path for v in sgd.variables],
                repr(opt.iterations), repr(opt.learning_rate)])
    mean = tf.keras.metrics.Mean()
    out.append([repr(mean), [v.path for v in mean.variables]])
    variables = [tf.keras.Variable(np.zeros((2, 2), np.float32)), tf.keras.Variable(3.5), tf.keras.Variable(7),
                 tf.keras.Variable(np.arange(4.0)), tf.keras.Variable([True, False], name="flags")]
    out.append([repr(v) for v in variables])
    out.append([v.dtype.name if hasattr(v.dtype, "name") else str(v.dtype) for v in variables])
    return out


@case
def layer_tracking(tf, data):
    class Inner(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.frozen = self.add_weight(shape=(), initializer="ones", trainable=False, name="frozen")
            self.w = self.add_weight(shape=(input_shape[-1], 2), initializer="ones", name="w")

        def call(self, x):
            return tf.matmul(x, self.w) * self.frozen

    class Outer(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.stack = {"b": Inner(), "a": tf.keras.layers.Dense(3, kernel_initializer="ones")}
            self.scale = tf.keras.Variable(2.0, name="scale")

        def call(self, x):
            return self.stack["b"](self.stack["a"](x)) * self.scale

    outer = Outer()
    y = outer(np.ones((1, 4), np.float32))
    out = {"y": _num(y), "weights": [v.path for v in outer.weights],
           "trainable": [v.path for v in outer.trainable_weights],
           "non_trainable": [v.path for v in outer.non_trainable_weights], "count": outer.count_params()}
    outer.trainable = False
    out["frozen_trainable"] = [v.path for v in outer.trainable_weights]
    out["frozen_flags"] = [v.trainable for v in outer.weights]
    return out


@case
def summaries(tf, data):
    lines = []
    seq = tf.keras.Sequential([tf.keras.Input(shape=(784,)), tf.keras.layers.Dense(512, activation="relu"),
                               tf.keras.layers.Dropout(0.2), tf.keras.layers.Dense(10)], name="my_model")
    seq.summary(print_fn=lambda text, *args, **kwargs: lines.append(text))
    mlp = _mlp(tf, data)
    mlp.summary(print_fn=lambda text, *args, **kwargs: lines.append(text))
    mlp.compile(optimizer="adam", loss="mse")
    mlp.fit(_arr(data, "x"), _arr(data, "y_reg"), verbose=0)
    mlp.summary(print_fn=lambda text, *args, **kwargs: lines.append(text))
    return lines


# Errors ----------------------------------------------------------------------------------------------


def _normalised(message):
    """Object reprs ("<module.Class object at 0x...>") and the order of printed sets vary."""
    message = re.sub(r"<[\w.]+ object at 0x[0-9a-f]+>", "<object>", message)
    return re.sub(r"\{('[^{}]*')\}", lambda m: "{%s}" % ", ".join(sorted(m.group(1).split(", "))), message)


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (the case records the type and message)
        return [type(e).__name__, _normalised(str(e))]
    return None


@case
def errors(tf, data):
    built = tf.keras.layers.Dense(2)
    built(np.ones((1, 3), np.float32))
    optimizer = tf.keras.optimizers.SGD()
    v, w = tf.Variable([1.0]), tf.Variable([2.0])
    optimizer.apply_gradients([(tf.constant([1.0]), v)])
    checks = {
        "units": lambda: tf.keras.layers.Dense(0),
        "activation": lambda: tf.keras.layers.Dense(2, activation="nope"),
        "min_ndim": lambda: tf.keras.layers.Dense(2)(tf.ones((3,))),
        "last_axis": lambda: built(tf.ones((1, 4))),
        "kernel_unbuilt": lambda: tf.keras.layers.Dense(2).kernel,
        "count_params_unbuilt": lambda: tf.keras.layers.Dense(2).count_params(),
        "set_weights_count": lambda: built.set_weights([np.ones((3, 2))]),
        "set_weights_shape": lambda: built.set_weights([np.ones((2, 2)), np.ones(2)]),
        "variable_shape": lambda: tf.keras.Variable(tf.keras.initializers.Ones()),
        "variable_name": lambda: tf.keras.Variable(1.0, name="a/b"),
        "momentum": lambda: tf.keras.optimizers.SGD(momentum=2.0),
        "learning_rate_int": lambda: tf.keras.optimizers.SGD(learning_rate=1),
        "two_clips": lambda: tf.keras.optimizers.Adam(clipnorm=1.0, clipvalue=1.0),
        "unknown_variable": lambda: optimizer.apply_gradients([(tf.constant([1.0]), w)]),
        "no_gradients": lambda: tf.keras.optimizers.Adam().apply_gradients([(None, v)]),
        "unknown_kwarg": lambda: tf.keras.optimizers.Adam(foo=1),
        "layer_kwarg": lambda: tf.keras.layers.Dense(2, foo=1),
        "activation_get": lambda: tf.keras.activations.get("nope"),
        "sequential_add": lambda: tf.keras.Sequential([tf.keras.layers.Dense(2), "dense"]),
        "scce_rank": lambda: tf.keras.losses.sparse_categorical_crossentropy(tf.constant([[[0]]]), tf.ones((2, 3))),
        "scce_shape": lambda: tf.keras.losses.sparse_categorical_crossentropy(tf.constant([0, 1, 2]), tf.ones((2, 3))),
        "cce_shape": lambda: tf.keras.losses.categorical_crossentropy(tf.ones((2, 4)), tf.ones((2, 3))),
        "cce_rank": lambda: tf.keras.losses.categorical_crossentropy(tf.ones((2,)), tf.ones((2, 3))),
        "dropout_rate": lambda: tf.keras.layers.Dropout(1.5),
        "get_layer": lambda: tf.keras.Sequential([tf.keras.layers.Dense(2, name="a")]).get_layer("b"),
        "fit_uncompiled": lambda: tf.keras.Sequential([tf.keras.layers.Dense(2)]).fit(np.ones((2, 3)), np.ones((2, 2))),
        "variance_scaling_mode": lambda: tf.keras.initializers.VarianceScaling(mode="fan"),
        "variance_scaling_scale": lambda: tf.keras.initializers.VarianceScaling(scale=-1.0),
    }
    return {name: _error(check) for name, check in checks.items()}
