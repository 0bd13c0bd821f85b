"""One test per differential case (see run_differential.py): graphfn's result must match
TensorFlow 2.21's recorded result and, when `tensorflow` is importable here, TensorFlow's
result computed now. Cases marked `deliberate` (listed in docs/differences.md) or `gap` (a known
graphfn shortcoming, counted as failed in the summary) are strict xfails."""

import functools
import importlib.util
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_differential as rd  # noqa: E402

CASES = rd.load_cases()


def _real_tensorflow_importable():
    """Whether a fresh process can import the real TensorFlow. Not when `tensorflow` in this process
    is graphfn (tf.keras installs graphfn as tensorflow): its spec would say yes."""
    module = sys.modules.get("tensorflow")
    if module is not None:
        return not getattr(module, "_is_graphfn", False)
    return importlib.util.find_spec("tensorflow") is not None


LIVE = _real_tensorflow_importable() and os.environ.get("GRAPHFN_DIFF_LIVE", "1") != "0"


@functools.lru_cache(maxsize=None)
def _results(backend):
    return rd.run_cases(CASES, backend)["results"]


@functools.lru_cache(maxsize=None)
def _recorded():
    return rd.load_record()["cases"]


def _params():
    for c in CASES:
        marks = []
        if c.get("deliberate"):
            marks.append(pytest.mark.xfail(strict=True, reason="deliberate: " + c["deliberate"]))
        elif c.get("gap"):
            marks.append(pytest.mark.xfail(strict=True, reason="known gap: " + c["gap"]))
        yield pytest.param(c, id=c["id"], marks=marks)


@pytest.mark.parametrize("c", list(_params()))
def test_differential_case(c):
    actual = rd.normalised(c, _results("graphfn")[c["id"]])
    recorded = _recorded().get(c["id"])
    assert recorded is not None and recorded.get("code") == rd.code_hash(c), (
        "%s is not recorded or was edited since: run run_differential.py --record -k <id> under TensorFlow" % c["id"])
    problems = rd.mismatches(c, recorded, actual)
    assert not problems, rd.report(c, problems, "TensorFlow 2.21 (recorded)")
    if LIVE:
        live = rd.normalised(c, _results("tensorflow")[c["id"]])
        problems = rd.mismatches(c, live, actual)
        assert not problems, rd.report(c, problems, "TensorFlow (live)")
