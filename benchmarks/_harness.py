"""Shared pieces of the benchmark scripts: timing, the Markdown table, the environment line."""

import argparse
import importlib
import json
import os
import platform
import statistics
import sys
import timeit

import numpy as np

import graphfn as gf


def fresh_interpreter_env():
    """The environment for timing a new interpreter: this one's import path, and bytecode caching
    on (PYTHONDONTWRITEBYTECODE would make every import recompile graphfn's modules, where an
    installed package has its .pyc files from pip)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


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
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
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


def main(doc, run, versions, others, default_repeat, argv=None):
    """The command line shared by the benchmark scripts: --repeat, --json; prints the table."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=default_repeat, help="timeit runs per cell (median is reported)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON to PATH")
    args = parser.parse_args(argv)
    results = run(args.repeat)
    env = environment(**versions)
    print(", ".join("%s %s" % kv for kv in env.items() if kv[1] is not None))
    print()
    print(markdown(results, others))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"environment": env, "repeat": args.repeat, "results": results}, f, indent=2)
    return 0


def main_beside_tf_and_jax(doc, run, tf, jax, default_repeat, argv=None):
    """main() for a script whose rows compare graphfn with TensorFlow and JAX jit (each module
    None when not installed)."""
    versions = {"tensorflow": tf.__version__ if tf is not None else None,
                "jax": jax.__version__ if jax is not None else None}
    others = (["TensorFlow"] if tf is not None else []) + (["JAX jit"] if jax is not None else [])
    return main(doc, run, versions, others, default_repeat, argv)


def optional(module_name):
    """The module, or None when it is not installed: TensorFlow and JAX are optional extras
    (pip install .[bench]); TF's C++ start-up logging is silenced first."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        return importlib.import_module(module_name)
    except ImportError:
        return None
