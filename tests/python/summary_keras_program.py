"""Keras's TensorBoard callback on a tiny model, printing (as JSON) what its event files hold:
for each run ("train", "validation") the (step, tag, plugin, dtype, shape, value) of every
summary, the value for scalars only. Run on TF 2.21 (with TensorBoard importable) to record
summary_keras_expected.json:
    PYTHONPATH=<tensorboard> ~/tf/bin/python tests/python/summary_keras_program.py tensorflow
and by test_summary_keras.py on graphfn (argument: graphfn)."""

import glob
import json
import os
import sys
import tempfile

import numpy as np

if sys.argv[1] == "graphfn":
    import graphfn
    graphfn.install_as_tensorflow()
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

logdir = tempfile.mkdtemp()
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
model.layers[0].set_weights([np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], np.float32),
                             np.array([0.05, -0.05], np.float32)])
model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
x = np.arange(24, dtype=np.float32).reshape(8, 3) / 24
y = np.ones((8, 2), np.float32)
callback = keras.callbacks.TensorBoard(logdir, histogram_freq=1, update_freq=2, write_graph=False)
history = model.fit(x, y, epochs=2, batch_size=4, validation_data=(x, y), callbacks=[callback], verbose=0,
                    shuffle=False)

runs = {}
for path in sorted(glob.glob(os.path.join(logdir, "*", "events.out.tfevents.*"))):
    rows = []
    for event in tf.compat.v1.train.summary_iterator(path):
        for value in event.summary.value:
            tensor = value.tensor
            shape = [d.size for d in tensor.tensor_shape.dim]
            number = None
            if tensor.dtype == 1 and not shape:
                number = float(np.frombuffer(tensor.tensor_content, "<f4")[0])
            rows.append([event.step, value.tag, value.metadata.plugin_data.plugin_name, int(tensor.dtype), shape,
                         number])
    runs[os.path.basename(os.path.dirname(path))] = rows
print(json.dumps({"runs": runs, "history": {k: [float(v) for v in vs] for k, vs in history.history.items()}}))
