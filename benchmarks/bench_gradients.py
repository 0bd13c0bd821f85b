"""GradientTape cost: graphfn vs TensorFlow (when importable), as a Markdown table.

    PYTHONPATH=python /work/tfenv/bin/python benchmarks/bench_gradients.py [--repeat 15] [--json out.json]

Each cell is the median over `repeat` timeit runs of the time for one forward pass under a tape
plus the gradient, in microseconds; a ratio is TF's time divided by graphfn's (above 1: graphfn
is faster).
"""


import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main as harness_main
from _harness import time_per_call_us

tf = optional("tensorflow")


# Each benchmark: make(lib) returns the zero-argument call to time.
def _scalar_chain(n):
    """n eager scalar ops (mul, add, tanh, sub, in turn) on a watched scalar, then d/dx."""
    def make(lib):
        x = lib.constant(0.5)
        c = lib.constant(1.01)

        def step():
            with lib.GradientTape() as tape:
                tape.watch(x)
                y = x
                for i in range(n // 4):
                    y = y * c
                    y = y + x
                    y = lib.tanh(y)
                    y = y - c
            return tape.gradient(y, x)
        return step
    return make


def _variables_mlp(lib):
    """A 2-layer MLP on a 32x64 batch with variables: matmul, add, relu, reduce_mean, d/d(vars)."""
    rng = np.random.default_rng(0)
    x = lib.constant(rng.standard_normal((32, 64)).astype(np.float32))
    w1 = lib.Variable(rng.standard_normal((64, 128)).astype(np.float32) * 0.1)
    b1 = lib.Variable(np.zeros(128, np.float32))
    w2 = lib.Variable(rng.standard_normal((128, 10)).astype(np.float32) * 0.1)

    def step():
        with lib.GradientTape() as tape:
            h = lib.nn.relu(lib.matmul(x, w1) + b1)
            loss = lib.reduce_mean(lib.square(lib.matmul(h, w2)))
        return tape.gradient(loss, [w1, b1, w2])
    return step


def _mlp_784(lib):
    """A 784-128-10 MLP (batch 64, float32) with its data: (x, labels, variables, loss_fn)."""
    rng = np.random.default_rng(0)
    x = lib.constant(rng.standard_normal((64, 784)).astype(np.float32))
    y = lib.constant(rng.integers(0, 10, 64).astype(np.int32))
    params = [lib.Variable(rng.standard_normal((784, 128)).astype(np.float32) * 0.05),
              lib.Variable(np.zeros(128, np.float32)),
              lib.Variable(rng.standard_normal((128, 10)).astype(np.float32) * 0.05),
              lib.Variable(np.zeros(10, np.float32))]
    w1, b1, w2, b2 = params

    def loss_fn(x, y):
        h = lib.nn.relu(lib.matmul(x, w1) + b1)
        logits = lib.matmul(h, w2) + b2
        return lib.reduce_mean(lib.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    return x, y, params, loss_fn


def _function_train_step(lib):
    """A decorated train step: forward, tape.gradient and assign_sub of 4 variables in one function."""
    x, y, params, loss_fn = _mlp_784(lib)

    @lib.function
    def train_step(x, y):
        with lib.GradientTape() as tape:
            loss = loss_fn(x, y)
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.01 * g)
        return loss
    return lambda: train_step(x, y)


def _tape_around_function(lib):
    """An eager tape around a call of the function computing the loss; gradient of 4 variables."""
    x, y, params, loss_fn = _mlp_784(lib)
    loss = lib.function(loss_fn)

    def step():
        with lib.GradientTape() as tape:
            value = loss(x, y)
        return tape.gradient(value, params)
    return step


BENCHMARKS = [
    ("tape: 100 eager scalar ops + gradient", _scalar_chain(100)),
    ("tape: 2-layer MLP (32x64 -> 128 -> 10), 3 variables", _variables_mlp),
    ("function train step: MLP 784-128-10, batch 64, tape + assign_sub inside", _function_train_step),
    ("eager tape around a function call: same MLP's loss, 4 variables", _tape_around_function),
]


def _libraries():
    libs = [("graphfn", gf)]
    if tf is not None:
        libs.append(("TensorFlow", tf))
    return libs


def run(repeat):
    results = []
    for name, make in BENCHMARKS:
        row = {"benchmark": name, "us": {}}
        for lib_name, lib in _libraries():
            row["us"][lib_name] = time_per_call_us(make(lib), repeat)
        results.append(row)
    return results


def main(argv=None):
    return harness_main(__doc__, run, {"tensorflow": tf.__version__ if tf is not None else None},
                        [name for name, _ in _libraries()][1:], 15, argv)


if __name__ == "__main__":
    main()
