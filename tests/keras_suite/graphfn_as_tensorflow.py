"""pytest plugin for running Keras's own tests (tests/keras_suite/run.py loads it with -p).

With GRAPHFN_KERAS_SUITE=graphfn it makes graphfn the TensorFlow that Keras imports, before any
test module (and so Keras) is imported; with GRAPHFN_KERAS_SUITE=tensorflow it leaves the real
TensorFlow alone, for the comparison run. Keras runs with its TensorFlow backend in both."""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"
if os.environ.get("GRAPHFN_KERAS_SUITE", "graphfn") == "graphfn":
    import graphfn

    graphfn.install_as_tensorflow()
