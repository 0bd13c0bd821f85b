"""@tf_export("add", "math.add"): declares where a function appears in the public API.

Each wrapper names its public paths once, next to its definition; graphfn/__init__.py builds the
top-level names and the tf.math / tf.nn / tf.random ... namespaces from this table."""

import sys
import types

from graphfn.util import missing_names

_EXPORTS = []  # (public name, object), in definition order


def tf_export(*names):
    def register(obj):
        for name in names:
            _EXPORTS.append((name, obj))
        return obj
    return register


def install(package):
    """Publishes every export on `package` (a module), creating namespace modules as needed."""
    for name, obj in _EXPORTS:
        *path, leaf = name.split(".")
        target = package
        for part in path:
            child = vars(target).get(part)  # not getattr: a missing name would load the TF name list
            if child is None:
                child = types.ModuleType(target.__name__ + "." + part)
                missing_names.install(child)
                setattr(target, part, child)
                sys.modules[child.__name__] = child
            target = child
        setattr(target, leaf, obj)


_LAZY_EXPORTS = {}  # public name -> (module, attribute): imported on first access


def tf_export_lazy(name, module, attribute):
    """Declares a public name whose object lives in a module imported only when the name is
    first used (tf.train.Example: its module imports protobuf, which `import graphfn` should not)."""
    _LAZY_EXPORTS[name] = (module, attribute)


def install_lazy(package, only_top_level=False):
    """Publishes the lazy exports: each namespace answers its lazy names on first access.
    `only_top_level`: just the package's own lazy names (tf.RaggedTensor), chained to the
    package's module __getattr__, which is defined after the first install."""
    import importlib  # lazily: only install time needs it

    by_namespace = {}
    for name, target in _LAZY_EXPORTS.items():
        *path, leaf = name.split(".")
        if only_top_level and path:
            continue
        by_namespace.setdefault(tuple(path), {})[leaf] = target
    for path, names in by_namespace.items():
        namespace = package
        for part in path:
            child = vars(namespace).get(part)
            if child is None:
                child = types.ModuleType(namespace.__name__ + "." + part)
                missing_names.install(child)
                setattr(namespace, part, child)
                sys.modules[child.__name__] = child
            namespace = child
        fallback = vars(namespace).get("__getattr__")

        def __getattr__(attr, namespace=namespace, names=names, fallback=fallback):
            if attr in names:
                module, attribute = names[attr]
                value = getattr(importlib.import_module(module), attribute)
                setattr(namespace, attr, value)  # later lookups are plain attribute reads
                return value
            if fallback is not None:
                return fallback(attr)
            raise AttributeError("module '%s' has no attribute '%s'" % (namespace.__name__, attr))

        namespace.__getattr__ = __getattr__
