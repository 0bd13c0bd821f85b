"""Records the checkpoint fixtures of test_checkpoint.py and test_keras_files.py with the real
TensorFlow 2.21 (and Keras 3):  ~/tf/bin/python tests/python/checkpoint_fixtures/make_fixtures.py

Writes, next to this file:
- module/: a tf.Module of every common dtype (nested modules, a list, a dict, names to escape)
  saved twice by tf.train.Checkpoint (ckpt-1, ckpt-2, the `checkpoint` state file);
- keras/: a Keras Sequential model and its Adam optimizer after two epochs, saved by
  tf.train.Checkpoint; model.keras: a functional model saved by model.save;
- expected.json: the values, predictions, TF's CheckpointManager behaviour and messages."""

import json
import os
import shutil
import sys

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import checkpoint_fixture_models as models  # noqa: E402
import tensorflow as tf  # noqa: E402


as_json = models.as_json


def read_text(path):
    with open(path) as f:
        return f.read()


def record_module(expected):
    directory = os.path.join(HERE, "module")
    shutil.rmtree(directory, ignore_errors=True)
    net = models.make_module(tf)
    checkpoint = tf.train.Checkpoint(model=net)
    checkpoint.save(os.path.join(directory, "ckpt"))
    models.change_module(net)
    checkpoint.save(os.path.join(directory, "ckpt"))
    reader = tf.train.load_checkpoint(os.path.join(directory, "ckpt-2"))
    expected["module"] = {
        "variables": [[k, s] for k, s in tf.train.list_variables(directory)],
        "dtypes": {k: v.name for k, v in reader.get_variable_to_dtype_map().items()},
        "values": {k: as_json(reader.get_tensor(k)) for k, _ in tf.train.list_variables(directory)
                   if k != "_CHECKPOINTABLE_OBJECT_GRAPH"},
        "first_v": as_json(tf.train.load_checkpoint(os.path.join(directory, "ckpt-1")).get_tensor(
            "model/v/.ATTRIBUTES/VARIABLE_VALUE")),
        "state_file": read_text(os.path.join(directory, "checkpoint")),
    }


def record_manager(expected, scratch):
    events = []
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, scratch, max_to_keep=2, checkpoint_name="step")
    events.append(["latest", manager.latest_checkpoint, manager.checkpoints])
    for number in (None, None, 10, None):
        path = manager.save(checkpoint_number=number)
        events.append(["save", os.path.relpath(path, scratch), [os.path.relpath(p, scratch) for p in manager.checkpoints],
                       sorted(os.listdir(scratch)), int(checkpoint.save_counter.numpy())])
    with open(os.path.join(scratch, "checkpoint")) as f:
        state = f.read().splitlines()
    events.append(["state", [line for line in state if "timestamp" not in line]])
    resumed = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), scratch, max_to_keep=2,
                                         checkpoint_name="step")
    events.append(["resumed", os.path.relpath(resumed.latest_checkpoint, scratch),
                   [os.path.relpath(p, scratch) for p in resumed.checkpoints]])
    restored = resumed.restore_or_initialize()
    events.append(["restore_or_initialize", os.path.relpath(restored, scratch),
                   float(resumed.checkpoint.v.numpy()), int(resumed.checkpoint.save_counter.numpy())])
    events.append(["latest_checkpoint", os.path.relpath(tf.train.latest_checkpoint(scratch), scratch)])
    expected["manager"] = events


def record_keras(expected):
    import keras
    directory = os.path.join(HERE, "keras")
    shutil.rmtree(directory, ignore_errors=True)
    x, y = models.keras_data()
    model, optimizer = models.make_keras_sequential(keras)
    model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    tf.train.Checkpoint(model=model, optimizer=optimizer).save(os.path.join(directory, "ckpt"))
    functional = models.make_keras_functional(keras)
    functional.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    functional.save(os.path.join(HERE, "model.keras"))
    expected["keras"] = {
        "variables": [[k, s] for k, s in tf.train.list_variables(directory)],
        "predictions": model.predict(x, verbose=0).tolist(),
        "iterations": int(optimizer.iterations.numpy()),
        "optimizer_variables": [v.numpy().tolist() for v in optimizer.variables],
        "functional_predictions": functional.predict(x, verbose=0).tolist(),
        "functional_iterations": int(functional.optimizer.iterations.numpy()),
    }


def main():
    import tempfile
    expected = {"tensorflow": tf.__version__}
    record_module(expected)
    with tempfile.TemporaryDirectory() as scratch:
        record_manager(expected, scratch)
    record_keras(expected)
    import keras
    expected["keras_version"] = keras.__version__
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
