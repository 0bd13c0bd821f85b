"""Global and op-level random seeds (tf.random.set_seed) with TF 2's eager semantics.

Seed state is split in two (see also cpp/graphfn/kernels/random_streams.h):
  - here, in Python: the global seed and the counter that numbers op seeds, like TF's eager
    context;
  - in C++: one Philox stream position per (op, dtypes, seed, seed2), like TF's cached kernels.
    Calling an op again with the same seeds continues its stream, so it gives fresh samples.
set_seed resets both, so re-running the same sequence of random calls reproduces its values.
"""

from graphfn import _core
from graphfn.framework import determinism
from graphfn.util.tf_export import tf_export

DEFAULT_GRAPH_SEED = 87654321  # the global seed used when only an op seed is given
_MAXINT32 = 2**31 - 1
_MASK64 = 2**64 - 1

_global_seed = None
_op_seed_count = 0


def _truncate_seed(seed):
    return seed % _MAXINT32  # TF folds seeds into [0, 2**31 - 1)


def _next_op_seed():
    """The next op seed for calls without one: a counter, spread by a 64-bit mixer (splitmix64's
    finaliser) so the pairs it makes do not sit next to small explicit seeds like 0, 1, 2."""
    global _op_seed_count
    z = (_op_seed_count + 1) * 0x9E3779B97F4A7C15 & _MASK64
    _op_seed_count += 1
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK64
    return z ^ (z >> 31)


def get_seed(op_seed):
    """The (seed, seed2) attrs for a random op, from the global seed and `op_seed`:
      - neither set: (None, None), i.e. nondeterministic;
      - global seed only: op seeds come from a counter that set_seed resets;
      - op seed only: DEFAULT_GRAPH_SEED stands in for the global seed;
      - both: both are used. (0, 0) becomes (0, 2**31 - 1), since (0, 0) means "unseeded"."""
    if _global_seed is not None:
        if op_seed is None:
            op_seed = _next_op_seed()
        seeds = _truncate_seed(_global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    elif determinism.is_op_determinism_enabled():
        raise RuntimeError(determinism.RANDOM_SEED_REQUIRED)
    else:
        return None, None
    seeds = int(seeds[0]), int(seeds[1])
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


@tf_export("random.set_seed")
def set_seed(seed):
    """Sets the global random seed (None clears it) and restarts every random sequence."""
    global _global_seed, _op_seed_count
    _global_seed = seed
    _op_seed_count = 0
    _core.reset_random_streams()
