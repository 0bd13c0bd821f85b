"""graphfn.keras (tf.keras): the real Keras 3 package, running on graphfn.

As in TensorFlow 2.16+, where `tf.keras` is `keras._tf_keras.keras` (Keras 3's TensorFlow-shaped
API), importing this module (which `graphfn.keras` does on first access) makes graphfn the
TensorFlow Keras sees (graphfn.install_as_tensorflow()), imports Keras, and puts Keras's module
in its place in sys.modules: `graphfn.keras`, `from graphfn.keras import layers` and, once
installed, `import tensorflow.keras` all give Keras's own objects. Keras's backend is chosen by
Keras (KERAS_BACKEND, ~/.keras/keras.json, else "tensorflow"), which TF 2.21 leaves alone too.
Keras is an optional dependency: `pip install graphfn[keras]`. See docs/keras.md."""

import importlib
import importlib.util
import sys

import graphfn

_INSTALL_HINT = ("graphfn.keras (tf.keras) is the Keras 3 package running on graphfn, as tf.keras is in "
                 "TensorFlow 2.16+, and Keras is not installed. Install it with `pip install graphfn[keras]` "
                 "(or `pip install \"keras>=3.15\"`).")


def _load():
    if importlib.util.find_spec("keras") is None:
        raise ModuleNotFoundError(_INSTALL_HINT, name="keras")
    graphfn.install_as_tensorflow()
    return importlib.import_module("keras._tf_keras.keras")


sys.modules[__name__] = _load()
