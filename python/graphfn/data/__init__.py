"""graphfn.data: tf.data input pipelines (docs/data.md). The pipeline runs in C++
(cpp/graphfn/data/); this package builds it with TensorFlow's Dataset API. Names TF has and
graphfn lacks raise graphfn's "does not have tf.data.X yet" error."""

from graphfn.util import missing_names as _missing_names


# The package's own modules: `from graphfn.data import structure` asks for the attribute before
# importing the module, which must not read TF's name list (that happens on a missing name only).
_MODULES = frozenset(["dataset_ops", "iterator", "structure", "traced", "nested", "transformations",
                      "generator", "readers", "selection", "options", "saving", "writers", "optional"])


def __getattr__(name):
    if name.startswith("__") or name in _MODULES:
        raise AttributeError("module 'graphfn.data' has no attribute '%s'" % name)
    raise _missing_names.missing_attribute("graphfn.data", name)
