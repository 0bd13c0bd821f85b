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
