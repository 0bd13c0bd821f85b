import sys

import pytest

from graphfn.autograph.operators import control_flow


@pytest.fixture
def fake_cf(monkeypatch):
    """Graph cond/while_loop for tensor-condition tests (see fake_control_flow.py)."""
    import fake_control_flow
    try:
        from graphfn.ops import control_flow_ops  # noqa: F401
        return  # the real ops are there: use them
    except ImportError:
        monkeypatch.setattr(control_flow, "cf", lambda: fake_control_flow)


sys.path.insert(0, __import__("os").path.dirname(__file__))
