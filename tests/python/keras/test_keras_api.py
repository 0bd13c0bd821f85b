"""tf.keras (the real Keras 3 on graphfn) behaviour that needs no recorded values: initializer
distributions and seeding, building, tracking, the `training` argument, warnings, Sequential,
the functional API, keras inside graphfn.function. Every test also passes on TensorFlow 2.21 +
Keras 3.15 (run with a `graphfn` module that is `tensorflow`)."""

import math
import re
import warnings

import numpy as np
import pytest

import graphfn as tf

keras = tf.keras


# Initializers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, limit", [("glorot_uniform", math.sqrt(6 / (20 + 30))),
                                         ("he_uniform", math.sqrt(6 / 20)), ("lecun_uniform", math.sqrt(3 / 20))])
def test_uniform_variance_scaling_limits(name, limit):
    values = keras.initializers.get(name)(shape=(20, 30)).numpy()
    assert values.dtype == np.float32 and values.shape == (20, 30)
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.9 * limit
    assert abs(values.std() - limit / math.sqrt(3)) < 0.1 * limit


@pytest.mark.parametrize("name, stddev", [("glorot_normal", math.sqrt(2 / 50)), ("he_normal", math.sqrt(2 / 20)),
                                          ("lecun_normal", math.sqrt(1 / 20))])
def test_truncated_normal_variance_scaling(name, stddev):
    values = keras.initializers.get(name)(shape=(20, 30)).numpy()
    # Truncated at two standard deviations of the untruncated normal (stddev / 0.8796...).
    assert np.abs(values).max() <= 2 * stddev / 0.87962566103423978
    assert abs(values.std() - stddev) < 0.1 * stddev


def test_random_normal_uniform_and_constants():
    normal = keras.initializers.RandomNormal(mean=1.0, stddev=0.5, seed=3)(shape=(4000,)).numpy()
    assert abs(normal.mean() - 1.0) < 0.05 and abs(normal.std() - 0.5) < 0.05
    uniform = keras.initializers.RandomUniform(-2.0, -1.0, seed=3)(shape=(1000,), dtype="float64").numpy()
    assert uniform.dtype == np.float64 and uniform.min() >= -2.0 and uniform.max() < -1.0
    truncated = keras.initializers.TruncatedNormal(stddev=0.1, seed=1)(shape=(1000,)).numpy()
    assert np.abs(truncated).max() <= 0.2
    assert keras.initializers.Zeros()(shape=(2, 2), dtype="int32").numpy().tolist() == [[0, 0], [0, 0]]
    assert keras.initializers.Ones()(shape=(3,)).numpy().tolist() == [1.0, 1.0, 1.0]
    assert keras.initializers.Constant(2.5)(shape=(2,)).numpy().tolist() == [2.5, 2.5]
    assert keras.initializers.Constant([1.0, 2.0])(shape=(2, 2)).numpy().tolist() == [[1.0, 2.0], [1.0, 2.0]]


def test_initializers_repeat_their_values():
    """As in Keras 3: one instance (seeded or not) gives the same values on every call; two
    instances with one seed agree; unseeded instances differ."""
    unseeded = keras.initializers.GlorotUniform()
    np.testing.assert_array_equal(unseeded(shape=(3, 3)).numpy(), unseeded(shape=(3, 3)).numpy())
    np.testing.assert_array_equal(keras.initializers.GlorotUniform(seed=7)(shape=(3, 3)).numpy(),
                                  keras.initializers.GlorotUniform(seed=7)(shape=(3, 3)).numpy())
    assert not np.array_equal(keras.initializers.GlorotUniform()(shape=(3, 3)).numpy(),
                              keras.initializers.GlorotUniform()(shape=(3, 3)).numpy())
    assert keras.initializers.GlorotUniform(seed=1).get_config() == {"seed": 1, "input_axes": None,
                                                                      "output_axes": None}


def test_set_random_seed_makes_layers_reproducible():
    def kernel():
        keras.utils.set_random_seed(42)
        layer = keras.layers.Dense(4)
        layer(np.ones((1, 3), np.float32))
        return layer.kernel.numpy()
    np.testing.assert_array_equal(kernel(), kernel())


def test_initializer_get():
    assert isinstance(keras.initializers.get("GlorotUniform"), keras.initializers.GlorotUniform)
    assert isinstance(keras.initializers.get({"class_name": "RandomNormal", "config": {"stddev": 2.0}}),
                      keras.initializers.RandomNormal)
    assert keras.initializers.get(None) is None
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: nope"):
        keras.initializers.get("nope")


# Layers -------------------------------------------------------------------------------------------


def test_dense_builds_on_first_call():
    keras.backend.clear_session()
    layer = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer=keras.initializers.Constant(0.5))
    assert not layer.built and layer.weights == []
    y = layer(np.ones((2, 4), np.float32))
    assert layer.built and [v.path for v in layer.weights] == ["dense/kernel", "dense/bias"]
    assert y.numpy().tolist() == [[4.5, 4.5, 4.5]] * 2
    assert layer.count_params() == 15


