"""examples/train_mlp.py runs, and its loss falls."""

import os
import re
import runpy
import sys

import pytest

_EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "train_mlp.py")


@pytest.mark.parametrize("flags, pattern", [([], r"loss (\d+\.\d+)"), (["--fit"], r"loss: (\d+\.\d+)")])
def test_example_loss_falls(monkeypatch, capsys, flags, pattern):
    monkeypatch.setattr(sys, "argv", ["train_mlp.py", "--epochs", "3"] + flags)
    runpy.run_path(_EXAMPLE, run_name="__main__")
    losses = [float(v) for v in re.findall(pattern, capsys.readouterr().out)]
    assert len(losses) == 3 and losses[0] > losses[1] > losses[2]
