"""@tf_export("add", "math.add"): declares where a function appears in the public API.

Each wrapper names its public paths once, next to its definition; graphfn/__init__.py builds the
top-level names and the tf.math / tf.nn / tf.random ... namespaces from this table."""

import functools
import sys
import types

from graphfn.util import missing_names

_EXPORTS = []  # (public name, object), in definition order
_PACKAGE = []  # the package install() built the namespaces on, once it has run


def tf_export(*names):
    def register(obj):
        for name in names:
            _EXPORTS.append((name, obj))
        return obj
    return register


def install(package):
    """Publishes every export on `package` (a module), creating namespace modules as needed."""
    _publish(package, _EXPORTS)
    _PACKAGE[:] = [package]


def publish_since(start):
    """Publishes the exports registered from index `start` of the table on: the end of a package
    graphfn loads on first use (graphfn.data) calls it, as its names missed install(). Before
    install() has run (the package imported while graphfn itself loads), install() covers them."""
    if _PACKAGE:
        _publish(_PACKAGE[0], _EXPORTS[start:])


def exports_count():
    return len(_EXPORTS)


def _publish(package, exports):
    for name, obj in exports:
        *path, leaf = name.split(".")
        target = package
        for part in path:
            child = vars(target).get(part)  # not getattr: a missing name would load the TF name list
            if child is None:  # a package still running its __init__ (graphfn.data's publish_since)
                child = sys.modules.get(target.__name__ + "." + part)
                if child is not None:
                    setattr(target, part, child)
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
        if not only_top_level:  # graphfn's own __dir__ lists its top-level lazy names
            namespace.__dir__ = functools.partial(_dir_with, namespace, frozenset(names))

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


def lazy_names(namespace=""):
    """The lazy exports' leaf names in `namespace` ("" for the top level, "train", ...)."""
    prefix = namespace + "." if namespace else ""
    return {name[len(prefix):] for name in _LAZY_EXPORTS
            if name.startswith(prefix) and "." not in name[len(prefix):]}


def _dir_with(namespace, names):
    """dir() of a namespace with lazy names: those not loaded yet are listed too, as TF lists them."""
    return sorted(set(vars(namespace)) | names)
