"""Tells the C++ core where OpenBLAS is: the linalg kernels (determinants, inverses, solves,
Cholesky, QR, SVD, eigh) run on LAPACK from the scipy-openblas32 package, a dependency of
graphfn, loaded on first use (cpp/graphfn/kernels/lapack.h). The package is found without
importing it, so `import graphfn` does not load OpenBLAS or start its threads."""

import os
import sys

from graphfn import _core

_LIBRARY = os.path.join("scipy_openblas32", "lib", "libscipy_openblas.so")


def locate():
    for entry in sys.path:
        path = os.path.join(entry or os.getcwd(), _LIBRARY)
        if os.path.exists(path):
            _core.set_openblas_library(path)
            return path
    return None  # the kernels then try the dynamic linker's search and say what is missing
