"""Real FFTs, graphfn vs TensorFlow and JAX jit.

    PYTHONPATH=python ~/tf/bin/python benchmarks/bench_signal.py [--repeat 7] [--json out.json]

Rows: eager rfft of 2^20 float32 samples (the goal of issue 18: within 1.5x of TF), rfft of a
[256, 1024] batch, and an stft of 2^16 samples (frames of 512, step 128); inputs are made before
timing and each call fetches its result (.numpy() / block_until_ready). Cells are medians in µs.
graphfn's FFT is pocketfft (cpp/third_party/pocketfft; a single transform on one thread, the
lines of a batch over the intra-op pool); TF 2.21 uses DUCC, JAX pocketfft/DUCC.
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

CASES = [("rfft 2^20 float32", (1 << 20,)), ("rfft [256, 1024] float32", (256, 1024))]
STFT_LENGTH = 1 << 16


def _signal(shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def run(repeat):
    libs = [("graphfn", gf)] + ([("TensorFlow", tf)] if tf is not None else [])
    results = []
    for label, shape in CASES:
        row = {"benchmark": label, "us": {}}
        for name, lib in libs:
            x = lib.constant(_signal(shape))
            row["us"][name] = time_per_call_us(lambda lib=lib, x=x: lib.signal.rfft(x).numpy(), repeat)
        if jax is not None:
            xj = jnp.asarray(_signal(shape))
            rfft = jax.jit(jnp.fft.rfft)
            row["us"]["JAX jit"] = time_per_call_us(lambda: rfft(xj).block_until_ready(), repeat)
        results.append(row)
    row = {"benchmark": "stft 2^16 float32 (512, step 128)", "us": {}}
    for name, lib in libs:
        x = lib.constant(_signal((STFT_LENGTH,)))
        row["us"][name] = time_per_call_us(lambda lib=lib, x=x: lib.signal.stft(x, 512, 128).numpy(), repeat)
    results.append(row)
    return results


def main(argv=None):
    return main_beside_tf_and_jax(__doc__, run, tf, jax, 7, argv)


if __name__ == "__main__":
    sys.exit(main())
