"""The real Keras 3 on graphfn (install_as_tensorflow) next to Keras 3 on TensorFlow 2.21 (issue 20).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_keras.py [--repeat 3] [--json out.json]

graphfn and TensorFlow cannot share a process (install_as_tensorflow() refuses once the real TF
is imported), so each side runs in its own interpreter (this script with --child), with the same
synthetic MNIST-sized data and seeds; the parent interleaves the two sides `repeat` times and
reports medians. The interpreter is the one running this script if it has keras and tensorflow,
else ~/tf/bin/python (or $GRAPHFN_KERAS_BENCH_PYTHON); graphfn's side gets this graphfn on its
PYTHONPATH.

Rows (µs; `TensorFlow / graphfn` above 1 means graphfn is faster):
- model.fit of an MLP 784-128-10 and of a small convnet (Conv 32 -> MaxPool -> Conv 64 -> MaxPool
  -> Dense 10) on 6 000 samples, batch 64, Adam, sparse categorical cross-entropy, accuracy metric:
  the first epoch from the fit() call (tracing of the train step included), and the median of
  the later epochs (steady state);
- model.predict of one batch of 32 samples (per call, after a warm-up call).
"""

import json
import os
import statistics
import subprocess
import sys
import time

SAMPLES, BATCH, EPOCHS, PREDICT_BATCH = 6000, 64, 3, 32
MODELS = ("MLP 784-128-10", "convnet conv32-pool-conv64-pool-dense10")


# The child: one library, both models ------------------------------------------------------------

def _build(keras, kind):
    layers = keras.layers
    if kind == MODELS[0]:
        return keras.Sequential([keras.Input((784,)), layers.Dense(128, activation="relu"), layers.Dense(10)])
    return keras.Sequential([keras.Input((28, 28, 1)),
                             layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(),
                             layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(),
                             layers.Flatten(), layers.Dense(10)])


def _data(np, kind):
    rng = np.random.default_rng(0)
    shape = (SAMPLES, 784) if kind == MODELS[0] else (SAMPLES, 28, 28, 1)
    return rng.random(shape, dtype=np.float32), rng.integers(0, 10, SAMPLES).astype(np.int32)


def _measure(keras, np, kind, predict_calls):
    keras.utils.set_random_seed(0)
    x, y = _data(np, kind)
    model = _build(keras, kind)
    model.compile(optimizer="adam", metrics=["accuracy"],
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    ends = []

    class EpochTimes(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            ends.append(("begin", time.perf_counter()))

        def on_epoch_end(self, epoch, logs=None):
            ends.append(("end", time.perf_counter()))

    start = time.perf_counter()
    model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, verbose=0, shuffle=True, callbacks=[EpochTimes()])
    begins = [t for what, t in ends if what == "begin"]
    finishes = [t for what, t in ends if what == "end"]
    first_epoch = finishes[0] - start
    later = [e - b for b, e in zip(begins[1:], finishes[1:])]
    batch = x[:PREDICT_BATCH]
    model.predict(batch, verbose=0)  # traces the predict function
    times = []
    for _ in range(predict_calls):
        t = time.perf_counter()
        model.predict(batch, verbose=0)
        times.append(time.perf_counter() - t)
    return {"first epoch": first_epoch * 1e6, "epoch": statistics.median(later) * 1e6,
            "predict": statistics.median(times) * 1e6}


def child(library, predict_calls=200):
    os.environ["KERAS_BACKEND"] = "tensorflow"
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    if library == "graphfn":
        import graphfn
        graphfn.install_as_tensorflow()
    import keras
    import numpy as np
    print(json.dumps({kind: _measure(keras, np, kind, predict_calls) for kind in MODELS}))


# The parent: interleaved children, median rows ----------------------------------------------------

def _interpreter():
    import importlib.util
    override = os.environ.get("GRAPHFN_KERAS_BENCH_PYTHON")
    if override:
        return override
    if all(importlib.util.find_spec(m) is not None for m in ("keras", "tensorflow")):
        return sys.executable
    venv = os.path.expanduser("~/tf/bin/python")
    return venv if os.path.exists(venv) else None


def _run_child(python, library):
    import graphfn
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND="tensorflow")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    graphfn_path = os.path.dirname(os.path.dirname(os.path.abspath(graphfn.__file__)))
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != graphfn_path]
    if library == "graphfn":
        paths.insert(0, graphfn_path)
    env["PYTHONPATH"] = os.pathsep.join(paths)
    proc = subprocess.run([python, os.path.abspath(__file__), "--child", library],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError("the %s Keras benchmark failed:\n%s" % (library, proc.stderr[-3000:]))
    return json.loads(proc.stdout.splitlines()[-1])


_VERSIONS = {}


def run(repeat):
    python = _interpreter()
    if python is None:
        return []
    _VERSIONS["load average before"] = " ".join("%.2f" % v for v in os.getloadavg())
    samples = {"graphfn": [], "TensorFlow": []}
    for r in range(repeat):  # interleaved, alternating which side goes first
        order = ["graphfn", "TensorFlow"] if r % 2 == 0 else ["TensorFlow", "graphfn"]
        for library in order:
            samples[library].append(_run_child(python, "graphfn" if library == "graphfn" else "tensorflow"))
    _VERSIONS["load average after"] = " ".join("%.2f" % v for v in os.getloadavg())
    rows = []
    labels = [("first epoch", "fit, first epoch (tracing included), %d samples, batch %d" % (SAMPLES, BATCH)),
              ("epoch", "fit, later epoch (median), %d samples, batch %d" % (SAMPLES, BATCH)),
              ("predict", "predict of %d samples, per call" % PREDICT_BATCH)]
    for kind in MODELS:
        for key, label in labels:
            rows.append({"benchmark": "Keras %s %s" % (kind, label),
                         "us": {lib: statistics.median(s[kind][key] for s in runs) for lib, runs in samples.items()}})
    return rows


def main(argv=None):
    from _harness import main as harness_main
    return harness_main(__doc__, run, _VERSIONS, ["TensorFlow"], 3, argv)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
