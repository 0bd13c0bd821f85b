"""graphfn.install_as_tensorflow(): graphfn under the name `tensorflow`.

Libraries written for TensorFlow (Keras 3 with KERAS_BACKEND=tensorflow) `import tensorflow`
and a few of its internal modules (tensorflow.python.trackable.data_structures,
tensorflow.python.eager.context, ...). This module registers graphfn and those modules in
sys.modules under TensorFlow's names, in the spirit of PyMySQL's install_as_MySQLdb(). It is
done by this call or by the first use of tf.keras (graphfn/keras.py), never by `import graphfn`:
a process that imports real TensorFlow must not also see graphfn under its name, so installing
raises when real TensorFlow is already imported. See docs/keras.md."""

import sys
import types

# tensorflow.<internal module> -> the graphfn module that stands for it.
_INTERNAL_MODULES = {
    "python.trackable.base": "graphfn.trackable.base",
    "python.trackable.data_structures": "graphfn.trackable.data_structures",
    "python.eager.context": "graphfn.tensorflow_alias.eager_context",
    "compiler.tf2xla.python.xla": "graphfn.tensorflow_alias.xla",
    "python.framework.config": "graphfn.framework.determinism",
    "python.ops.math_ops": "graphfn.math",
    "python.ops.linalg.sparse.sparse_csr_matrix_ops": None,  # Keras's sparse matmul of two SparseTensors
    "python.framework.tensor_util": "graphfn.tensorflow_alias.tensor_util",
    "python.framework.type_spec_registry": None,
    "python.data.experimental.ops.distribute": None,
    "experimental.dtensor": None,  # imported by Keras's distribution_lib; used only by its DTensor paths
    "compat.v1": "graphfn.compat.v1",  # Keras's TensorBoard callback: from tensorflow.compat.v1 import SummaryMetadata
}

# tensorflow.<module TF defines the class in> -> (graphfn's module, class): the classes whose home
# module Keras checks, given TF's module name once graphfn is installed as tensorflow.
_TF_CLASS_HOMES = {
    "python.data.ops.dataset_ops": ("graphfn.data.dataset_ops", "DatasetV2"),
    "python.ops.ragged.ragged_tensor": ("graphfn.ops.ragged_tensor", "RaggedTensor"),
    "python.framework.sparse_tensor": ("graphfn.ops.sparse_tensor", "SparseTensor"),
}


class _MissingModule(types.ModuleType):
    """A TensorFlow package graphfn has no counterpart for: its names say so."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError("module '%s' has no attribute '%s': graphfn does not have %s.%s yet"
                             % (self.__name__, name, self.__name__, name))


def _is_real_tensorflow(module):
    return module is not None and not getattr(module, "_is_graphfn", False)


def install_as_tensorflow():
    """Makes `import tensorflow` (and the TF internals Keras 3 imports) give graphfn.

    Call it before importing the library that imports TensorFlow (`import keras`). Calling it
    again does nothing. Raises ImportError if the real TensorFlow is already imported."""
    import importlib  # lazily: only installing needs it

    import graphfn  # in the function: graphfn imports nothing of this package at import time

    existing = sys.modules.get("tensorflow")
    if existing is graphfn:
        return graphfn
    if _is_real_tensorflow(existing) or any(
            name.startswith("tensorflow.") and _is_real_tensorflow(module)
            for name, module in list(sys.modules.items())):
        raise ImportError(
            "graphfn.install_as_tensorflow(): the real TensorFlow is already imported in this process "
            "(sys.modules['tensorflow'] is %r). Install graphfn as tensorflow before anything imports "
            "TensorFlow, in a process that does not use the real one." % (existing,))
    sys.modules["tensorflow"] = graphfn
    # The public namespaces (tensorflow.math, tensorflow.io.gfile, ...): `import tensorflow.summary`,
    # `from tensorflow.data import ...`, importlib.import_module("tensorflow.io.gfile") (Keras's
    # file utilities) and `from tensorflow.saved_model.experimental import TrackableResource` look
    # them up as modules. tf.data is one of them once loaded (`import graphfn` leaves it for its
    # first use).
    importlib.import_module("graphfn.data")
    for name, module in list(sys.modules.items()):
        if name.startswith("graphfn.") and isinstance(module, types.ModuleType) and \
                module.__name__ == name and (name[8:] in vars(graphfn) if name.count(".") == 1 else
                                             _is_namespace(graphfn, name[8:], module)):
            sys.modules["tensorflow." + name[8:]] = module
    for internal, target in _INTERNAL_MODULES.items():
        full_name = "tensorflow." + internal
        _register(full_name, _MissingModule(full_name) if target is None else importlib.import_module(target))
    for internal, (target, class_name) in _TF_CLASS_HOMES.items():
        module = importlib.import_module(target)
        _register("tensorflow." + internal, module)
        # Keras recognizes TF's datasets and composite tensors by their class's module
        # ("tensorflow.python." in it), as TF 2.21 names them; the alias module above keeps
        # pickling and `module.Class` lookups working under that name.
        getattr(module, class_name).__module__ = "tensorflow." + internal
    return graphfn


def _is_namespace(graphfn, dotted, module):
    """Whether `module` is the API namespace graphfn.<dotted> (tf.io.gfile), reached through
    public attributes: not one of graphfn's implementation files (they have a __file__)."""
    value = graphfn
    for part in dotted.split("."):
        if part.startswith("_") or part not in vars(value):
            return False
        value = vars(value)[part]
    return value is module and getattr(module, "__file__", None) is None


def _register(full_name, module):
    """sys.modules[full_name] = module, with stand-ins for its missing parent packages
    (tensorflow.python, tensorflow.python.trackable, ...), each holding its child as TF's do."""
    sys.modules[full_name] = module
    child = module
    while full_name != "tensorflow":
        parent_name, _, leaf = full_name.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is None:
            parent = _MissingModule(parent_name)
            parent.__path__ = []  # a package, so that `import tensorflow.python.x` finds it
            sys.modules[parent_name] = parent
        if vars(parent).get(leaf) is None:
            setattr(parent, leaf, child)
        full_name, child = parent_name, parent
