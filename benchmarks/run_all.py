"""Every benchmark in one run: graphfn next to NumPy, TensorFlow and JAX's jit (where installed and
the workload has an equivalent), plus import time, peak memory and installed size.

    python benchmarks/run_all.py [--repeat 5] [--wheel dist/graphfn-*.whl] [--no-files]

Prints one Markdown table of medians (µs per call) and ratios (other / graphfn: above 1 means
graphfn is faster), then the import/size table, and writes benchmarks/results.md and
benchmarks/results.png (the chart needs matplotlib). The rows come from the bench_*.py scripts'
own `run()` functions.
"""

import argparse
import datetime
import importlib
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import _harness  # noqa: E402  (benchmarks/ is on the path now)

# (module, section title, repeat used when --repeat is not given: the script's own default)
SUITES = [
    ("bench_eager", "eager ops", 15),
    ("bench_function", "function", 7),
    ("bench_call_forms", "function call forms", 7),
    ("bench_control_flow", "control flow", 5),
    ("bench_fizzbuzz", "FizzBuzz", 3),
    ("bench_autograph", "AutoGraph conversion", 7),
    ("bench_gradients", "gradients", 15),
    ("bench_indexing", "sorting and n-d indexing", 5),
    ("bench_dtypes", "float16, bfloat16 and complex matmul, bfloat16 MLP", 5),
    ("bench_signal", "FFTs", 7),
    ("bench_strings", "tf.strings over 100 000 sentences", 5),
    ("bench_matmul", "matrix products", 5),
    ("bench_conv", "convolutions", 5),
    ("bench_elementwise", "element-wise, reductions, softmax, casts on 1M floats", 5),
    ("bench_inter_op", "inter-op parallelism: multi-tower models", 5),
    ("bench_keras", "Keras 3 (model.fit/predict; graphfn and TF each in its own process)", 3),
]
LIBRARY_ORDER = ["graphfn", "NumPy", "TensorFlow", "JAX jit", "PyTorch eager"]


def run_benchmarks(repeat):
    rows = []
    for module_name, section, default_repeat in SUITES:
        module = importlib.import_module(module_name)
        print("running %s ..." % module_name, file=sys.stderr, flush=True)
        for row in module.run(repeat or default_repeat):
            rows.append(dict(row, benchmark="%s: %s" % (section, row["benchmark"])))
    return rows


# Import cost and size ------------------------------------------------------------------------------

_PROBE = """
import resource, sys, time
start = time.perf_counter()
{statement}
elapsed = time.perf_counter() - start
kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:  # VmHWM is this process's own peak; ru_maxrss can carry the forking parent's over exec
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    pass
print(elapsed, kb)
"""


def import_cost(module, statement=None, runs=5):
    """(median seconds, median peak RSS in MB) of `statement` (default `import module`) in fresh
    interpreters, or None. Bytecode caching is on and a first untimed run fills the cache, as an
    installed package's is filled by pip (PYTHONDONTWRITEBYTECODE would recompile every module)."""
    if importlib.util.find_spec(module) is None:
        return None
    env = _harness.fresh_interpreter_env()
    probe = _PROBE.format(statement=statement or "import " + module)
    times, rss = [], []
    for run in range(runs + 1):
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            return None
        if run == 0:
            continue
        seconds, kilobytes = proc.stdout.split()[-2:]
        times.append(float(seconds))
        rss.append(int(kilobytes) / 1024)
    return statistics.median(times), statistics.median(rss)


def baseline_rss(runs=3):
    """Peak RSS of an interpreter that imports nothing (part of every import's number)."""
    values = []
    for _ in range(runs):
        proc = subprocess.run([sys.executable, "-c", _PROBE.format(statement="import sys")], capture_output=True, text=True)
        values.append(int(proc.stdout.split()[-1]) / 1024)
    return statistics.median(values)


def package_size_mb(module):
    """On-disk size of an installed package's directory (its dependencies not included)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    total = 0
    for location in spec.submodule_search_locations:
        for root, _, files in os.walk(location):
            for name in files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    total += os.path.getsize(path)
    return total / 1e6


def footprint(wheel):
    rows = []
    # graphfn loads NumPy on first use (printing a tensor, .numpy(), converting a list), so the
    # second row is graphfn's import plus that first use.
    probes = [("graphfn", "graphfn", None),
              ("graphfn, then str(constant([1.0])) (loads NumPy)", "graphfn",
               "import graphfn; str(graphfn.constant([1.0]))"),
              ("numpy", "numpy", None), ("tensorflow", "tensorflow", None), ("jax", "jax", None)]
    for label, module, statement in probes:
        cost = import_cost(module, statement)
        if cost is None and module != "graphfn":
            continue
        rows.append({"package": label, "import_s": cost and cost[0], "rss_mb": cost and cost[1],
                     "size_mb": package_size_mb(module) if statement is None else None})
    wheel_mb = os.path.getsize(wheel) / 1e6 if wheel else None
    return {"imports": rows, "baseline_rss_mb": baseline_rss(), "wheel": wheel and os.path.basename(wheel),
            "wheel_mb": wheel_mb}


# Output ----------------------------------------------------------------------------------------------

def libraries(rows):
    present = {name for row in rows for name in row["us"]}
    return [n for n in LIBRARY_ORDER if n in present] + sorted(present - set(LIBRARY_ORDER))


def benchmark_table(rows):
    return _harness.markdown(rows, [n for n in libraries(rows) if n != "graphfn"])


def footprint_table(fp):
    lines = ["| package | import time | peak RSS after import | installed size |", "|---|---:|---:|---:|"]
    for r in fp["imports"]:
        lines.append("| %s | %s | %s | %s |" % (
            r["package"], "—" if r["import_s"] is None else "%.0f ms" % (r["import_s"] * 1000),
            "—" if r["rss_mb"] is None else "%.0f MB" % r["rss_mb"],
            "—" if r["size_mb"] is None else "%.1f MB" % r["size_mb"]))
    notes = ["Peak RSS includes the interpreter itself (%.0f MB with nothing imported); installed size is "
             "the package's own directory, without its dependencies." % fp["baseline_rss_mb"]]
    if fp["wheel"]:
        notes.append("Wheel `%s`: %.1f MB." % (fp["wheel"], fp["wheel_mb"]))
    return "\n".join(lines) + "\n\n" + " ".join(notes)


def _cpu_model():
    """The CPU's model name and vector extensions (AVX2, AVX-512) from /proc/cpuinfo, where it exists."""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return platform.processor() or "?"
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "?")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    extensions = [name for name in ("avx2", "fma", "avx512f") if name in flags]
    return "%s (%s)" % (model, ", ".join(extensions)) if extensions else model


