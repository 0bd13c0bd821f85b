"""Reduced precision and complex matrix products, graphfn vs TensorFlow and JAX jit.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_dtypes.py [--repeat 5] [--json out.json]

Rows: eager 512 x 512 matmul in float16, bfloat16, complex64 (and float32 for reference), inputs
made before timing; the result is fetched (.numpy() / block_until_ready) in each call; and the
bfloat16 MLP 784-128-10 train step (batch 64, bench_matmul.py's float32 row in bfloat16: tape,
gradients, SGD assign_sub inside one function; the logits are cast to float32 for the loss, as
Keras's mixed_bfloat16 policy does). Cells are medians in µs. graphfn converts float16/bfloat16
to float (F16C for float16), runs the float GEMM over the intra-op pool and rounds once
(docs/design.md, "Reduced-precision instructions"); TF 2.21 uses oneDNN on both cores.
"""

import sys

import numpy as np

import graphfn as gf
from _harness import main_beside_tf_and_jax
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")

N = 512
DTYPES = ["float32", "float16", "bfloat16", "complex64"]


def _matrix(dtype):
    rng = np.random.default_rng(0)
    values = rng.random((N, N)).astype(np.float32)
    if dtype == "complex64":
        values = values + 1j * rng.random((N, N)).astype(np.float32)
    return values


def _lib_matmul(lib, dtype):
    a = lib.cast(lib.constant(_matrix(dtype)), getattr(lib, dtype))
    return lambda: lib.matmul(a, a).numpy()


def _jax_matmul(dtype):
    a = jnp.asarray(_matrix(dtype)).astype(getattr(jnp, dtype))
    product = jax.jit(lambda x: x @ x)
    return lambda: product(a).block_until_ready()


def _mlp_bfloat16_step(lib):
    """The bfloat16 MLP train step of one library: a call returning the float32 loss."""
    rng = np.random.default_rng(0)
    x = lib.cast(lib.constant(rng.standard_normal((64, 784)).astype(np.float32)), lib.bfloat16)
    y = lib.constant(rng.integers(0, 10, 64).astype(np.int32))
    initial = [rng.standard_normal((784, 128)).astype(np.float32) * 0.05, np.zeros(128, np.float32),
               rng.standard_normal((128, 10)).astype(np.float32) * 0.05, np.zeros(10, np.float32)]
    params = [lib.Variable(lib.cast(p, lib.bfloat16)) for p in initial]

    @lib.function
    def step(x, y):
        with lib.GradientTape() as tape:
            h = lib.nn.relu(lib.matmul(x, params[0]) + params[1])
            logits = lib.cast(lib.matmul(h, params[2]) + params[3], lib.float32)
            loss = lib.reduce_mean(lib.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.01 * g)
        return loss
    return lambda: step(x, y).numpy()


def _jax_mlp_bfloat16_step():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((64, 784)).astype(np.float32)).astype(jnp.bfloat16)
    y = jnp.asarray(rng.integers(0, 10, 64).astype(np.int32))
    initial = [rng.standard_normal((784, 128)).astype(np.float32) * 0.05, np.zeros(128, np.float32),
               rng.standard_normal((128, 10)).astype(np.float32) * 0.05, np.zeros(10, np.float32)]

    def loss_fn(params, x, y):
        h = jax.nn.relu(x @ params[0] + params[1])
        logits = (h @ params[2] + params[3]).astype(jnp.float32)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    @jax.jit
    def step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return [p - jnp.asarray(0.01, p.dtype) * g for p, g in zip(params, grads)], loss

    state = {"params": [jnp.asarray(p).astype(jnp.bfloat16) for p in initial]}

    def call():
        state["params"], loss = step(state["params"], x, y)
        return loss.block_until_ready()
    return call


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for dtype in DTYPES:
        row = {"benchmark": "matmul %dx%d %s" % (N, N, dtype), "us": {}}
        for name, lib in libs:
            row["us"][name] = time_per_call_us(_lib_matmul(lib, dtype), repeat)
        if jax is not None:
            row["us"]["JAX jit"] = time_per_call_us(_jax_matmul(dtype), repeat)
        results.append(row)
    row = {"benchmark": "function train step: MLP 784-128-10 bfloat16, batch 64", "us": {}}
    for name, lib in libs:
        row["us"][name] = time_per_call_us(_mlp_bfloat16_step(lib), repeat)
    if jax is not None:
        row["us"]["JAX jit"] = time_per_call_us(_jax_mlp_bfloat16_step(), repeat)
    results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
