"""AutoGraph conversion cost: converting a 30-line function (parse, transform, compile) the first
time, and the cached path afterwards (per code object).

    PYTHONPATH=python python3 benchmarks/bench_autograph.py [--repeat 7] [--json out.json]
"""

import time

import graphfn as gf
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


def run(repeat):
    from graphfn.autograph.impl import api
    cached = time_per_call_us(lambda: api.convert_function(thirty_lines), repeat)
    call = time_per_call_us(lambda: api.converted_call(thirty_lines, (1, 3, [1, 2]), None), repeat)
    plain = time_per_call_us(lambda: thirty_lines(1, 3, [1, 2]), repeat)
    return [
        {"benchmark": "convert 30-line function (first time)", "us": {"graphfn": first_conversion_us(max(repeat, 9))}},
        {"benchmark": "convert again (cached per code object)", "us": {"graphfn": cached}},
        {"benchmark": "converted_call, Python values", "us": {"graphfn": call}},
        {"benchmark": "plain Python call (baseline)", "us": {"graphfn": plain}},
    ]


if __name__ == "__main__":
    harness_main(__doc__, run, {}, [], 7)
