"""AutoGraph conversion cost: converting a 30-line function (parse, transform, compile) the first
time, the same as the first conversion of a new interpreter (which also compiles the code
templates once), and the cached path afterwards (per code object).

    PYTHONPATH=python python3 benchmarks/bench_autograph.py [--repeat 7] [--json out.json]
"""

import os
import statistics
import subprocess
import sys
import time

import graphfn as gf
from _harness import fresh_interpreter_env
from _harness import main as harness_main
from _harness import time_per_call_us


def thirty_lines(x, n, items):
    total = 0
    count = 0
    for item in items:
        if item < 0:
            continue
        if item > 100:
            break
        total += item
    i = 0
    while i < n:
        if i % 2 == 0:
            x = x + 1
        elif i % 3 == 0:
            x = x - 1
        else:
            x = x * 2
        i += 1
        count += 1
    y = x if x > 0 else -x
    z = x > 0 and y < 10 or not count
    for j in range(3):
        total += j
    if total > 10:
        return y, z, total
    s = gf.reduce_sum(gf.constant([1, 2]))
    return s, z, total


def first_conversion_us(repeat):
    from graphfn.autograph.impl import api, conversion
    times = []
    for _ in range(repeat):
        conversion._cache.clear()
        api._instances.clear()
        start = time.perf_counter()
        gf.autograph.to_graph(thirty_lines)
        times.append((time.perf_counter() - start) * 1e6)
    return sorted(times)[len(times) // 2]


_FRESH_PROCESS = """
import sys, time
sys.path.insert(0, {here!r})
import graphfn.autograph
import bench_autograph
start = time.perf_counter()
graphfn.autograph.to_graph(bench_autograph.thirty_lines)
print((time.perf_counter() - start) * 1e6)
"""


def fresh_process_conversion_us(runs=5):
    """The first conversion in a new interpreter (AutoGraph already imported): it also pays for
    compiling each code template the converters use, once per process."""
    code = _FRESH_PROCESS.format(here=os.path.dirname(os.path.abspath(__file__)))
    env = fresh_interpreter_env()
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                  check=True).stdout.split()[-1]) for _ in range(runs)]
    return statistics.median(times)


def run(repeat):
    from graphfn.autograph.impl import api
    cached = time_per_call_us(lambda: api.convert_function(thirty_lines), repeat)
    call = time_per_call_us(lambda: api.converted_call(thirty_lines, (1, 3, [1, 2]), None), repeat)
    plain = time_per_call_us(lambda: thirty_lines(1, 3, [1, 2]), repeat)
    return [
        {"benchmark": "convert 30-line function (first time)", "us": {"graphfn": first_conversion_us(max(repeat, 9))}},
        {"benchmark": "... the first conversion in a fresh process", "us": {"graphfn": fresh_process_conversion_us()}},
        {"benchmark": "convert again (cached per code object)", "us": {"graphfn": cached}},
        {"benchmark": "converted_call, Python values", "us": {"graphfn": call}},
        {"benchmark": "plain Python call (baseline)", "us": {"graphfn": plain}},
    ]


if __name__ == "__main__":
    harness_main(__doc__, run, {}, [], 7)
