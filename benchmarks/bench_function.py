"""graphfn.function vs tf.function (and jax.jit when installed), with eager baselines.

    PYTHONPATH=python /work/tfenv/bin/python benchmarks/bench_function.py [--repeat 7] [--json out.json]

Rows: the seeds' power(x, 100) (100 chained 10x10 int32 matmuls) eagerly and as a graph; a
cache-hit call of a trivial function (x + 1 on a scalar); and tracing cost per recorded op
(tracing power(x, 1000) with a fresh function, divided by 1000). Cells are medians in µs.
"""

import sys
import time

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")


def power(lib, x, y):
    """The seeds' benchmark, written once for graphfn and TensorFlow."""
    result = lib.eye(10, dtype=lib.int32)
    for _ in range(y):
        result = lib.matmul(x, result)
    return result


def _x(lib):
    rng = np.random.default_rng(0)
    return lib.constant(rng.integers(-1, 2, size=(10, 10)).astype(np.int32))


def _power_eager(lib):
    x = _x(lib)
    return lambda: power(lib, x, 100)


def _power_graph(lib):
    x = _x(lib)
    fn = lib.function(lambda x, y: power(lib, x, y))
    return lambda: fn(x, 100)


def _trivial_call(lib):
    fn = lib.function(lambda x: x + 1)
    x = lib.constant(1.0)
    return lambda: fn(x)


def _tracing_per_op(lib, repeat):
    x = _x(lib)
    times = []
    for _ in range(max(3, repeat // 2)):
        fn = lib.function(lambda x, y: power(lib, x, y))
        start = time.perf_counter()
        fn.get_concrete_function(x, 1000)
        times.append((time.perf_counter() - start) / 1000 * 1e6)
    return sorted(times)[len(times) // 2]


def _jax_rows(repeat):
    x = jnp.asarray(np.random.default_rng(0).integers(-1, 2, size=(10, 10)).astype(np.int32))

    def jpower(x):
        result = jnp.eye(10, dtype=jnp.int32)
        for _ in range(100):
            result = jnp.matmul(x, result)
        return result

    jitted = jax.jit(jpower)
    trivial = jax.jit(lambda v: v + 1)
    one = jnp.asarray(1.0, dtype=jnp.float32)
    return {
        "power(x, 100), graph": time_per_call_us(lambda: jitted(x).block_until_ready(), repeat),
        "trivial function call (x + 1)": time_per_call_us(lambda: trivial(one).block_until_ready(), repeat),
    }


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    rows = [("power(x, 100), eager", _power_eager), ("power(x, 100), graph", _power_graph),
            ("trivial function call (x + 1)", _trivial_call)]
    jax_times = _jax_rows(repeat) if jax is not None else {}
    results = []
    for name, make in rows:
        row = {"benchmark": name, "us": {lib_name: time_per_call_us(make(lib), repeat) for lib_name, lib in libs}}
        if name in jax_times:
            row["us"]["JAX jit"] = jax_times[name]
        results.append(row)
    results.append({"benchmark": "tracing, per recorded op",
                    "us": {lib_name: _tracing_per_op(lib, repeat) for lib_name, lib in libs}})
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 7, argv)


if __name__ == "__main__":
    sys.exit(main())
