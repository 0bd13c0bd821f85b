"""Which callables converted code calls as-is instead of converting them."""

import os
import sysconfig

from graphfn.util.traceback_filter import PACKAGE_DIR

# Modules never converted (AutoGraph's do-not-convert list, plus graphfn itself).
DO_NOT_CONVERT = frozenset((
    "graphfn", "collections", "copy", "cProfile", "inspect", "ipdb", "linecache", "mock", "pathlib", "pdb",
    "posixpath", "pstats", "re", "threading", "urllib", "matplotlib", "numpy", "pandas", "tensorflow", "PIL",
    "absl", "tensorflow_probability", "tensorflow_datasets", "keras", "tf_keras", "unittest", "pytest", "_pytest",
    "functools", "builtins", "typing", "abc"))

_LIBRARY_DIRS = tuple(sorted({os.path.realpath(p) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib")
                              for p in [sysconfig.get_paths().get(key)] if p}))

_library_code = {}  # code object -> bool


def is_library(fn):
    """True for functions of the standard library, installed packages and listed modules."""
    module = getattr(fn, "__module__", None) or ""
    if module.split(".")[0] in DO_NOT_CONVERT:
        return True
    code = getattr(fn, "__code__", None)
    if code is None:
        return True
    cached = _library_code.get(code)
    if cached is None:
        path = os.path.realpath(code.co_filename)
        cached = path.startswith(_LIBRARY_DIRS) or path.startswith(PACKAGE_DIR) or "site-packages" in path
        _library_code[code] = cached
    return cached


def strict():
    """AUTOGRAPH_STRICT_CONVERSION=1 turns conversion failures into errors."""
    return os.environ.get("AUTOGRAPH_STRICT_CONVERSION", "") not in ("", "0")


def graphfn_dir():
    return PACKAGE_DIR


def verbosity():
    return int(os.environ.get("AUTOGRAPH_VERBOSITY", "0") or 0)


