"""Ragged-tensor ops on 10 000 rows of 0-19 int32 values each, graphfn vs TensorFlow 2.21
(eager, and one tf.function row).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_ragged.py [--repeat 5] [--json out.json]

Rows: tf.ragged.constant from nested lists; an element-wise expression (rt * 2 + 1); reduce_sum
along the ragged axis; to_tensor; a slice of the ragged dimension (rt[:, 1:]); gathering 100
rows; tf.ragged.range of the row lengths; and a cache-hit call of a function taking the ragged
tensor (traced by its RaggedTensorSpec). Cells are medians in µs.
"""

import numpy as np

import graphfn as gf
from _harness import main_beside_tf_and_jax
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")

_LENGTHS = np.random.default_rng(0).integers(0, 20, size=10000)
_ROWS = [list(range(n)) for n in _LENGTHS]


def _rows(lib):
    rt = lib.ragged.constant(_ROWS)
    f = lib.function(lambda x: lib.reduce_sum(x * 2, axis=1))
    indices = lib.range(100)
    return [
        ("tf.ragged.constant (10k rows)", lambda: lib.ragged.constant(_ROWS)),
        ("rt * 2 + 1", lambda: rt * 2 + 1),
        ("reduce_sum(rt, axis=1)", lambda: lib.reduce_sum(rt, axis=1)),
        ("rt.to_tensor()", lambda: rt.to_tensor()),
        ("rt[:, 1:]", lambda: rt[:, 1:]),
        ("gather 100 rows", lambda: lib.gather(rt, indices)),
        ("tf.ragged.range(lengths)", lambda: lib.ragged.range(_LENGTHS)),
        ("function(rt) cache hit", lambda: f(rt)),
    ]


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    table = {}
    for lib_name, lib in libs:
        for name, call in _rows(lib):
            table.setdefault(name, {})[lib_name] = time_per_call_us(call, repeat)
    return [{"benchmark": name, "us": us} for name, us in table.items()]


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    raise SystemExit(main())