def test_explicit_build_and_add_weight():
    class Scale(keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, x):
            return x * self.w

    layer = Scale(name="scale")
    layer.build((None, 3))
    assert layer.built and layer.w.path == "scale/w" and layer.w.shape.as_list() == [3]
    assert layer(tf.constant([[1.0, 2.0, 3.0]])).numpy().tolist() == [[1.0, 2.0, 3.0]]


def test_inputs_are_converted_and_cast():
    layer = keras.layers.Dense(2, kernel_initializer="ones")
    assert layer(np.ones((1, 3))).dtype == tf.float32
    assert layer(tf.ones((1, 3), tf.float64)).dtype == tf.float32
    assert layer(tf.ones((1, 3), tf.int32)).numpy().tolist() == [[3.0, 3.0]]


def test_variables_in_lists_added_later_are_tracked():
    class Holder(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.parts = []

        def call(self, x):
            return x

    holder = Holder()
    holder.parts.append(keras.layers.Dense(2))
    holder.parts[0](np.ones((1, 2), np.float32))
    holder.extra = [keras.Variable(1.0, name="extra", trainable=False)]
    assert [v.name for v in holder.weights] == ["extra", "kernel", "bias"]
    assert [v.name for v in holder.non_trainable_weights] == ["extra"]
    assert holder._layers == [holder.parts[0]]


def test_plain_graphfn_variables_are_not_layer_weights():
    class WithVariable(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

    assert WithVariable().weights == []  # as in Keras 3: only keras.Variable is tracked


def test_training_argument_flows_to_inner_layers():
    """The value each call sees: Keras first runs call() once symbolically, with None, to build
    a model whose layers are unbuilt, then the real call (TF 2.21 gives the same list)."""
    seen = []

    class Probe(keras.layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(keras.Model):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, x, training=False):
            return self.probe(x)

    class NoTraining(keras.Model):
        def __init__(self):
            super().__init__()
            self.probe = Probe()

        def call(self, x):
            return self.probe(x)

    x = tf.ones((1, 2))
    Outer()(x, training=True)
    Outer()(x)
    NoTraining()(x, training=True)
    Probe()(x)
    assert seen == [None, True, None, False, None, True, None]


def test_dropout():
    layer = keras.layers.Dropout(0.5, seed=1)
    x = tf.ones((100, 100))
    assert layer(x).numpy().tolist() == x.numpy().tolist()
    dropped = layer(x, training=True).numpy()
    assert set(np.unique(dropped).tolist()) == {0.0, 2.0}
    assert 0.4 < (dropped == 0).mean() < 0.6


def test_activation_and_flatten_layers():
    assert keras.layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy().tolist() == [0.0, 2.0]
    flat = keras.layers.Flatten()(tf.ones((2, 3, 4)))
    assert flat.shape.as_list() == [2, 12]


def test_trainable_false_freezes_weights():
    layer = keras.layers.Dense(2)
    layer(np.ones((1, 3), np.float32))
    layer.trainable = False
    assert layer.trainable_weights == [] and len(layer.non_trainable_weights) == 2
    assert not layer.kernel.trainable
    with tf.GradientTape() as tape:  # as in TF, the tape still watches the variable
        y = tf.reduce_sum(layer(tf.ones((1, 3))))
    assert tape.gradient(y, layer.kernel).numpy().tolist() == [[1.0, 1.0]] * 3


# Warnings ------------------------------------------------------------------------------------------


def test_unbuilt_sublayer_warning():
    class Unused(keras.Model):
        def __init__(self):
            super().__init__(name="unused")
            self.used = keras.layers.Dense(1)
            self.unused = keras.layers.Dense(1)

        def call(self, x):
            return self.used(x)

    model = Unused()
    with pytest.warns(UserWarning, match="`build\\(\\)` was called on layer 'unused', however the layer does not have "
                      "a `build\\(\\)` method implemented and it looks like it has unbuilt state."):
        model(np.ones((1, 2), np.float32))


def test_input_shape_argument_warns():
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`/`input_dim` argument to a layer."):
        model = keras.Sequential([keras.layers.Dense(2, input_shape=(3,))])
    assert model.built and model.layers[0].kernel.shape.as_list() == [3, 2]


def test_missing_gradients_warn():
    a, b = keras.Variable(1.0, name="a"), keras.Variable(2.0, name="b")
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['a'\] when minimizing the loss."):
        keras.optimizers.SGD().apply_gradients([(None, a), (tf.constant(1.0), b)])


# Models ------------------------------------------------------------------------------------------------


def test_sequential_add_pop_and_build():
    keras.backend.clear_session()
    model = keras.Sequential(name="stack")
    model.add(keras.layers.Dense(4))
    model.add(keras.layers.Dense(2))
    assert not model.built
    model.build((None, 3))
    assert model.built and [v.path for v in model.weights][:1] == ["stack/dense/kernel"]
    assert model.compute_output_shape((None, 3)) == (None, 2)
    popped = model.pop()
    assert popped.name == "dense_1" and len(model.layers) == 1
    with pytest.raises(ValueError, match="has already been configured to use input shape"):
        model.add(keras.layers.InputLayer(shape=(3,)))


def test_sequential_with_input_builds_at_once():
    model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(3)])
    assert model.built and model.layers[0].kernel.shape.as_list() == [5, 3]
    assert repr(keras.Input(shape=(5,), name="x")).startswith("<KerasTensor shape=(None, 5), dtype=float32")


def test_functional_api():
    inputs = keras.Input(shape=(2,))
    hidden = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")(inputs)
    outputs = keras.layers.Dense(1, kernel_initializer="ones")(keras.layers.Concatenate()([hidden, inputs]))
    model = keras.Model(inputs, outputs)
    assert [layer.__class__.__name__ for layer in model.layers] == ["InputLayer", "Dense", "Concatenate", "Dense"]
    assert model(np.array([[1.0, 2.0]], np.float32)).numpy().tolist() == [[12.0]]


def test_get_layer_and_layers():
    model = keras.Sequential([keras.layers.Dense(2, name="a"), keras.layers.Dense(1, name="b")])
    assert model.get_layer("b") is model.layers[1] and model.get_layer(index=0) is model.layers[0]


def test_model_with_function_call():
    """The seed tutorial's model: call decorated with graphfn.function, Python `if` on a tensor."""
    class CustomModel(keras.models.Model):
        @tf.function
        def call(self, input_data):
            if tf.reduce_mean(input_data) > 0:
                return input_data
            else:
                return input_data // 2

    model = CustomModel()
    assert model(tf.constant([1.0, 3.0])).numpy().tolist() == [1.0, 3.0]
    assert model(tf.constant([-3.0, -5.0])).numpy().tolist() == [-2.0, -3.0]


def test_layers_losses_and_metrics_inside_functions():
    layer = keras.layers.Dense(2, kernel_initializer="ones", activation="relu")
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    accuracy = keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def step(x, y):
        logits = layer(x)
        accuracy.update_state(y, logits)
        return loss(y, logits)

    value = step(tf.constant([[1.0, -2.0]]), tf.constant([0]))
    assert [v.path for v in layer.weights] == [layer.name + "/kernel", layer.name + "/bias"]
    np.testing.assert_allclose(value.numpy(), math.log(2.0), rtol=1e-6)
    assert float(accuracy.result()) == 1.0


def test_summary_of_an_unbuilt_model(capsys):
    keras.backend.clear_session()
    keras.Sequential([keras.layers.Dense(2)]).summary()
    text = capsys.readouterr().out
    assert "\u2502 dense (Dense)                   \u2502 ?                      \u2502   0 (unbuilt) \u2502" in text
    assert text.endswith(" Non-trainable params: 0 (0.00 B)\n")


def test_fit_prints_keras_epoch_lines(capsys):
    model = keras.Sequential([keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    history = model.fit(np.ones((8, 2), np.float32), np.ones((8, 1), np.float32), batch_size=4, epochs=2,
                        verbose=2)
    lines = capsys.readouterr().out.splitlines()
    # TF 2.21 prints "2/2 - 1s - 375ms/step - loss: 0.5800 - mae: 0.7000" (times vary).
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2"
    assert re.match(r"2/2 - \d+s - \d+(s|ms|us)/step", lines[1]) and lines[1].endswith("/step - loss: 0.5800 - mae: 0.7000")
    assert lines[3].endswith("/step - loss: 0.0148 - mae: 0.1120")
    assert sorted(history.history) == ["loss", "mae"]


def test_optimizer_learning_rate_and_iterations():
    optimizer = keras.optimizers.Adam(learning_rate=0.5)
    assert float(optimizer.learning_rate.numpy()) == 0.5 and optimizer.iterations.dtype == tf.int64
    optimizer.learning_rate = 0.25
    assert float(optimizer.learning_rate.numpy()) == 0.25
    assert isinstance(keras.optimizers.get("adam"), keras.optimizers.Adam)
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier"):
        keras.optimizers.get("nope")


def test_loss_and_metric_lookup():
    assert keras.losses.get("mse") is keras.losses.MSE
    assert isinstance(keras.losses.get("MeanSquaredError"), keras.losses.MeanSquaredError)
    assert keras.losses.MSE is keras.losses.mse
    assert isinstance(keras.metrics.get("sparse_categorical_accuracy"), keras.metrics.SparseCategoricalAccuracy)
    with pytest.raises(ValueError, match="Could not interpret metric identifier: acc"):
        keras.metrics.get("acc")  # "acc" means accuracy only in compile()
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        keras.losses.MeanSquaredError(reduction="average")


def test_no_warnings_on_a_plain_training_step():
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2)])
    optimizer = keras.optimizers.Adam()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(tf.ones((1, 3))))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    assert int(optimizer.iterations.numpy()) == 1
