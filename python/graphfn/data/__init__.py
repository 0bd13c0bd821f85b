"""graphfn.data: tf.data input pipelines (docs/data.md). The pipeline runs in C++
(cpp/graphfn/data/); this package builds it with TensorFlow's Dataset API. Names TF has and
graphfn lacks raise graphfn's "does not have tf.data.X yet" error."""

from graphfn.util import missing_names as _missing_names


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError("module 'graphfn.data' has no attribute '%s'" % name)
    raise _missing_names.missing_attribute("graphfn.data", name)
