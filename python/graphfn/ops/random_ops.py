"""Random tensors (tf.random.uniform, tf.random.normal). Seeds: graphfn/framework/random_seed.py."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework import random_seed
from graphfn.framework.tensor import Tensor
from graphfn.framework.tensor_shape import TensorShape
from graphfn.ops import array_ops
from graphfn.ops import reduction_ops
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export

_UNIFORM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_UNIFORM_DTYPES_TEXT = "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64)"


def _shape_tensor(shape):
    """A shape argument as an int32/int64 vector (int32 for an empty list, like TF)."""
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % (shape,))
        shape = shape.as_list()
    if isinstance(shape, (list, tuple)) and not shape:
        return reduction_ops.all_axes(0)  # an empty int32 vector
    if array_ops.has_tensor(shape):
        return shape  # a tensor, or a list holding some: the op call converts (packs) it ([tf.shape(x)[0], 2])
    return _core.to_tensor(shape)


def _convert(value, dtype, name):
    """convert_to_tensor(value, dtype, name=name): a tensor of another dtype is a ValueError."""
    if isinstance(value, Tensor):
        if value.dtype != dtype:
            raise ValueError("%s: Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (name, dtype.name, value.dtype.name, value))
        return value
    return _core.to_tensor(value, dtype.as_datatype_enum)


def _seed_attrs(seed):
    seed1, seed2 = random_seed.get_seed(seed)
    return {"seed": seed1, "seed2": seed2}  # None leaves the attr at 0 (unseeded)


@tf_export("random.uniform")
def random_uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform samples in [minval, maxval); float dtypes default to [0, 1), integer dtypes
    need maxval."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError("Argument `dtype` got invalid value %s. Accepted dtypes are %s."
                         % (dtype, _UNIFORM_DTYPES_TEXT))
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % dtype)
        maxval = 1
    shape = _shape_tensor(shape)
    # Like TF, skip the arithmetic only for the Python ints 0 and 1 (not 0.0, 1.0 or tensors).
    minval_is_zero = isinstance(minval, int) and minval == 0
    maxval_is_one = isinstance(maxval, int) and maxval == 1
    if not (minval_is_zero and maxval_is_one) or dtype.is_integer:
        minval = _convert(minval, dtype, "min")
        maxval = _convert(maxval, dtype, "max")
    if dtype.is_integer:
        return ops.RandomUniformInt(shape, minval, maxval, **_seed_attrs(seed))
    result = ops.RandomUniform(shape, dtype=dtype, **_seed_attrs(seed))
    if minval_is_zero:
        return result if maxval_is_one else ops.Mul(result, maxval)
    return ops.AddV2(ops.Mul(result, ops.Sub(maxval, minval)), minval)


@tf_export("random.normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal samples with the given mean and standard deviation (both broadcast)."""
    dtype = dtypes.as_dtype(dtype)
    shape = _shape_tensor(shape)
    mean = _convert(mean, dtype, "mean")
    stddev = _convert(stddev, dtype, "stddev")
    result = ops.RandomStandardNormal(shape, dtype=dtype, **_seed_attrs(seed))
    return ops.AddV2(ops.Mul(result, stddev), mean)
