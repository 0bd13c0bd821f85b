"""graphfn.while_loop / graphfn.cond inside graphfn.function vs TensorFlow's tf.function (and
jax.jit of lax.while_loop / lax.cond when JAX is installed).

    PYTHONPATH=python /work/tfenv/bin/python benchmarks/bench_control_flow.py [--repeat 7] [--json out.json]

Rows: a counting loop (`i + 1` while `i < n`, scalar int32) run for 10 000 iterations, reported
per iteration; the same loop with maximum_iterations; a loop whose body holds a cond; a loop
writing a TensorArray of 10 000 elements (AutoGraph's `for i in tf.range(n)`) then stacking it;
and one call of a function made of a single cond (x + 1 or x - 1). Cells are medians in µs. XLA compiles
JAX's loops to machine code and may simplify a loop this plain, so its per-iteration times
measure a different thing: what an optimising compiler makes of the loop.
"""

import sys

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")
lax = optional("jax.lax")

N = 10000


def _count(lib, **kwargs):
    fn = lib.function(lambda n: lib.while_loop(lambda i: i < n, lambda i: i + 1, [0], **kwargs))
    n = lib.constant(N)
    return lambda: fn(n)


def _count_max_iterations(lib):
    return _count(lib, maximum_iterations=N)


def _loop_with_cond(lib):
    def body(i, s):
        return i + 1, lib.cond(i % 2 == 0, lambda: s + i, lambda: s - i)
    fn = lib.function(lambda n: lib.while_loop(lambda i, s: i < n, body, (0, 0)))
    n = lib.constant(N)
    return lambda: fn(n)


def _tensor_array_writes(lib):
    @lib.function
    def fill(n):
        ta = lib.TensorArray(lib.float32, size=n)
        for i in lib.range(n):
            ta = ta.write(i, lib.cast(i, lib.float32))
        return ta.stack()
    n = lib.constant(N)
    return lambda: fill(n)


def _single_cond(lib):
    fn = lib.function(lambda x: lib.cond(x > 0, lambda: x + 1, lambda: x - 1))
    x = lib.constant(1)
    return lambda: fn(x)


def _jax_rows(repeat):
    """The same workloads as jitted JAX functions (no maximum_iterations equivalent)."""
    count = jax.jit(lambda n: lax.while_loop(lambda i: i < n, lambda i: i + 1, 0))

    def body(carry):
        i, s = carry
        return i + 1, lax.cond(i % 2 == 0, lambda: s + i, lambda: s - i)

    with_cond = jax.jit(lambda n: lax.while_loop(lambda c: c[0] < n, body, (0, 0)))
    single = jax.jit(lambda x: lax.cond(x > 0, lambda: x + 1, lambda: x - 1))
    n, x = jnp.int32(N), jnp.int32(1)
    return {
        "while_loop i + 1 < n, per iteration": time_per_call_us(lambda: count(n).block_until_ready(), repeat) / N,
        "while_loop with a cond in the body, per iteration":
            time_per_call_us(lambda: with_cond(n)[1].block_until_ready(), repeat) / N,
        "function with one cond, per call": time_per_call_us(lambda: single(x).block_until_ready(), repeat),
    }


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    per_iteration = [("while_loop i + 1 < n, per iteration", _count),
                     ("... with maximum_iterations, per iteration", _count_max_iterations),
                     ("while_loop with a cond in the body, per iteration", _loop_with_cond),
                     ("TensorArray.write in a tf.range loop, per iteration", _tensor_array_writes)]
    results = []
    for name, make in per_iteration:
        results.append({"benchmark": name,
                        "us": {lib_name: time_per_call_us(make(lib), repeat) / N for lib_name, lib in libs}})
    results.append({"benchmark": "function with one cond, per call",
                    "us": {lib_name: time_per_call_us(_single_cond(lib), repeat) for lib_name, lib in libs}})
    if jax is not None:
        jax_us = _jax_rows(repeat)
        for row in results:
            if row["benchmark"] in jax_us:
                row["us"]["JAX jit"] = jax_us[row["benchmark"]]
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
