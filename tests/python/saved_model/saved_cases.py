"""The functions and modules the saved-model tests save: the seed tutorial's simple_relu (an
`if` on a tensor: StatelessIf), a while loop (StatelessWhile), and a Module with variables and a
decorated method. Expected values come from NumPy arithmetic."""

import os
import shutil
import subprocess
import sys
import sysconfig

import numpy as np
import pytest

import graphfn as tf

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def installed_from_source_tree():
    """True when the graphfn under test is this checkout's python/graphfn (PYTHONPATH), not one
    that `pip install .` installed."""
    return os.path.abspath(tf.__file__).startswith(os.path.join(_ROOT, "python") + os.sep)


def installed_runner():
    """The graphfn-run command `pip install .` put next to this interpreter's scripts, or on
    PATH; None if there is none."""
    beside_python = os.path.join(sysconfig.get_path("scripts"), "graphfn-run")
    if os.path.isfile(beside_python):
        return beside_python
    return shutil.which("graphfn-run")


def _runner():
    """The C++ runner: GRAPHFN_RUN when set; else the installed command (pip install . installs
    it with the package); when graphfn itself comes from the source tree (PYTHONPATH), the one a
    CMake build folder made."""
    given = os.environ.get("GRAPHFN_RUN")
    if given:
        assert os.path.isfile(given), "GRAPHFN_RUN=%s does not exist" % given
        return given
    if not installed_from_source_tree():
        installed = installed_runner()
        assert installed, "pip install . installs graphfn-run, but it is neither in %s nor on PATH" % (
            sysconfig.get_path("scripts"))
        return installed
    for build in ("build/dev", "build/" + sys.implementation.cache_tag):
        path = os.path.join(_ROOT, build, "graphfn-run")
        if os.path.isfile(path):
            return path
    pytest.skip("graphfn comes from the source tree and no build folder has graphfn-run "
                "(the DEV recipe's build/dev makes it; or set GRAPHFN_RUN)")


def run_graphfn_run(*args, env=None):
    """Runs graphfn-run with `args` (and `env` added to the environment); the CompletedProcess
    (text stdout/stderr). A build-folder runner (graphfn from the source tree) is told where
    OpenBLAS is, as the Python module is: its matrix products then run the same kernels as the
    Python side's, bit for bit (without OpenBLAS they fall back to Eigen's)."""
    if installed_from_source_tree() and "GRAPHFN_OPENBLAS_LIBRARY" not in (env or {}):
        from graphfn.util import openblas
        library = openblas.locate()
        if library is not None:
            env = {"GRAPHFN_OPENBLAS_LIBRARY": library, **(env or {})}
    return subprocess.run([_runner(), *map(str, args)], capture_output=True, text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def halve_until_small(x):
    while tf.reduce_sum(x) > 1.0:
        x = x / 2.0
    return x


def halve_until_small_np(x):
    x = np.asarray(x, np.float32)
    while x.sum() > 1.0:
        x = x / np.float32(2.0)
    return x


class Scaler(tf.Module):
    """y = x * v + b, counting its calls in a non-trainable variable."""

    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1.0, 2.0], name="v")
        self.b = tf.Variable(0.5, name="b")
        self.calls = tf.Variable(0, trainable=False, name="calls")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        self.calls.assign_add(1)
        return x * self.v + self.b


def make_module():
    """A module holding all three, simple_relu traced (as the tutorial calls it) for int32."""
    root = Scaler()
    root.relu = tf.function(simple_relu)
    root.relu(tf.constant(1))
    root.relu(tf.constant(-1))
    root.halve = halve_until_small
    return root
