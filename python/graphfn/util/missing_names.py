"""The error for a TensorFlow name graphfn does not have yet.

`graphfn.foo` and `graphfn.nn.foo` raise AttributeError as any module does; when TensorFlow 2.21
has the name (tf_api_names.txt, recorded by tools/record_tf_api_names.py), the message says so,
so that a user porting TF code knows the name is missing from graphfn rather than misspelt. The
list is read on the first missing name only, so `import graphfn` does not pay for it."""

import functools
import os


@functools.lru_cache(maxsize=None)
def _tensorflow_names():
    with open(os.path.join(os.path.dirname(__file__), "tf_api_names.txt")) as f:
        return frozenset(line.strip() for line in f if line.strip() and not line.startswith("#"))


def missing_attribute(module_name, name):
    """The AttributeError for `module_name.name` ("graphfn.nn", "conv3d_transpose")."""
    message = "module '%s' has no attribute '%s'" % (module_name, name)
    path = (module_name.partition(".")[2] + "." + name).lstrip(".")
    if path in _tensorflow_names():
        message += ": graphfn does not have tf.%s yet (TensorFlow 2.21 has it)" % path
    return AttributeError(message)


def install(module):
    """Makes a missing attribute of `module` (a namespace tf_export created) raise
    missing_attribute's error."""
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError("module '%s' has no attribute '%s'" % (module.__name__, name))
        raise missing_attribute(module.__name__, name)

    module.__getattr__ = __getattr__
