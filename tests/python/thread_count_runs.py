"""Runs a test script in a fresh interpreter with GRAPHFN_NUM_THREADS set, for tests that compare
threaded kernels' results with one-thread ones bit for bit. The script gets an .npz path as its
argument and saves its results there."""

import os
import subprocess
import sys

import numpy as np


def run_with_threads(script, tmp_path, threads):
    """The arrays `script` saved when run with `threads` intra-op threads."""
    path = str(tmp_path / ("out_%d.npz" % threads))
    env = dict(os.environ, GRAPHFN_NUM_THREADS=str(threads))
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.run([sys.executable, "-c", script, path], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return np.load(path)
