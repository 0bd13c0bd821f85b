"""A cache-hit call of graphfn.function per call form, vs tf.function (and jax.jit where JAX has
the same form).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_call_forms.py [--repeat 7] [--json out.json]

Every row calls a trivial function (one add, or a few for the nested row) on scalar tensors that
was traced before timing, so the row measures the call's overhead: binding the arguments, the
cache key, feeding, running a one-op plan and packing the result. Cells are medians in µs.
Rows: positional f(x); keyword f(x=x); a default left out f(x) of f(x, y=1.0); a nested dict
and list f({"a": x, "b": [x, x]}); a Variable argument f(v); a method of a tf.Module
m.scale(x); and f(x) while an outer GradientTape records (x not watched: no gradient needed).
"""

import sys

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")


def _positional(lib):
    fn = lib.function(lambda x: x + 1)
    x = lib.constant(1.0)
    return lambda: fn(x)


def _keyword(lib):
    fn = lib.function(lambda x: x + 1)
    x = lib.constant(1.0)
    return lambda: fn(x=x)


def _defaults(lib):
    fn = lib.function(lambda x, y=1.0: x + y)
    x = lib.constant(1.0)
    return lambda: fn(x)


def _nested(lib):
    fn = lib.function(lambda d: d["a"] + d["b"][0] + d["b"][1])
    x = lib.constant(1.0)
    arg = {"a": x, "b": [x, x]}
    return lambda: fn(arg)


def _variable(lib):
    fn = lib.function(lambda v: v + 1)
    v = lib.Variable(1.0)
    return lambda: fn(v)


def _method(lib):
    class Scaler(lib.Module):
        @lib.function
        def scale(self, x):
            return x + 1

    m = Scaler()
    x = lib.constant(1.0)
    return lambda: m.scale(x)


def _under_tape(lib):
    fn = lib.function(lambda x: x + 1)
    x = lib.constant(1.0)
    return lambda: fn(x), lib.GradientTape  # timed inside the tape (x is not watched)


ROWS = [("positional f(x)", _positional), ("keyword f(x=x)", _keyword), ("default argument left out", _defaults),
        ("nested dict/list argument", _nested), ("Variable argument", _variable), ("tf.Module method", _method),
        ("outer GradientTape active", _under_tape)]


def _jax_rows(repeat):
    one = jnp.asarray(1.0, dtype=jnp.float32)
    inc = jax.jit(lambda x: x + 1)
    with_default = jax.jit(lambda x, y=1.0: x + y)
    nested = jax.jit(lambda d: d["a"] + d["b"][0] + d["b"][1])
    arg = {"a": one, "b": [one, one]}
    return {
        "positional f(x)": time_per_call_us(lambda: inc(one).block_until_ready(), repeat),
        "keyword f(x=x)": time_per_call_us(lambda: inc(x=one).block_until_ready(), repeat),
        "default argument left out": time_per_call_us(lambda: with_default(one).block_until_ready(), repeat),
        "nested dict/list argument": time_per_call_us(lambda: nested(arg).block_until_ready(), repeat),
    }


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    jax_times = _jax_rows(repeat) if jax is not None else {}
    results = []
    for name, make in ROWS:
        row = {"benchmark": name, "us": {}}
        for lib_name, lib in libs:
            made = make(lib)
            if isinstance(made, tuple):
                call, context = made
                with context():
                    row["us"][lib_name] = time_per_call_us(call, repeat)
            else:
                row["us"][lib_name] = time_per_call_us(made, repeat)
        if name in jax_times:
            row["us"]["JAX jit"] = jax_times[name]
        results.append(row)
    base = results[0]["us"]["graphfn"]
    for row in results:
        row["ratio to positional"] = row["us"]["graphfn"] / base
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 7, argv)


if __name__ == "__main__":
    sys.exit(main())
