"""Real Keras 3 on graphfn reads and writes what Keras on TensorFlow 2.21 does: tf.train.Checkpoint
files of a model and its optimizer, and `.keras` model files. The fixtures and expected values
were recorded with TF 2.21 + Keras (checkpoint_fixtures/make_fixtures.py). Keras on graphfn
changes the process for good, so each check runs in a subprocess (as test_keras_real.py)."""

import json
import os
import textwrap

import numpy as np

from test_keras_real import run_python

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "checkpoint_fixtures")
with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)["keras"]

PRELUDE = """
import json, os, sys
sys.path.insert(0, %r)
import graphfn
graphfn.install_as_tensorflow()
import keras
import numpy as np
import tensorflow as tf
import checkpoint_fixture_models as models
x, y = models.keras_data()
""" % HERE


def run(code):
    result = run_python(PRELUDE + textwrap.dedent(code))
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_keras_model_and_optimizer_restore_from_a_tf_checkpoint():
    out = run("""
        model, optimizer = models.make_keras_sequential(keras)
        model.fit(x[:4], y[:4], epochs=1, verbose=0)  # builds the optimizer's slots; values overwritten
        status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(%r)
        status.assert_existing_objects_matched()
        print(json.dumps({"predictions": model.predict(x, verbose=0).tolist(),
                          "iterations": int(optimizer.iterations.numpy()),
                          "optimizer_variables": [v.numpy().tolist() for v in optimizer.variables]}))
    """ % os.path.join(FIXTURES, "keras", "ckpt-1"))
    np.testing.assert_allclose(out["predictions"], EXPECTED["predictions"], rtol=1e-5, atol=1e-6)
    assert out["iterations"] == EXPECTED["iterations"]
    for got, want in zip(out["optimizer_variables"], EXPECTED["optimizer_variables"]):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_keras_checkpoint_keys_are_tfs_and_round_trip(tmp_path):
    out = run("""
        model, optimizer = models.make_keras_sequential(keras)
        model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
        path = tf.train.Checkpoint(model=model, optimizer=optimizer).save(%r)
        before = model.predict(x, verbose=0)
        fresh, fresh_optimizer = models.make_keras_sequential(keras)
        fresh.fit(x[:4], y[:4], epochs=1, verbose=0)
        tf.train.Checkpoint(model=fresh, optimizer=fresh_optimizer).restore(path).assert_existing_objects_matched()
        print(json.dumps({"variables": [[k, s] for k, s in tf.train.list_variables(path)],
                          "same": bool(np.array_equal(before, fresh.predict(x, verbose=0))),
                          "iterations": int(fresh_optimizer.iterations.numpy())}))
    """ % str(tmp_path / "ckpt"))
    assert out["variables"] == EXPECTED["variables"]
    assert out["same"] and out["iterations"] == EXPECTED["iterations"]


def test_unbuilt_keras_layers_are_restored_when_built():
    # Deferred restoration: the model's variables do not exist when restore() runs.
    out = run("""
        model, optimizer = models.make_keras_sequential(keras)
        checkpoint = tf.train.Checkpoint(model=model)
        status = checkpoint.restore(%r).expect_partial()
        lazy = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(2)])
        lazy_status = tf.train.Checkpoint(model=lazy).restore(%r).expect_partial()
        lazy.build((None, 3))
        print(json.dumps({"eager": model.predict(x, verbose=0).tolist(), "lazy": lazy.predict(x, verbose=0).tolist()}))
    """ % ((os.path.join(FIXTURES, "keras", "ckpt-1"),) * 2))
    np.testing.assert_allclose(out["eager"], EXPECTED["predictions"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["lazy"], EXPECTED["predictions"], rtol=1e-5, atol=1e-6)


def test_a_keras_file_saved_by_tf_loads_and_predicts_the_same():
    out = run("""
        model = keras.models.load_model(%r)
        print(json.dumps({"predictions": model.predict(x, verbose=0).tolist(),
                          "iterations": int(model.optimizer.iterations.numpy())}))
    """ % os.path.join(FIXTURES, "model.keras"))
    np.testing.assert_allclose(out["predictions"], EXPECTED["functional_predictions"], rtol=1e-5, atol=1e-6)
    assert out["iterations"] == EXPECTED["functional_iterations"]


def test_a_keras_file_saved_on_graphfn_has_tfs_layout(tmp_path):
    # The file graphfn's Keras writes holds the same entries and weights layout as TF's; the
    # weights are the fixture's (loaded, then saved again), so the model predicts TF's values.
    out = run("""
        import zipfile, h5py
        model = keras.models.load_model(%r)
        model.save(%r)
        again = keras.models.load_model(%r)
        def layout(path):
            with zipfile.ZipFile(path) as z:
                names = sorted(z.namelist())
                with z.open("model.weights.h5") as f, h5py.File(f) as h5:
                    weights = []
                    h5.visititems(lambda name, obj: weights.append([name, list(obj.shape)])
                                  if isinstance(obj, h5py.Dataset) else None)
            return names, weights
        print(json.dumps({"ours": layout(%r), "tfs": layout(%r),
                          "predictions": again.predict(x, verbose=0).tolist()}))
    """ % (os.path.join(FIXTURES, "model.keras"), str(tmp_path / "m.keras"), str(tmp_path / "m.keras"),
           str(tmp_path / "m.keras"), os.path.join(FIXTURES, "model.keras")))
    assert out["ours"] == out["tfs"]
    np.testing.assert_allclose(out["predictions"], EXPECTED["functional_predictions"], rtol=1e-5, atol=1e-6)
