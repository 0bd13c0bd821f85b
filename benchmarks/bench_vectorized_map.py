"""tf.vectorized_map beside TensorFlow's and JAX's vmap: per-example work batched by the transform.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_vectorized_map.py [--repeat 5] [--json out.json]

Rows: `vectorized_map(lambda x: tf.reduce_sum(x * x), elems)` on elems [1000, 64]; a per-example
gradient of a small dense layer (tape inside fn: d loss / d W, W [64, 16], 1000 examples, result
[1000, 64, 16]); a per-example jacobian of tanh(W x) (tape.jacobian-like: gradient of each output
through a batched one-hot, [256, 32] -> [256, 16, 32]). Each runs inside a `function` called
with the same input (TF: `tf.function`; JAX: `jax.jit(jax.vmap(...))`), plus one eager row, where
both graphfn and TF trace the transform on every call. Inputs are float32 tensors made before
timing; each cell is the median µs of one call. A ratio is the other library's time over
graphfn's (above 1: graphfn is faster).
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

_RNG = np.random.default_rng(0)
_ELEMS = _RNG.standard_normal((1000, 64)).astype(np.float32)
_W = (_RNG.standard_normal((64, 16)) * 0.1).astype(np.float32)
_LABELS = _RNG.standard_normal((1000, 16)).astype(np.float32)
_JAC_X = _RNG.standard_normal((256, 32)).astype(np.float32)
_JAC_W = (_RNG.standard_normal((16, 32)) * 0.1).astype(np.float32)


def _sum_of_squares(lib):
    elems = lib.constant(_ELEMS)
    f = lib.function(lambda e: lib.vectorized_map(lambda x: lib.reduce_sum(x * x), e))
    return lambda: f(elems)


def _sum_of_squares_eager(lib):
    elems = lib.constant(_ELEMS)
    return lambda: lib.vectorized_map(lambda x: lib.reduce_sum(x * x), elems)


def _per_example_gradient(lib):
    elems, labels, w = lib.constant(_ELEMS), lib.constant(_LABELS), lib.Variable(_W)

    def grad(t):
        x, y = t
        with lib.GradientTape() as tape:
            loss = lib.reduce_sum(lib.square(lib.nn.relu(lib.matmul(x[None], w)) - y))
        return tape.gradient(loss, w)

    f = lib.function(lambda e, l: lib.vectorized_map(grad, (e, l)))
    return lambda: f(elems, labels)


def _jacobian(lib):
    xs, w = lib.constant(_JAC_X), lib.constant(_JAC_W)
    eye = lib.eye(16)

    def jac(x):
        def row(v):
            with lib.GradientTape() as tape:
                tape.watch(x)
                y = lib.tanh(lib.linalg.matvec(w, x))
            return tape.gradient(y, x, output_gradients=v)
        return lib.stack([row(eye[i]) for i in range(16)])

    f = lib.function(lambda e: lib.vectorized_map(jac, e))
    return lambda: f(xs)


def _jax_rows():
    elems, labels, w = jnp.asarray(_ELEMS), jnp.asarray(_LABELS), jnp.asarray(_W)
    xs, jw = jnp.asarray(_JAC_X), jnp.asarray(_JAC_W)
    sos = jax.jit(jax.vmap(lambda x: jnp.sum(x * x)))
    loss = lambda w_, x, y: jnp.sum(jnp.square(jax.nn.relu(x[None] @ w_) - y))
    per_ex = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    jac = jax.jit(jax.vmap(jax.jacrev(lambda x: jnp.tanh(jw @ x))))
    return {"sum": lambda: sos(elems).block_until_ready(),
            "grad": lambda: per_ex(w, elems, labels).block_until_ready(),
            "jac": lambda: jac(xs).block_until_ready()}


ROWS = [
    ("reduce_sum(x*x) [1000,64] in function", _sum_of_squares, "sum"),
    ("per-example dense gradient [1000,64]x[64,16] in function", _per_example_gradient, "grad"),
    ("per-example jacobian tanh(Wx) [256,32]->[256,16,32] in function", _jacobian, "jac"),
    ("reduce_sum(x*x) [1000,64] eager (traced per call)", _sum_of_squares_eager, None),
]


def _check_agreement():
    """graphfn's results equal TF's before anything is timed."""
    if tf is None:
        return
    for name, make, _ in ROWS[:3]:
        ours, theirs = make(gf)(), make(tf)()
        np.testing.assert_allclose(np.asarray(ours), theirs.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def run(repeat):
    _check_agreement()
    jax_rows = _jax_rows() if jax is not None else {}
    results = []
    for name, make, jax_key in ROWS:
        row = {"benchmark": name, "us": {"graphfn": time_per_call_us(make(gf), repeat)}}
        if tf is not None:
            row["us"]["TensorFlow"] = time_per_call_us(make(tf), repeat)
        if jax_key is not None and jax_key in jax_rows:
            row["us"]["JAX jit"] = time_per_call_us(jax_rows[jax_key], repeat)
        results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
