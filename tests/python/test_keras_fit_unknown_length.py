"""Keras 3's fit/evaluate/predict on a dataset of unknown length (after `filter`): Keras passes
the dataset's iterator into its tf.function train step, which reads it with get_next() until
OutOfRangeError ends the epoch. Values recorded from the same program on TF 2.21 (Keras 3.15).
Keras runs in a subprocess: installing graphfn as `tensorflow` changes the process for good."""

import json

import numpy as np

import fresh_interpreter

PROGRAM = """
import json
import numpy as np
import graphfn
graphfn.install_as_tensorflow()
import graphfn as tf
import keras

x = np.linspace(-1, 1, 40, dtype="float32").reshape(20, 2)
y = (x.sum(1, keepdims=True) > 0).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((x, y)).filter(lambda a, b: a[0] > -0.9).batch(4)
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
model.compile("sgd", "mse")
history = model.fit(ds, epochs=2, verbose=0)
print(json.dumps({"cardinality": int(ds.cardinality().numpy()), "loss": history.history["loss"],
                  "evaluate": model.evaluate(ds, verbose=0), "predict": list(model.predict(ds, verbose=0).shape)}))
"""


def test_fit_evaluate_predict_on_a_filtered_dataset():
    result = fresh_interpreter.run_code(PROGRAM, KERAS_BACKEND="tensorflow", PYTHONWARNINGS="ignore")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["cardinality"] == -2  # tf.data.UNKNOWN_CARDINALITY
    np.testing.assert_allclose(got["loss"], [0.7021836638450623, 0.6221098899841309], rtol=1e-6)
    np.testing.assert_allclose(got["evaluate"], 0.5649619102478027, rtol=1e-6)
    assert got["predict"] == [19, 1]
