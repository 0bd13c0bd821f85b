"""What recording creation stacks costs while tracing (docs/function.md, "Executing graphs").

    PYTHONPATH=python python3 benchmarks/bench_defined_at.py

Traces a fresh 1000-op function (x * 2 chained; 2000 nodes with the constants) with capture off
and on, interleaved, at the script's stack depth and with 40 more Python frames below; reports
the median thread CPU time (wall time is too noisy on a shared machine).
"""
import statistics
import time

import graphfn as tf
from graphfn import _core


def body(x):
    for _ in range(1000):
        x = x * 2
    return x


def trace_once():
    f = tf.function(body, autograph=False)
    t0 = time.thread_time()
    f.get_concrete_function(tf.TensorSpec([], tf.int32))
    return time.thread_time() - t0


def nested(depth, fn):
    return fn() if depth == 0 else nested(depth - 1, fn)


def main():
    for depth in (0, 40):
        res = {True: [], False: []}
        for i in range(60):
            for on in (False, True):
                _core._set_defined_at_capture(on)
                res[on].append(nested(depth, trace_once))
        off, on = statistics.median(res[False]) * 1e3, statistics.median(res[True]) * 1e3
        print("extra stack depth %d: CPU time, median: capture off %.2f ms, on %.2f ms, +%.2f ms (%.1f%%), %.2f us/op"
              % (depth, off, on, on - off, 100 * (on - off) / off, (on - off)))
    _core._set_defined_at_capture(True)


if __name__ == "__main__":
    main()
