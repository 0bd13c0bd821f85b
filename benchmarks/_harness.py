"""Shared pieces of the benchmark scripts: timing, the Markdown table, the environment line."""

import os
import platform
import statistics
import timeit

import numpy as np

import graphfn as gf


def time_per_call_us(fn, repeat):
    for _ in range(3):
        fn()  # warm up caches, lazy kernel setup
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()  # calls per run so that one run takes >= 0.2 s
    runs = timer.repeat(repeat=repeat, number=number)
    return statistics.median(runs) / number * 1e6


def _fmt(us):
    return "%.2f" % us if us < 10 else "%.1f" % us if us < 1000 else "%.0f" % us


def markdown(results, others):
    """A table: one row per benchmark, graphfn's time, then each other library's time and ratio."""
    header = ["benchmark", "graphfn µs"]
    for name in others:
        header += ["%s µs" % name, "%s / graphfn" % name]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in results:
        base = row["us"]["graphfn"]
        cells = [row["benchmark"], _fmt(base)]
        for name in others:
            us = row["us"].get(name)
            cells += ["—", "—"] if us is None else [_fmt(us), "%.2fx" % (us / base)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def environment(**versions):
    env = {"python": platform.python_version(), "numpy": np.__version__, "graphfn": gf.__version__}
    env.update(versions)
    env.update({"cpus": os.cpu_count(), "machine": platform.machine()})
    return env
