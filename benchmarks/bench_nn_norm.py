"""Batch normalization forward + backward on [32, 28, 28, 64] (NHWC), graphfn vs TensorFlow.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_nn_norm.py [--repeat 7] [--json out.json]

Each row is one call of a traced function that computes the normalization and the gradients of
sum(y * dy) with respect to x, scale and offset (a GradientTape inside the function):
  - moments + batch_normalization: tf.nn.moments over N, H, W then tf.nn.batch_normalization
    (the ops Keras' BatchNormalization runs in training);
  - batch_normalization, given statistics: tf.nn.batch_normalization with mean and variance
    passed in (inference-style forward, gradients also to mean and variance);
  - FusedBatchNormV3, training: the fused op and FusedBatchNormGradV3.
Cells are medians in µs. TensorFlow uses both cores.
"""

import sys

import numpy as np

import graphfn as gf
from _harness import optional
from _harness import main_beside_tf_and_jax
from _harness import time_per_call_us

tf = optional("tensorflow")

SHAPE = (32, 28, 28, 64)
EPSILON = 1e-3


def _inputs(lib):
    rng = np.random.default_rng(0)
    x = lib.constant(rng.standard_normal(SHAPE, dtype=np.float32) * 2 + 1)
    dy = lib.constant(rng.standard_normal(SHAPE, dtype=np.float32))
    scale = lib.constant(rng.uniform(0.5, 1.5, SHAPE[-1]).astype(np.float32))
    offset = lib.constant(rng.standard_normal(SHAPE[-1]).astype(np.float32))
    return x, dy, scale, offset


def _moments_and_normalize(lib):
    x, dy, scale, offset = _inputs(lib)

    @lib.function
    def step(x, dy, scale, offset):
        with lib.GradientTape() as tape:
            tape.watch([x, scale, offset])
            mean, variance = lib.nn.moments(x, [0, 1, 2])
            y = lib.nn.batch_normalization(x, mean, variance, offset, scale, EPSILON)
            loss = lib.reduce_sum(y * dy)
        return tape.gradient(loss, [x, scale, offset])

    return lambda: step(x, dy, scale, offset)


def _normalize_given_statistics(lib):
    x, dy, scale, offset = _inputs(lib)
    mean = lib.constant(np.full(SHAPE[-1], 0.9, np.float32))
    variance = lib.constant(np.full(SHAPE[-1], 4.1, np.float32))

    @lib.function
    def step(x, dy, scale, offset, mean, variance):
        with lib.GradientTape() as tape:
            tape.watch([x, scale, offset, mean, variance])
            y = lib.nn.batch_normalization(x, mean, variance, offset, scale, EPSILON)
            loss = lib.reduce_sum(y * dy)
        return tape.gradient(loss, [x, scale, offset, mean, variance])

    return lambda: step(x, dy, scale, offset, mean, variance)


def _fused_training(lib):
    x, dy, scale, offset = _inputs(lib)
    if hasattr(lib, "raw_ops"):
        fused = lib.raw_ops.FusedBatchNormV3
    else:  # a graphfn without raw_ops: the op handle takes its inputs by position
        from graphfn.ops._op_table import ops

        def fused(x, scale, offset, mean, variance, **attrs):
            return ops.FusedBatchNormV3(x, scale, offset, mean, variance, **attrs)
    empty = lib.zeros([0])

    @lib.function
    def step(x, dy, scale, offset):
        with lib.GradientTape() as tape:
            tape.watch([x, scale, offset])
            y = fused(x=x, scale=scale, offset=offset, mean=empty, variance=empty, epsilon=EPSILON,
                      is_training=True)[0]
            loss = lib.reduce_sum(y * dy)
        return tape.gradient(loss, [x, scale, offset])

    return lambda: step(x, dy, scale, offset)


ROWS = [("moments + batch_normalization, fwd+bwd", _moments_and_normalize),
        ("batch_normalization (given mean/variance), fwd+bwd", _normalize_given_statistics),
        ("FusedBatchNormV3 training, fwd+bwd", _fused_training)]


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for name, make in ROWS:
        row = {"benchmark": name, "us": {}}
        for lib_name, lib in libs:
            row["us"][lib_name] = time_per_call_us(make(lib), repeat)
        results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, None, 5, argv)


if __name__ == "__main__":
    sys.exit(main())
