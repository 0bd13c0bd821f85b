"""tf.keras (the real Keras 3 on graphfn) fit / evaluate / predict on tf.data datasets, against TF 2.21's Keras 3 (values
recorded with ~/tf/bin/python: the same model, data and calls)."""

import re
import warnings

import numpy as np
import pytest

import graphfn as tf

keras = tf.keras
D = tf.data.Dataset

X = np.arange(24, dtype=np.float32).reshape(12, 2) / 10.0
Y = (X[:, :1] * 2.0 - X[:, 1:] + 0.5).astype(np.float32)
W = np.linspace(0.5, 1.5, 12).astype(np.float32)

THREE_EPOCHS = {"loss": [0.675239, 0.090363, 0.080485], "mae": [0.705603, 0.257872, 0.243293]}


def model(**compile_args):
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                bias_initializer="zeros")])
    compile_args.setdefault("metrics", ["mae"])
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", **compile_args)
    return m


def rounded(history):
    return {k: [round(float(v), 6) for v in vs] for k, vs in history.history.items()}


def batches(*arrays, size=4):
    return D.from_tensor_slices(arrays if len(arrays) > 1 else arrays[0]).batch(size)


@pytest.fixture(autouse=True)
def quiet_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_fit_on_a_dataset_matches_tensorflow_and_fit_on_arrays():
    assert rounded(model().fit(batches(X, Y), epochs=3, verbose=0)) == THREE_EPOCHS
    assert rounded(model().fit(X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)) == THREE_EPOCHS


def test_fit_with_sample_weights_in_the_dataset():
    # Keras 3: compiled `metrics` are unweighted; `weighted_metrics` use the sample weights.
    assert rounded(model().fit(batches(X, Y, W), epochs=2, verbose=0)) == {
        "loss": [0.834342, 0.093436], "mae": [0.699712, 0.300562]}
    assert rounded(model(metrics=[], weighted_metrics=["mae"]).fit(batches(X, Y, W), epochs=2, verbose=0)) == {
        "loss": [0.834342, 0.093436], "mae": [0.823599, 0.241082]}
    assert rounded(model().fit(X, Y, sample_weight=W, batch_size=4, epochs=2, shuffle=False, verbose=0)) == {
        "loss": [0.834342, 0.093436], "mae": [0.699712, 0.300562]}


def test_an_infinite_repeated_dataset_with_steps_per_epoch():
    history = model().fit(batches(X, Y).repeat(), epochs=2, steps_per_epoch=5, verbose=0)
    assert rounded(history) == {"loss": [0.44396, 0.095357], "mae": [0.525372, 0.277426]}
    assert history.params["steps"] == 5


def test_steps_per_epoch_continues_one_iterator_across_epochs():
    # 3 batches, 2 per epoch: the second epoch takes the third batch and runs out (Keras warns).
    m = model()
    with pytest.warns(UserWarning, match="Your input ran out of data; interrupting training"):
        history = m.fit(batches(X, Y), epochs=2, steps_per_epoch=2, verbose=0)
    assert rounded(history) == {"loss": [0.360369, 1.30498], "mae": [0.49425, 1.128309]}
    assert rounded(model().fit(batches(X, Y), epochs=3, steps_per_epoch=3, verbose=0)) == THREE_EPOCHS
    assert rounded(model().fit(batches(X, Y), epochs=3, steps_per_epoch=4, verbose=0)) == THREE_EPOCHS


def test_a_dataset_of_unknown_length():
    # Keras reads the dataset's iterator inside its train function until OutOfRangeError.
    ds = batches(X, Y).filter(lambda a, b: True)
    assert rounded(model().fit(ds, epochs=2, verbose=0)) == {"loss": THREE_EPOCHS["loss"][:2],
                                                             "mae": THREE_EPOCHS["mae"][:2]}


def test_validation_data_as_a_dataset():
    m = model()
    history = m.fit(batches(X, Y), epochs=2, validation_data=batches(X[:6], Y[:6], size=3), verbose=0)
    assert rounded(history) == {"loss": [0.675239, 0.090363], "mae": [0.705603, 0.257872],
                                "val_loss": [0.136672, 0.142663], "val_mae": [0.349745, 0.365251]}
    assert m.evaluate(batches(X[:6], Y[:6], size=3), verbose=0) == pytest.approx([0.14266334474086761,
                                                                                  0.3652510941028595], rel=1e-6)


