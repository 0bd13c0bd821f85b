"""Running Python in a fresh interpreter against the graphfn under test (the installed package in
CI, the source tree when PYTHONPATH names it): for checks that change a process for good, such
as installing graphfn as `tensorflow` for Keras, or that measure what an import loads."""

import os
import subprocess
import sys
import textwrap

import graphfn

PYTHON_DIR = os.path.dirname(os.path.dirname(graphfn.__file__))


def environment(**extra):
    """os.environ with the graphfn under test first on PYTHONPATH, and `extra` set."""
    path = os.pathsep.join([PYTHON_DIR] + [p for p in [os.environ.get("PYTHONPATH")] if p])
    return dict(os.environ, PYTHONPATH=path, **extra)


def run(args, timeout=600, **extra_env):
    """`python *args` (a script and its arguments); the CompletedProcess, text output captured."""
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=environment(**extra_env),
                          timeout=timeout)


def run_code(code, *args, timeout=600, **extra_env):
    """`python -c code *args`, the code dedented."""
    return run(["-c", textwrap.dedent(code), *args], timeout=timeout, **extra_env)
