"""Prints the one-line summaries of the conformance suites after a pytest run: the seed cells
and the differential cases."""


def _count(terminalreporter, marker):
    counts = {}
    for outcome in ("passed", "failed", "xfailed", "xpassed", "skipped"):
        counts[outcome] = [report for report in terminalreporter.stats.get(outcome, [])
                           if marker in getattr(report, "nodeid", "")]
    return counts


def pytest_terminal_summary(terminalreporter):
    seeds = {k: len(v) for k, v in _count(terminalreporter, "test_seeds.py::").items()}
    if any(seeds.values()):
        terminalreporter.write_line(
            f"seeds: {seeds['passed']} passed, {seeds['failed'] + seeds['xpassed']} failed"
            f" ({seeds['xfailed']} xfailed, {seeds['skipped']} not applicable)")
    diff = _count(terminalreporter, "test_differential.py::")
    if any(diff.values()):
        # Strict xfails are deliberate differences (docs/differences.md) or known gaps, which
        # count as failed.
        deliberate = sum(1 for r in diff["xfailed"] if "deliberate: " in str(getattr(r, "wasxfail", "")))
        gaps = len(diff["xfailed"]) - deliberate
        terminalreporter.write_line(
            f"differential: {len(diff['passed'])} passed,"
            f" {len(diff['failed']) + len(diff['xpassed']) + gaps} failed"
            f" ({deliberate} deliberate differences)")
