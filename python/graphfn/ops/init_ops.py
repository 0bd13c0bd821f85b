"""TF 2's initializers at the top level (tf.zeros_initializer, tf.ones_initializer,
tf.constant_initializer, tf.random_normal_initializer, tf.random_uniform_initializer): objects
called with a shape and dtype that return the initial tensor. With a seed, the random ones draw
from the stateless ops (the same values on every call, as TF's); without, from the global stream."""

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops import random_ops
from graphfn.ops import stateless_random_ops
from graphfn.util.tf_export import tf_export


class Initializer:
    """The base: `__call__(shape, dtype)` and `get_config()`."""

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@tf_export("zeros_initializer")
class Zeros(Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return array_ops.zeros(shape, dtypes.as_dtype(dtype))


@tf_export("ones_initializer")
class Ones(Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return array_ops.ones(shape, dtypes.as_dtype(dtype))


@tf_export("constant_initializer")
class Constant(Initializer):
    def __init__(self, value=0, support_partition=False):
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        return array_ops.constant(self.value, dtype=None if dtype is None else dtypes.as_dtype(dtype), shape=shape)

    def get_config(self):
        return {"value": self.value}


def _float_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError("Argument `dtype` is expected to be floating point. Received: %s." % (dtype,))
    return dtype


@tf_export("random_normal_initializer")
class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = _float_dtype(dtype)
        if self.seed is None:
            return random_ops.random_normal(shape, self.mean, self.stddev, dtype)
        return stateless_random_ops.stateless_random_normal(shape, [self.seed, 0], self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


@tf_export("random_uniform_initializer")
class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = dtypes.as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError("Argument `dtype` is expected to be floating point or integer. Received: %s." % (dtype,))
        if self.seed is None:
            return random_ops.random_uniform(shape, self.minval, self.maxval, dtype)
        return stateless_random_ops.stateless_random_uniform(shape, [self.seed, 0], self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
