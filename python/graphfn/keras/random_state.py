"""The global stream unseeded Keras objects draw their seeds from (keras.utils.set_random_seed
restarts it, and also seeds graphfn.random, NumPy and Python's `random`)."""

import random

import numpy as np

from graphfn.framework import random_seed

_generator = None  # created on first use: importing numpy.random costs tens of milliseconds


def _stream():
    global _generator
    if _generator is None:
        _generator = np.random.default_rng()
    return _generator


def draw_seed():
    return int(_stream().integers(0, 2**31 - 1))


def set_random_seed(seed):
    global _generator
    if not isinstance(seed, int):
        raise ValueError("Expected `seed` argument to be an integer. Received: seed=%s (of type %s)"
                         % (seed, type(seed)))
    _generator = np.random.default_rng(seed)
    random.seed(seed)
    np.random.seed(seed)
    random_seed.set_seed(seed)


def permutation(n):
    """A shuffled order of n samples (fit's shuffle=True)."""
    return _stream().permutation(n)
