"""tf.random.Generator: a random number generator whose state lives in a tf.Variable (so this
module sits beside graphfn.variables, above the op wrappers). Draws run the stateless ops."""

import os

from graphfn.framework import determinism, dtypes
from graphfn.ops import array_ops
from graphfn.ops import random_sampling
from graphfn.ops import stateless_random_ops
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export
from graphfn.variables import Variable

# ---- tf.random.Generator ---------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def _to_int64(u):
    u &= _MASK64
    return u - (1 << 64) if u >= 1 << 63 else u


def _mix(value):
    """splitmix64: spreads a seed over all 64 bits."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


@tf_export("random.Algorithm")
class Algorithm:
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


@tf_export("random.Generator")
class Generator:
    """A random number generator with its state in a variable: [counter, 0, key] (int64). Each
    draw runs a stateless op seeded with (key, counter) and advances the counter, so draws are
    reproducible from the state, eagerly and inside tf.function."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = copy_from.state.numpy()
            alg = copy_from.algorithm
        elif state is None:
            raise ValueError("Generator: pass `copy_from` or `state` (or use from_seed / "
                             "from_non_deterministic_state)")
        self._alg = Algorithm.PHILOX if alg in (None, "philox", Algorithm.AUTO_SELECT, "auto_select") else alg
        self._state = Variable(numpy().asarray(state, numpy().int64).reshape([3]), trainable=False, dtype=dtypes.int64)

    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=[0, 0, _to_int64(_mix(int(seed) & _MASK64))], alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        if determinism.is_op_determinism_enabled():
            raise RuntimeError('"from_non_deterministic_state" cannot be called when determinism is enabled.')
        key = int.from_bytes(os.urandom(8), "little")
        return cls(state=[0, 0, _to_int64(key)], alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @property
    def state(self):
        return self._state

    @property
    def algorithm(self):
        return self._alg

    def reset_from_seed(self, seed):
        self._state.assign([0, 0, _to_int64(_mix(int(seed) & _MASK64))])

    def _next_seed(self):
        """(key, counter) for one draw; the counter moves on."""
        state = self._state.read_value()
        seed = array_ops.stack([state[2], state[0]])
        self._state.assign_add(array_ops.convert_to_tensor([1, 0, 0], dtypes.int64))
        return seed

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError("For integer dtype %s, minval and maxval must be both `None` or both non-`None`; got "
                             "minval=%s and maxval=%s" % (dtype, minval, maxval))
        return stateless_random_ops.stateless_random_uniform(shape, self._next_seed(), minval, maxval, dtype)

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):  # TF: uint64 (graphfn has none)
        return stateless_random_ops.stateless_random_uniform(shape, self._next_seed(), None, None, dtype)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_random_ops.stateless_random_normal(shape, self._next_seed(), mean, stddev, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_random_ops.stateless_truncated_normal(shape, self._next_seed(), mean, stddev, dtype)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        return random_sampling.stateless_binomial(shape, self._next_seed(), counts, probs, dtype)

    def make_seeds(self, count=1):
        """[2, count] int64 seeds for the stateless ops."""
        return stateless_random_ops.stateless_random_uniform([2, count], self._next_seed(), None, None, dtypes.int64)

    def split(self, count=1):
        """`count` new generators whose keys are drawn from this one (which moves on)."""
        seeds = self.make_seeds(count).numpy()
        return [Generator(state=[0, 0, int(seeds[0, i])], alg=self._alg) for i in range(count)]

    def skip(self, delta):
        self._state.assign_add(array_ops.convert_to_tensor([int(delta), 0, 0], dtypes.int64))


_global_generator = None


@tf_export("random.get_global_generator")
def get_global_generator():
    global _global_generator
    if _global_generator is None:
        _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


@tf_export("random.set_global_generator")
def set_global_generator(generator):
    global _global_generator
    _global_generator = generator


