"""graphfn.data: tf.data input pipelines (docs/data.md). The pipeline runs in C++
(cpp/graphfn/data/); this package builds it with TensorFlow's Dataset API. Names TF has and
graphfn lacks raise graphfn's "does not have tf.data.X yet" error."""

from graphfn.util import missing_names as _missing_names


# The package's own modules: `from graphfn.data import structure` asks for the attribute before
# importing the module, which must not read TF's name list (that happens on a missing name only).
_MODULES = frozenset(["dataset_ops", "iterator", "structure", "traced", "nested", "transformations",
                      "generator", "readers", "selection", "options", "saving", "writers", "optional",
                      "element_spec_type"])


def __getattr__(name):
    if name.startswith("__") or name in _MODULES:
        raise AttributeError("module 'graphfn.data' has no attribute '%s'" % name)
    raise _missing_names.missing_attribute("graphfn.data", name)


# `import graphfn` does not load tf.data: `graphfn.data` (tf.data) is imported on first use, and
# any import of a module of this package loads it whole, so that a Dataset always has every
# method (transformations, ragged batching and the sources patch DatasetV2 and its table).
from graphfn.util import tf_export as _tf_export  # noqa: E402

_first_export = _tf_export.exports_count()
from graphfn.data import dataset_ops, transformations, writers, readers, selection, options, saving  # noqa: E402,F401,E501
from graphfn.data import ragged_batching, optional  # noqa: E402,F401  (ragged tf.data; tf.experimental.Optional)
_tf_export.publish_since(_first_export)
