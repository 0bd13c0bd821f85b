"""Convolution and pooling: tf.nn.conv2d forward and forward + backward, tf.nn.max_pool2d forward
and forward + backward, eagerly and inside a function, vs TensorFlow (and jax.jit).

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_nn.py [--repeat 5] [--json out.json]

Shapes: input [32, 28, 28, 32] float32, filter [3, 3, 32, 64], SAME padding, stride 1; the max
pool is 2x2 with stride 2 on the convolution's output [32, 28, 28, 64]. "backward" rows compute
the gradients with respect to every input (input and filter; the pooled tensor) under a
GradientTape (jax.grad). Cells are medians in µs; "TensorFlow / graphfn" above 1 means graphfn
is faster. Both libraries use every core.
"""

import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")

_rng = np.random.RandomState(0)
X = _rng.randn(32, 28, 28, 32).astype(np.float32)
W = (_rng.randn(3, 3, 32, 64) * 0.1).astype(np.float32)
P = _rng.randn(32, 28, 28, 64).astype(np.float32)


def _conv(lib, x, w):
    return lib.nn.conv2d(x, w, 1, "SAME")


def _pool(lib, p):
    return lib.nn.max_pool2d(p, 2, 2, "SAME")


def _conv_forward(lib, in_function):
    x, w = lib.constant(X), lib.constant(W)
    fn = lib.function(_conv) if in_function else _conv
    return lambda: fn(lib, x, w)


def _conv_backward(lib, in_function):
    x, w = lib.constant(X), lib.constant(W)

    def step(x, w):
        with lib.GradientTape() as tape:
            tape.watch([x, w])
            y = lib.reduce_sum(_conv(lib, x, w))
        return tape.gradient(y, [x, w])
    fn = lib.function(step) if in_function else step
    return lambda: fn(x, w)


def _pool_forward(lib, in_function):
    p = lib.constant(P)
    fn = lib.function(_pool) if in_function else _pool
    return lambda: fn(lib, p)


def _pool_backward(lib, in_function):
    p = lib.constant(P)

    def step(p):
        with lib.GradientTape() as tape:
            tape.watch(p)
            y = lib.reduce_sum(_pool(lib, p))
        return tape.gradient(y, p)
    fn = lib.function(step) if in_function else step
    return lambda: fn(p)


ROWS = [("conv2d forward", _conv_forward), ("conv2d forward + backward", _conv_backward),
        ("max_pool2d forward", _pool_forward), ("max_pool2d forward + backward", _pool_backward)]


def _jax_rows(repeat):
    x, w, p = jnp.asarray(X), jnp.asarray(W), jnp.asarray(P)

    def conv(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def pool(p):
        return jax.lax.reduce_window(p, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "SAME")
    conv_f = jax.jit(conv)
    conv_b = jax.jit(jax.grad(lambda x, w: jnp.sum(conv(x, w)), argnums=(0, 1)))
    pool_f = jax.jit(pool)
    pool_b = jax.jit(jax.grad(lambda p: jnp.sum(pool(p))))
    ready = jax.block_until_ready
    times = {
        "conv2d forward": time_per_call_us(lambda: ready(conv_f(x, w)), repeat),
        "conv2d forward + backward": time_per_call_us(lambda: ready(conv_b(x, w)), repeat),
        "max_pool2d forward": time_per_call_us(lambda: ready(pool_f(p)), repeat),
        "max_pool2d forward + backward": time_per_call_us(lambda: ready(pool_b(p)), repeat),
    }
    return {name + suffix: t for name, t in times.items() for suffix in (", eager", ", function")}


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    jax_times = _jax_rows(repeat) if jax is not None else {}
    results = []
    for name, make in ROWS:
        for in_function in (False, True):
            label = name + (", function" if in_function else ", eager")
            row = {"benchmark": label, "us": {}}
            for lib_name, lib in libs:
                row["us"][lib_name] = time_per_call_us(make(lib, in_function), repeat)
            if label in jax_times:
                row["us"]["JAX jit"] = jax_times[label]
            results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
