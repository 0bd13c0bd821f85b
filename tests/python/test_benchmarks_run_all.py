"""benchmarks/run_all.py's table, footprint and chart helpers (the benchmarks themselves are not
run here: they take minutes)."""

import importlib.util
import os
import sys

import pytest

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks")
sys.path.insert(0, os.path.abspath(BENCH))
import run_all  # noqa: E402

ROWS = [{"benchmark": "a", "us": {"graphfn": 2.0, "TensorFlow": 10.0}},
        {"benchmark": "b", "us": {"graphfn": 4.0, "JAX jit": 2.0, "NumPy": 1.0}}]


def test_benchmark_table_has_medians_and_ratios():
    lines = run_all.benchmark_table(ROWS).splitlines()
    assert lines[0] == ("| benchmark | graphfn µs | NumPy µs | NumPy / graphfn | TensorFlow µs | "
                        "TensorFlow / graphfn | JAX jit µs | JAX jit / graphfn |")
    assert lines[2] == "| a | 2.00 | — | — | 10.0 | 5.00x | — | — |"
    assert lines[3] == "| b | 4.00 | 1.00 | 0.25x | — | — | 2.00 | 0.50x |"


def test_footprint_of_graphfn():
    cost = run_all.import_cost("graphfn", runs=1)
    assert cost is not None and cost[0] > 0 and cost[1] > 0
    assert run_all.package_size_mb("graphfn") > 0
    assert run_all.import_cost("no_such_module_here") is None
    fp = {"imports": [{"package": "graphfn", "import_s": 0.05, "rss_mb": 40.0, "size_mb": 3.2}],
          "baseline_rss_mb": 10.0, "wheel": "graphfn-0.1.0.whl", "wheel_mb": 1.5}
    table = run_all.footprint_table(fp)
    assert "| graphfn | 50 ms | 40 MB | 3.2 MB |" in table
    assert "Wheel `graphfn-0.1.0.whl`: 1.5 MB." in table


def test_chart_needs_matplotlib(tmp_path):
    path = tmp_path / "chart.png"
    written = run_all.write_chart(ROWS, str(path))
    assert written == (importlib.util.find_spec("matplotlib") is not None)
    assert path.exists() == written
