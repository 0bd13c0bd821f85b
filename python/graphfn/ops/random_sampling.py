"""More of tf.random: truncated_normal, shuffle, categorical, gamma, poisson, the stateless
categorical and binomial (tf.random.Generator is in graphfn/random_generator.py). Samples follow
TF's distributions; their bits are graphfn's own (see docs/ops.md, ## random)."""


from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops import math_ops
from graphfn.ops import random_ops
from graphfn.ops import stateless_random_ops
from graphfn.ops._op_table import ops
from graphfn.util.lazy_numpy import numpy
from graphfn.util.tf_export import tf_export


@tf_export("random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    shape = random_ops._shape_tensor(shape)
    mean = random_ops._convert(mean, dtype, "mean")
    stddev = random_ops._convert(stddev, dtype, "stddev")
    rnd = ops.TruncatedNormal(shape, dtype=dtype, **random_ops._seed_attrs(seed))
    return ops.AddV2(ops.Mul(rnd, stddev), mean)


@tf_export("random.shuffle")
def shuffle(value, seed=None, name=None):
    return ops.RandomShuffle(array_ops.convert_to_tensor(value), **random_ops._seed_attrs(seed))


def _sample_dtype(dtype):
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are (tf.int32, tf.int64)." % dtype)
    return dtype


@tf_export("random.categorical")
def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    logits = array_ops.convert_to_tensor(logits)
    return ops.Multinomial(logits, array_ops.convert_to_tensor(num_samples, dtypes.int32),
                           output_dtype=_sample_dtype(dtype), **random_ops._seed_attrs(seed))


@tf_export("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    logits = array_ops.convert_to_tensor(logits)
    return ops.StatelessMultinomial(logits, array_ops.convert_to_tensor(num_samples, dtypes.int32),
                                    stateless_random_ops._seed(seed), output_dtype=_sample_dtype(dtype))


@tf_export("random.gamma")
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    shape = array_ops.convert_to_tensor(shape, dtypes.int32)
    alpha = array_ops.convert_to_tensor(alpha, dtype)
    beta = array_ops.convert_to_tensor(beta if beta is not None else 1, dtype)
    alpha_broadcast = alpha + array_ops.zeros_like(beta)  # alpha with the broadcast shape of both
    samples = ops.RandomGamma(shape, alpha_broadcast, **random_ops._seed_attrs(seed))
    return math_ops.maximum(numpy().finfo(dtype.as_numpy_dtype).tiny, samples / beta)


@tf_export("random.poisson")
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    shape = array_ops.convert_to_tensor(shape, dtypes.int32)
    lam = array_ops.convert_to_tensor(lam)
    return ops.RandomPoissonV2(shape, lam, dtype=dtypes.as_dtype(dtype), **random_ops._seed_attrs(seed))


@tf_export("random.stateless_binomial")
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    shape = random_ops._shape_tensor(shape)
    probs = array_ops.convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = array_ops.convert_to_tensor(counts, dtype=probs.dtype)
    return ops.StatelessRandomBinomial(shape, stateless_random_ops._seed(seed), counts, probs,
                                       dtype=dtypes.as_dtype(output_dtype))
