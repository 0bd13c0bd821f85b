"""@tf_export("add", "math.add"): declares where a function appears in the public API.

Each wrapper names its public paths once, next to its definition; graphfn/__init__.py builds the
top-level names and the tf.math / tf.nn / tf.random ... namespaces from this table."""

import sys
import types

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
            child = getattr(target, part, None)
            if child is None:
                child = types.ModuleType(target.__name__ + "." + part)
                setattr(target, part, child)
                sys.modules[child.__name__] = child
            target = child
        setattr(target, leaf, obj)
