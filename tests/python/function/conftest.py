"""Fixtures shared by the function tests."""

import pytest

from graphfn.function import optimizer_options


@pytest.fixture
def verified_passes(monkeypatch):
    """Check graph invariants after every pass; restore the optimizer options afterwards."""
    monkeypatch.setattr(optimizer_options, "_verify", True)
    saved = dict(optimizer_options._options)
    yield
    optimizer_options._options.clear()
    optimizer_options._options.update(saved)
