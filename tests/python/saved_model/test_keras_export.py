"""Keras 3's `model.export` on graphfn: the serving graph is written in graphfn's saved format,
loads with tf.saved_model.load and runs in graphfn-run without Python.

The expected structure (signature keys, input and output specs, variable counts and shapes) is
what TF 2.21 gives for the same program (recorded with ~/tf/bin/python, Keras 3.15); the values
must equal the model's own predictions, as they do in TF. Keras runs in a subprocess: installing
graphfn as `tensorflow` changes the process for good."""

import json
import os
import sys

import numpy as np

from saved_cases import run_graphfn_run

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/python's helpers
import fresh_interpreter  # noqa: E402

EXPORT_PROGRAM = """
import json, sys
import numpy as np
import graphfn
graphfn.install_as_tensorflow()
import graphfn as tf
import keras

inp = keras.Input((6, 6, 2), name="image")
h = keras.layers.Conv2D(3, 3, activation="relu")(inp)
h = keras.layers.BatchNormalization()(h)
h = keras.layers.Dropout(0.5)(h)
h = keras.layers.Flatten()(h)
out = keras.layers.Dense(2, activation="softmax")(h)
model = keras.Model(inp, out)
x = np.linspace(-1, 1, 2 * 72, dtype="float32").reshape(2, 6, 6, 2)
model.compile("sgd", "mse")
model.fit(x, np.ones((2, 2), "float32"), epochs=1, verbose=0)
path = sys.argv[1]
model.export(path, verbose=False)
np.save(path + ".x.npy", x)
np.save(path + ".predicted.npy", model.predict(x, verbose=0))

restored = tf.saved_model.load(path)
signature = restored.signatures["serving_default"]
outputs = signature(image=tf.constant(x))
print(json.dumps({
    "serve": restored.serve(x).numpy().tolist(),
    "signature_outputs": {k: v.numpy().tolist() for k, v in outputs.items()},
    "keys": list(restored.signatures.keys()),
    "variables": [len(restored.variables), len(restored.trainable_variables),
                  len(restored.non_trainable_variables)],
    "shapes": sorted(v.shape.as_list() for v in restored.variables),
    "input_signature": repr(signature.structured_input_signature),
    "outputs": repr(signature.structured_outputs),
}))
"""


def test_keras_model_export_loads_and_serves_as_in_tensorflow(tmp_path):
    path = str(tmp_path / "exported")
    result = fresh_interpreter.run_code(EXPORT_PROGRAM, path, KERAS_BACKEND="tensorflow")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    predicted = np.load(path + ".predicted.npy")

    np.testing.assert_allclose(got["serve"], predicted, atol=1e-6)
    assert list(got["signature_outputs"]) == ["output_0"]
    np.testing.assert_allclose(got["signature_outputs"]["output_0"], predicted, atol=1e-6)
    # TF 2.21: the endpoint and TF-Serving's default alias; 9 variables (kernel, bias, gamma, beta,
    # moving mean and variance, dense kernel and bias, the Dropout's seed state), 6 trainable.
    assert got["keys"] == ["serve", "serving_default"]
    assert got["variables"] == [9, 6, 3]
    assert got["shapes"] == [[2], [2], [3], [3], [3], [3], [3], [3, 3, 2, 3], [48, 2]]
    assert got["input_signature"] == \
        "((), {'image': TensorSpec(shape=(None, 6, 6, 2), dtype=tf.float32, name='image')})"
    assert got["outputs"] == "{'output_0': TensorSpec(shape=(None, 2), dtype=tf.float32, name='output_0')}"

    # The same graph without Python.
    listing = run_graphfn_run(path, "--list")
    assert listing.returncode == 0, listing.stderr
    assert "input  image: float32[?,6,6,2]" in listing.stdout and "output output_0: float32[?,2]" in listing.stdout
    out_dir = tmp_path / "out"
    ran = run_graphfn_run(path, "--signature", "serving_default", "--input", "image=%s.x.npy" % path,
                          "--output_dir", out_dir)
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_allclose(np.load(out_dir / "output_0.npy"), predicted, atol=1e-6)


def test_installed_tensorflow_has_nested_namespaces_and_tensor_util_is_tf_type():
    code = """
import graphfn
graphfn.install_as_tensorflow()
from tensorflow.saved_model.experimental import TrackableResource
from tensorflow.data.experimental import AUTOTUNE
from tensorflow.python.framework import tensor_util
import numpy as np
print(TrackableResource is graphfn.saved_model.experimental.TrackableResource, AUTOTUNE == -1)
print(tensor_util.is_tf_type(graphfn.constant(1)), tensor_util.is_tf_type(graphfn.Variable(1.0)),
      tensor_util.is_tf_type(np.ones(2)), tensor_util.is_tf_type([graphfn.constant(1)]))
try:
    tensor_util.constant_value
except AttributeError as e:
    print(e)
"""
    result = fresh_interpreter.run_code(code, timeout=120)
    assert result.returncode == 0, result.stderr
    # TF 2.21: is_tf_type is tf.is_tensor under its internal name.
    assert result.stdout.splitlines() == [
        "True True",
        "True True False False",
        "module 'tensorflow.python.framework.tensor_util' has no attribute 'constant_value': graphfn does not "
        "have tensorflow.python.framework.tensor_util.constant_value yet"]
