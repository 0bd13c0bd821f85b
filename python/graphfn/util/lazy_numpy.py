"""NumPy, imported on first use rather than by `import graphfn`: it is most of the import time,
and tracing, graph execution and eager arithmetic on Python numbers never need it. Printing a
tensor or calling .numpy() loads it. An ndarray can only exist once something has imported
NumPy, so type checks look in sys.modules instead of importing it."""

import numbers
import sys


def numpy():
    """The numpy module, imported now if nothing has imported it yet."""
    module = sys.modules.get("numpy")
    if module is None:
        import numpy as module  # on first need: NumPy would be most of `import graphfn`
    return module


def is_ndarray(value):
    module = sys.modules.get("numpy")
    return module is not None and isinstance(value, module.ndarray)


def is_scalar(value):
    """np.isscalar(value); without NumPy loaded only Python scalars can be scalars."""
    module = sys.modules.get("numpy")
    if module is None:
        return isinstance(value, (numbers.Number, str, bytes))
    return module.isscalar(value)
