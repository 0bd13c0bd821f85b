"""Real Keras's keras.callbacks.TensorBoard on graphfn (graphfn.install_as_tensorflow()): the
event files it writes hold the summaries (steps, tags, plugins, dtypes, shapes, loss values) that
the same program writes on TF 2.21 (summary_keras_expected.json, recorded with
summary_keras_program.py on TF 2.21 + Keras 3.15.1 + TensorBoard 2.21). Keras changes the process
for good, so the program runs in a subprocess."""

import json
import os

import pytest

import fresh_interpreter

HERE = os.path.dirname(os.path.abspath(__file__))


def test_keras_tensorboard_callback_writes_tfs_summaries():
    result = fresh_interpreter.run([os.path.join(HERE, "summary_keras_program.py"), "graphfn"],
                                   KERAS_BACKEND="tensorflow")
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