def test_validation_steps_start_a_fresh_pass_each_time():
    h = model().fit(batches(X, Y), epochs=3, validation_data=batches(X, Y), validation_steps=1, verbose=0)
    assert rounded(h)["val_loss"] == [0.182456, 0.181698, 0.158321]
    h = model().fit(batches(X, Y), epochs=3, validation_data=batches(X, Y).repeat(), validation_steps=1,
                    validation_freq=2, verbose=0)
    assert rounded(h)["val_loss"] == [0.181698]


def test_evaluate_with_steps():
    m = model()
    assert m.evaluate(batches(X, Y), steps=1, verbose=0) == pytest.approx([0.04999999329447746, 0.19999998807907104])
    assert m.evaluate(batches(X, Y), steps=5, verbose=0) == pytest.approx([1.1166666746139526, 0.8666666150093079])
    assert m.evaluate(batches(X, Y, size=5).repeat(), steps=2, verbose=0) == pytest.approx(
        [0.690000057220459, 0.6800000071525574])
    assert m.evaluate(batches(X, Y), batch_size=2, verbose=0, return_dict=True) == pytest.approx(
        {"loss": 1.1166666746139526, "mae": 0.8666666150093079})  # as TF: batch_size is ignored


def test_predict_takes_x_from_the_elements():
    m = model()
    m.fit(batches(X, Y), epochs=2, verbose=0)
    expected = [[-0.10607757419347763], [0.15025301277637482], [0.40658360719680786], [0.6629142165184021],
                [0.9192447662353516]]
    np.testing.assert_allclose(m.predict(batches(X[:5], size=2), verbose=0), expected, rtol=1e-6)
    np.testing.assert_allclose(m.predict(batches(X[:5], Y[:5], size=2), verbose=0), expected, rtol=1e-6)
    assert m.predict(batches(X, size=5), steps=2, verbose=0).shape == (10, 1)


@pytest.mark.parametrize("keyword, message", [
    ("y", "When providing `x` as a tf.data.Dataset, `y` should not be passed. Instead, the targets should be "
          "included as part of the tf.data.Dataset."),
    ("sample_weight", "When providing `x` as a tf.data.Dataset, `sample_weights` should not be passed. Instead, "
                      "the sample weights should be included as part of the tf.data.Dataset."),
    ("validation_split", "Argument `validation_split` is only supported for tensors or NumPy arrays.Found "
                         "incompatible type in the input: [<class '"),
])
def test_arguments_a_dataset_already_carries_are_keras_errors(keyword, message):
    value = {"y": Y, "sample_weight": W, "validation_split": 0.5}[keyword]
    with pytest.raises(ValueError, match=re.escape(message)):
        model().fit(batches(X, Y), verbose=0, **{keyword: value})
    if keyword != "validation_split":
        with pytest.raises(ValueError, match=re.escape(message)):
            model().evaluate(batches(X, Y), verbose=0, **{keyword: value})


def test_fit_ignores_batch_size_and_warns_that_it_does_not_shuffle():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model().fit(batches(X, Y), batch_size=4, epochs=3, verbose=0)
    assert rounded(history) == THREE_EPOCHS
    assert any("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a tf.data.Dataset"
               in str(w.message) for w in caught)


def test_progress_lines(capsys):
    model().fit(batches(X, Y), epochs=2, verbose=2)
    out = capsys.readouterr().out
    assert re.fullmatch(r"Epoch 1/2\n3/3 - \d+s - \d+[mu]?s/step - loss: 0\.6752 - mae: 0\.7056\n"
                        r"Epoch 2/2\n3/3 - \d+s - \d+[mu]?s/step - loss: 0\.0904 - mae: 0\.2579\n", out), out
    model().fit(batches(X, Y).repeat(), epochs=1, steps_per_epoch=2, verbose=2)
    out = capsys.readouterr().out
    assert re.fullmatch(r"2/2 - \d+s - \d+[mu]?s/step - loss: 0\.3604 - mae: 0\.4942\n", out), out  # no Epoch 1/1
