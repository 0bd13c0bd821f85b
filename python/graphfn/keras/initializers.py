"""keras.initializers: callables `init(shape, dtype=None)` giving a variable's first value.

Random initializers draw with NumPy from their seed. As in Keras 3, an instance always gives
the same values: an unseeded one picks its seed when it is created (from the global stream
keras.utils.set_random_seed resets). The values are not TensorFlow's random streams; the
distributions, limits, shapes and dtypes are Keras's."""

import math

import numpy as np

from graphfn.framework import dtypes
from graphfn.keras import backend
from graphfn.keras import random_state
from graphfn.ops import array_ops


def _dtype(dtype):
    return dtypes.as_dtype(dtype or backend.floatx())


def _shape(shape):
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("Received an invalid shape: %s" % (shape,))
    return shape


class Initializer:
    """Base class: subclasses implement __call__(shape, dtype=None)."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError("Initializer subclasses must implement the `__call__()` method.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return self.__class__.from_config(self.get_config())


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        return array_ops.constant(np.zeros(_shape(shape), dtype.as_numpy_dtype), dtype=dtype)


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        return array_ops.constant(np.ones(_shape(shape), dtype.as_numpy_dtype), dtype=dtype)


class Constant(Initializer):
    """Every element is `value` (a scalar, or anything that broadcasts to the shape)."""

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        values = np.broadcast_to(np.asarray(self.value, dtype.as_numpy_dtype), _shape(shape))
        return array_ops.constant(np.array(values), dtype=dtype)

    def get_config(self):
        return {"value": self.value}


class RandomInitializer(Initializer):
    """A seeded initializer: each call restarts a NumPy generator from the seed."""

    def __init__(self, seed=None):
        if seed is not None and not isinstance(seed, int):
            raise ValueError("`seed` argument should be an instance of `keras.random.SeedGenerator()` or an "
                             "integer. Received: seed=%s" % (seed,))
        self.seed = seed
        self._seed = random_state.draw_seed() if seed is None else seed

    def __call__(self, shape, dtype=None):
        dtype = _dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("Expected `dtype` to be a floating dtype. Received: dtype=%s" % dtype.name)
        values = self._sample(np.random.default_rng(self._seed), _shape(shape))
        return array_ops.constant(np.asarray(values, dtype.as_numpy_dtype), dtype=dtype)

    def get_config(self):
        return {"seed": self.seed}


def _truncated_normal(rng, shape, stddev):
    """Normal samples within two standard deviations (redrawn until they are)."""
    values = rng.standard_normal(shape)
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = rng.standard_normal(int(outside.sum()))
        outside = np.abs(values) > 2.0
    return values * stddev


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean = mean
        self.stddev = stddev

    def _sample(self, rng, shape):
        return rng.normal(self.mean, self.stddev, shape)

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}


class TruncatedNormal(RandomNormal):
    def _sample(self, rng, shape):
        return self.mean + _truncated_normal(rng, shape, self.stddev)


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval = minval
        self.maxval = maxval

    def _sample(self, rng, shape):
        return rng.uniform(self.minval, self.maxval, shape)

    def get_config(self):
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}


def compute_fans(shape):
    """(fan_in, fan_out) of a weight shape: a kernel's last two dimensions, times the
    receptive field (the product of the others) for convolution kernels."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("uniform", "truncated_normal", "untruncated_normal")


class VarianceScaling(RandomInitializer):
    """Samples scaled by the kernel's fans: variance scale / n, n being fan_in, fan_out or
    their mean."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        if input_axes is not None or output_axes is not None:
            raise NotImplementedError("graphfn.keras VarianceScaling does not implement `input_axes`/`output_axes`")
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be positive float. Received: scale=%s" % (scale,))
        if mode not in _MODES:
            raise ValueError("Invalid `mode` argument: %s. Please use one of %s" % (mode, set(_MODES)))
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in _DISTRIBUTIONS:
            raise ValueError("Invalid `distribution` argument: %s.Please use one of %s"
                             % (distribution, set(_DISTRIBUTIONS)))
        super().__init__(seed)
        self.scale = scale
        self.mode = mode
        self.distribution = distribution

    def _sample(self, rng, shape):
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            return _truncated_normal(rng, shape, math.sqrt(scale) / 0.87962566103423978)
        if self.distribution == "untruncated_normal":
            return rng.normal(0.0, math.sqrt(scale), shape)
        limit = math.sqrt(3.0 * scale)
        return rng.uniform(-limit, limit, shape)

    def get_config(self):
        return {"seed": self.seed, "scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "input_axes": None, "output_axes": None}


def _variance_scaling(class_name, scale, mode, distribution):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed, input_axes, output_axes)

    def get_config(self):
        return {"seed": self.seed, "input_axes": None, "output_axes": None}

    cls = type(class_name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                                "__module__": __name__,
                                                "__doc__": "VarianceScaling(%s, %r, %r)." % (scale, mode, distribution)})
    return cls


GlorotUniform = _variance_scaling("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _variance_scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeUniform = _variance_scaling("HeUniform", 2.0, "fan_in", "uniform")
HeNormal = _variance_scaling("HeNormal", 2.0, "fan_in", "truncated_normal")
LecunUniform = _variance_scaling("LecunUniform", 1.0, "fan_in", "uniform")
LecunNormal = _variance_scaling("LecunNormal", 1.0, "fan_in", "truncated_normal")

_BY_NAME = {
    "zeros": Zeros, "ones": Ones, "constant": Constant, "random_normal": RandomNormal,
    "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal, "he_uniform": HeUniform,
    "he_normal": HeNormal, "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
}


def get(identifier):
    """An initializer from a name ("glorot_uniform" or "GlorotUniform"), a config dict, an
    initializer class or instance, or any callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls = _lookup(identifier.get("class_name"), identifier)
        return cls.from_config(identifier.get("config", {}))
    if isinstance(identifier, str):
        return _lookup(identifier, identifier)()
    if isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret initializer identifier: %s" % (identifier,))


def _lookup(name, identifier):
    if isinstance(name, str):
        cls = _BY_NAME.get(name) or _BY_NAME.get(backend.snake_case(name))
        if cls is not None:
            return cls
    raise ValueError("Could not interpret initializer identifier: %s" % (identifier,))


# Keras's lower-case aliases of the classes.
zeros, ones, constant = Zeros, Ones, Constant
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling, glorot_uniform, glorot_normal = VarianceScaling, GlorotUniform, GlorotNormal
he_uniform, he_normal, lecun_uniform, lecun_normal = HeUniform, HeNormal, LecunUniform, LecunNormal