def environment():
    env = {"python": platform.python_version(), "machine": platform.machine(), "cpu": _cpu_model(),
           "cpus": os.cpu_count()}
    if hasattr(os, "getloadavg"):  # a shared machine's load inflates every absolute number
        env["load average"] = "%.1f" % os.getloadavg()[0]
    from graphfn import _core
    env["graphfn intra-op threads"] = _core.parallel_threads()  # the pool's size (its first use fixes it)
    for module in ("numpy", "graphfn", "tensorflow", "jax", "torch"):
        if importlib.util.find_spec(module) is not None:
            env[module] = getattr(importlib.import_module(module), "__version__", "?")
    return env


def write_chart(rows, path):
    """Horizontal bars from the 1x line: each library's time relative to graphfn's, per benchmark
    that has another library (log scale; right of the line, graphfn is faster)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [row for row in rows if len(row["us"]) > 1]
    others = [n for n in libraries(rows) if n != "graphfn"]
    height = 0.8 / max(1, len(others))
    fig, ax = plt.subplots(figsize=(10, 0.25 * len(rows) * max(1, len(others)) + 1.5))
    for k, lib in enumerate(others):
        ys = [i + k * height for i, row in enumerate(rows) if lib in row["us"]]
        ratios = [row["us"][lib] / row["us"]["graphfn"] for row in rows if lib in row["us"]]
        ax.barh(ys, [r - 1 for r in ratios], left=1, height=height, label=lib)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks([i + (len(others) - 1) * height / 2 for i in range(len(rows))])
    ax.set_yticklabels([row["benchmark"] for row in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("time relative to graphfn (log scale; > 1: graphfn is faster)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, help="timeit runs per cell (default: each script's own)")
    parser.add_argument("--wheel", help="a built graphfn wheel, to report its size")
    parser.add_argument("--out-dir", default=HERE, help="where results.md/.png/.json go (default: benchmarks/)")
    parser.add_argument("--no-files", action="store_true", help="print only")
    parser.add_argument("--rows-from", metavar="JSON", help="take the timing rows from an earlier run's "
                        "results.json instead of running the benchmarks (import and size are measured anew)")
    args = parser.parse_args(argv)

    rows_date = None
    if args.rows_from:
        with open(args.rows_from) as f:
            earlier = json.load(f)
        rows, rows_date = earlier["results"], earlier["date"]
    else:
        rows = run_benchmarks(args.repeat)
    fp = footprint(args.wheel)
    env = environment()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    env_line = ", ".join("%s %s" % kv for kv in env.items())
    table = benchmark_table(rows)
    print(env_line + "\n\n" + table + "\n\n" + footprint_table(fp))
    if args.no_files:
        return 0
    os.makedirs(args.out_dir, exist_ok=True)
    chart = write_chart(rows, os.path.join(args.out_dir, "results.png"))
    with open(os.path.join(args.out_dir, "results.md"), "w", encoding="utf-8") as f:
        f.write("# Benchmark results\n\nRun on %s with `python benchmarks/run_all.py`: %s.\n\n" % (when, env_line))
        if rows_date:
            f.write("Timings from the run of %s; import time, memory and size measured at the date above.\n\n"
                    % rows_date)
        f.write("The machine is shared (see the load average): absolute times are inflated, ratios less so.\n\n")
        f.write("Medians in µs per call; `X / graphfn` above 1 means graphfn is faster.\n\n")
        f.write(table + "\n\n## Import and size\n\n" + footprint_table(fp) + "\n")
        if chart:
            f.write("\n![time relative to graphfn](results.png)\n")
        else:
            f.write("\n(No chart: matplotlib is not installed.)\n")
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump({"date": rows_date or when, "environment": env, "results": rows, "footprint": fp}, f, indent=1)
    print("\nwrote %s (%s)" % (os.path.join(args.out_dir, "results.md"),
                               "with results.png" if chart else "matplotlib not installed: no results.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
