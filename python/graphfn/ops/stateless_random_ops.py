"""Stateless random tensors (tf.random.stateless_*): a pure function of the shape and a seed of
two integers. Same seed, same samples, eagerly and in every graph; the samples' distributions are
TF's, their bits are graphfn's own (Philox keyed by the seed)."""

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops import random_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export

_UNIFORM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64,
                   dtypes.uint32, dtypes.uint64)
_UNIFORM_DTYPES_TEXT = ("(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, "
                        "tf.uint64)")


def _seed(seed):
    """The seed as a tensor; the ops accept int32 and int64 seeds of shape [2] (TF's errors else)."""
    return array_ops.convert_to_tensor(seed)


@tf_export("random.stateless_uniform")
def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                             alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s." % (dtype, _UNIFORM_DTYPES_TEXT))
    if dtype.is_integer:
        if dtype.is_unsigned and minval is not None:
            raise ValueError("Argument `dtype` got invalid value %s when argument `minval` is not None. Please don't "
                             "use unsigned integers in this case." % dtype)
        if (minval is None) != (maxval is None):
            raise ValueError("For integer `dtype` argument %s, argument `minval` and `maxval` must be both None or "
                             "not None. Got `minval`=%s and `maxval`=%s." % (dtype, minval, maxval))
    elif maxval is None:
        maxval = 1
    shape = random_ops._shape_tensor(shape)
    seed = _seed(seed)
    if dtype.is_integer and minval is None:
        return ops.StatelessRandomUniformFullInt(shape, seed, dtype=dtype)
    minval = random_ops._convert(minval, dtype, "min")
    maxval = random_ops._convert(maxval, dtype, "max")
    if dtype.is_integer:
        return ops.StatelessRandomUniformInt(shape, seed, minval, maxval)
    rnd = ops.StatelessRandomUniform(shape, seed, dtype=dtype)
    return ops.AddV2(ops.Mul(rnd, ops.Sub(maxval, minval)), minval)


@tf_export("random.stateless_normal")
def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    shape = random_ops._shape_tensor(shape)
    mean = random_ops._convert(mean, dtype, "mean")
    stddev = random_ops._convert(stddev, dtype, "stddev")
    rnd = ops.StatelessRandomNormal(shape, _seed(seed), dtype=dtype)
    return ops.AddV2(ops.Mul(rnd, stddev), mean)


@tf_export("random.stateless_truncated_normal")
def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    dtype = dtypes.as_dtype(dtype)
    shape = random_ops._shape_tensor(shape)
    mean = random_ops._convert(mean, dtype, "mean")
    stddev = random_ops._convert(stddev, dtype, "stddev")
    rnd = ops.StatelessTruncatedNormal(shape, _seed(seed), dtype=dtype)
    return ops.AddV2(ops.Mul(rnd, stddev), mean)


@tf_export("random.split", "random.experimental.stateless_split")
def split(seed, num=2, alg="auto_select"):
    """`num` new seeds ([num, 2], the seed's dtype) drawn from `seed`."""
    seed = _seed(seed)
    return stateless_random_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype)


@tf_export("random.fold_in", "random.experimental.stateless_fold_in")
def fold_in(seed, data, alg="auto_select"):
    """A new seed from `seed` and an integer `data` (e.g. a step number): [draw, data]."""
    data = array_ops.convert_to_tensor(data)
    drawn = stateless_random_uniform([], seed, minval=None, maxval=None, dtype=data.dtype)
    return array_ops.stack([drawn, data])
