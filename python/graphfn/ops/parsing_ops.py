"""tf.io.parse_example / parse_single_example with FixedLenFeature, FixedLenSequenceFeature and
VarLenFeature: one ParseExampleV2 op (cpp/graphfn/kernels/example_kernels.cc), eagerly or inside a
function. VarLenFeature needs tf.sparse.SparseTensor, which graphfn does not have yet: it raises
NotImplementedError (the op itself computes the sparse triple; tf.raw_ops.ParseExampleV2 returns it)."""

import collections

from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("io.FixedLenFeature")
class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A feature with `shape` values per example (required unless default_value is given)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


@tf_export("io.FixedLenSequenceFeature")
class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature of any number of rows of `shape`; examples are padded to the longest with
    default_value (zero or "" when None)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


@tf_export("io.VarLenFeature")
class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length, parsed into a SparseTensor (not available in graphfn yet)."""


def _dims(shape):
    return [int(d) for d in (shape if shape is not None else [])]


def _dense_params(key, feature):
    """(default tensor, dense shape) of one dense feature, as TF's parse_example builds them."""
    dtype = dtypes.as_dtype(feature.dtype)
    shape = _dims(feature.shape)
    if isinstance(feature, FixedLenSequenceFeature):
        if not feature.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
        if feature.default_value is None:
            default = array_ops.zeros([0], dtype)
        else:
            default = array_ops.convert_to_tensor(feature.default_value, dtype)
        return default, [-1] + shape
    if feature.default_value is None:
        return array_ops.zeros([0], dtype), shape
    default = array_ops.reshape(array_ops.convert_to_tensor(feature.default_value, dtype), shape)
    return default, shape


def _parse(serialized, features, example_names, name):
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    dense_keys, dense_defaults, dense_shapes = [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            raise NotImplementedError(
                "tf.io.VarLenFeature ('%s') is parsed into a tf.sparse.SparseTensor, which graphfn does not have "
                "yet; use FixedLenFeature or FixedLenSequenceFeature(allow_missing=True)" % key)
        if not isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            raise ValueError("Unsupported %s %s." % (type(feature).__name__, feature))
        default, shape = _dense_params(key, feature)
        dense_keys.append(key)
        dense_defaults.append(default)
        dense_shapes.append(shape)
    names = [] if example_names is None else example_names
    outputs = node("ParseExampleV2", name)(
        serialized, array_ops.convert_to_tensor(names, dtypes.string),
        array_ops.zeros([0], dtypes.string), array_ops.convert_to_tensor(dense_keys, dtypes.string),
        array_ops.zeros([0], dtypes.string), dense_defaults,
        num_sparse=0, sparse_types=[], ragged_value_types=[], ragged_split_types=[], dense_shapes=dense_shapes)
    return dict(zip(dense_keys, list(outputs)))


@tf_export("io.parse_example")
def parse_example(serialized, features, example_names=None, name=None):
    """Parses a vector of serialized tf.train.Example protos: {key: tensor [batch, ...]}."""
    return _parse(array_ops.convert_to_tensor(serialized, dtypes.string), features, example_names, name)


@tf_export("io.parse_single_example")
def parse_single_example(serialized, features, example_names=None, name=None):
    """Parses one serialized tf.train.Example (a scalar string): {key: tensor}."""
    serialized = array_ops.convert_to_tensor(serialized, dtypes.string)
    rank = serialized.shape.rank
    if rank is not None and rank != 0:
        raise ValueError("Input serialized must be a scalar")
    return _parse(serialized, features, example_names, name)
