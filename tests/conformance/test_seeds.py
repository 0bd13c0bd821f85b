"""One test per code cell of the seed documents (see run_seeds.py). A document's cells run
once, in order, in one namespace; each test checks one cell's normalised output."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_seeds  # noqa: E402

_results = {}


def _document_results(name):
    if name not in _results:
        _results[name] = run_seeds.run_document(name)
    return _results[name]


def _cases():
    for name in run_seeds.DOCUMENTS:
        for cell in run_seeds.load_document(name).CELLS:
            marks = []
            if cell.get("status") == "xfail":
                marks.append(pytest.mark.xfail(strict=True, reason=cell["reason"]))
            yield pytest.param(name, cell, id=cell["id"], marks=marks)


@pytest.mark.parametrize("document, cell", list(_cases()))
def test_seed_cell(document, cell):
    if cell.get("status") == "not_applicable":
        pytest.skip("not applicable: " + cell["reason"])
    result = _document_results(document)[cell["id"]]
    assert not result.mismatches(), result.report()
