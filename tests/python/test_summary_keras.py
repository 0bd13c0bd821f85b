"""Real Keras's keras.callbacks.TensorBoard on graphfn (graphfn.install_as_tensorflow()): the
event files it writes hold the summaries (steps, tags, plugins, dtypes, shapes, loss values) that
the same program writes on TF 2.21 (summary_keras_expected.json, recorded with
summary_keras_program.py on TF 2.21 + Keras 3.15.1 + TensorBoard 2.21). Keras changes the process
for good, so the program runs in a subprocess."""

import json
import os
import subprocess
import sys

import pytest

import graphfn

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(os.path.dirname(graphfn.__file__))


def test_keras_tensorboard_callback_writes_tfs_summaries():
    env = dict(os.environ, KERAS_BACKEND="tensorflow",
               PYTHONPATH=os.pathsep.join([PYTHON_DIR] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    result = subprocess.run([sys.executable, os.path.join(HERE, "summary_keras_program.py"), "graphfn"],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    got = json.loads(result.stdout.strip().splitlines()[-1])
    with open(os.path.join(HERE, "summary_keras_expected.json")) as f:
        expected = json.load(f)
    assert sorted(got["runs"]) == sorted(expected["runs"]) == ["train", "validation"]
    for run, rows in expected["runs"].items():
        assert [row[:5] for row in got["runs"][run]] == [row[:5] for row in rows]
        for mine, tfs in zip(got["runs"][run], rows):
            if tfs[5] is not None:
                assert mine[5] == pytest.approx(tfs[5], rel=1e-5), mine
    for name, values in expected["history"].items():
        assert got["history"][name] == pytest.approx(values, rel=1e-5)
