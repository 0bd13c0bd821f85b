"""Heavy kernels (issue 19): matrix products, graphfn vs TensorFlow, JAX jit and PyTorch eager.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_matmul.py [--repeat 5] [--json out.json]

Matrix product rows (matmul_rows): eager float32 matmul 1000x1000 and 256x256, a batched
[64,128,128] x [64,128,128] matmul, and the MLP 784-128-10 train step (batch 64) under
tf.function / jax.jit / PyTorch eager (float16 and bfloat16 products are bench_dtypes.py's rows).
Inputs are made before timing; each cell is the median µs of one call (JAX's with
block_until_ready). Every library uses both cores (graphfn's GEMM splits products over its
intra-op pool; docs/design.md, "Matrix products").
The ratio columns are the other library's time over graphfn's (above 1: graphfn is faster). The
machine is shared: the load average is printed with the table; compare within one run only.
"""

import os
import sys

import numpy as np

import graphfn as gf
from _harness import main as harness_main
from _harness import optional
from _harness import time_per_call_us

tf = optional("tensorflow")
jax = optional("jax")
jnp = optional("jax.numpy")
torch = optional("torch")

_RNG = np.random.default_rng(0)


def _normal(*shape):
    return _RNG.standard_normal(shape).astype(np.float32)


def _makers(tf_like, make_jax, make_torch):
    """{library name: make} for the libraries installed; tf_like(module) makes graphfn's and TF's."""
    makers = {"graphfn": tf_like(gf)}
    if tf is not None:
        makers["TensorFlow"] = tf_like(tf)
    if jax is not None:
        makers["JAX jit"] = make_jax
    if torch is not None:
        makers["PyTorch eager"] = make_torch
    return makers


# Matrix products -------------------------------------------------------------------------------

_MATMUL_INPUTS = {
    "1000": (_normal(1000, 1000), _normal(1000, 1000)),
    "256": (_normal(256, 256), _normal(256, 256)),
    "batch": (_normal(64, 128, 128), _normal(64, 128, 128)),
}


def _matmul(key):
    """Makers of one eager float32 product per library: {library name: make() -> call}."""
    a, b = _MATMUL_INPUTS[key]

    def tf_like(lib):
        def make():
            x, y = lib.constant(a), lib.constant(b)
            return lambda: lib.matmul(x, y)
        return make

    def make_jax():
        x, y = jnp.asarray(a), jnp.asarray(b)
        product = jax.jit(jnp.matmul)
        return lambda: product(x, y).block_until_ready()

    def make_torch():
        x, y = torch.from_numpy(a), torch.from_numpy(b)
        return lambda: torch.matmul(x, y)

    return _makers(tf_like, make_jax, make_torch)


def _mlp_data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 784)).astype(np.float32)
    y = rng.integers(0, 10, 64).astype(np.int32)
    params = [rng.standard_normal((784, 128)).astype(np.float32) * 0.05, np.zeros(128, np.float32),
              rng.standard_normal((128, 10)).astype(np.float32) * 0.05, np.zeros(10, np.float32)]
    return x, y, params


def _mlp_train_step():
    """The MLP 784-128-10 train step (batch 64): forward, gradients, SGD update of 4 variables."""
    x_np, y_np, p_np = _mlp_data()

    def tf_like(lib):
        def make():
            x, y = lib.constant(x_np), lib.constant(y_np)
            params = [lib.Variable(p) for p in p_np]

            @lib.function
            def step(x, y):
                with lib.GradientTape() as tape:
                    h = lib.nn.relu(lib.matmul(x, params[0]) + params[1])
                    logits = lib.matmul(h, params[2]) + params[3]
                    loss = lib.reduce_mean(lib.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
                for p, g in zip(params, tape.gradient(loss, params)):
                    p.assign_sub(0.01 * g)
                return loss
            return lambda: step(x, y)
        return make

    def make_jax():
        def loss_fn(params, x, y):
            h = jax.nn.relu(x @ params[0] + params[1])
            logits = h @ params[2] + params[3]
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

        @jax.jit
        def step(params, x, y):
            loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
            return [p - 0.01 * g for p, g in zip(params, grads)], loss

        state = {"params": [jnp.asarray(p) for p in p_np]}
        x, y = jnp.asarray(x_np), jnp.asarray(y_np)

        def call():
            state["params"], loss = step(state["params"], x, y)
            return loss.block_until_ready()
        return call

    def make_torch():
        params = [torch.tensor(p, requires_grad=True) for p in p_np]
        x, y = torch.from_numpy(x_np), torch.from_numpy(y_np).long()

        def call():
            h = torch.relu(x @ params[0] + params[1])
            loss = torch.nn.functional.cross_entropy(h @ params[2] + params[3], y)
            grads = torch.autograd.grad(loss, params)
            with torch.no_grad():
                for p, g in zip(params, grads):
                    p.sub_(0.01 * g)
            return loss
        return call

    return _makers(tf_like, make_jax, make_torch)


def matmul_rows():
    """(row name, {library: make}) for the matrix product rows."""
    return [
        ("matmul 1000x1000 float32", _matmul("1000")),
        ("matmul 256x256 float32", _matmul("256")),
        ("batched matmul [64,128,128] float32", _matmul("batch")),
        ("function train step: MLP 784-128-10, batch 64", _mlp_train_step()),
    ]


# -------------------------------------------------------------------------------------------------

def all_rows():
    return matmul_rows()


def _load():
    return " ".join("%.2f" % v for v in os.getloadavg())


_VERSIONS = {"tensorflow": tf.__version__ if tf is not None else None,
             "jax": jax.__version__ if jax is not None else None,
             "torch": torch.__version__ if torch is not None else None}


def run(repeat):
    _VERSIONS["load average before"] = _load()
    results = []
    for name, makers in all_rows():
        row = {"benchmark": name, "us": {}}
        for lib_name, make in makers.items():
            row["us"][lib_name] = time_per_call_us(make(), repeat)
        results.append(row)
    _VERSIONS["load average after"] = _load()
    return results


def main(argv=None):
    others = [name for name, module in (("TensorFlow", tf), ("JAX jit", jax), ("PyTorch eager", torch))
              if module is not None]
    return harness_main(__doc__, run, _VERSIONS, others, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
