"""Prints the one-line summary of the seed conformance cells after a pytest run."""


def pytest_terminal_summary(terminalreporter):
    counts = {}
    for outcome in ("passed", "failed", "xfailed", "xpassed", "skipped"):
        counts[outcome] = sum(1 for report in terminalreporter.stats.get(outcome, [])
                              if "test_seeds.py::" in getattr(report, "nodeid", ""))
    if any(counts.values()):
        terminalreporter.write_line(
            f"seeds: {counts['passed']} passed, {counts['failed'] + counts['xpassed']} failed"
            f" ({counts['xfailed']} xfailed, {counts['skipped']} not applicable)")
