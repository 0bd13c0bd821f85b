"""tf.io.parse_example / parse_single_example with FixedLenFeature, FixedLenSequenceFeature and
VarLenFeature: one ParseExampleV2 op (cpp/graphfn/kernels/example_kernels.cc), eagerly or inside a
function. A VarLenFeature is parsed into a tf.sparse.SparseTensor (the op's sparse triple)."""

import collections

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.ops.sparse_tensor import SparseTensor
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
    """A feature of any length, parsed into a SparseTensor."""


def _empty(dtype):
    return array_ops.convert_to_tensor([], dtype)  # (5x cheaper than zeros([0]): a parse builds several)


def _dims(shape):
    """The feature's shape as ints, -1 for an unknown (None) dimension."""
    return [-1 if d is None else int(d) for d in (shape if shape is not None else [])]


def _dense_params(key, feature):
    """(default tensor, dense shape) of one dense feature, as TF's parse_example builds them."""
    dtype = dtypes.as_dtype(feature.dtype)
    shape = _dims(feature.shape)
    if isinstance(feature, FixedLenSequenceFeature):
        if not feature.allow_missing:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
        if feature.default_value is None:
            default = _empty(dtype)
        else:  # one padding value (TF reshapes it to a scalar, with Reshape's error otherwise)
            default = array_ops.reshape(array_ops.convert_to_tensor(feature.default_value, dtype), [])
        return default, [-1] + shape
    if shape and shape[0] == -1:
        raise ValueError("First dimension of shape for feature %s unknown. Consider using FixedLenSequenceFeature. "
                         "Received feature=%r." % (key, feature))
    if feature.default_value is None:
        return _empty(dtype), shape
    default = array_ops.reshape(array_ops.convert_to_tensor(feature.default_value, dtype), shape)
    return default, shape


# Eagerly, the op's constant inputs for a features spec seen before (a reader parses millions of
# records with one spec): {spec key: (dense keys, defaults, shapes, empty string tensor)}.
_PREPARED = {}


def _frozen(value):
    """`value` as a hashable key: nested lists become tuples; numbers, strings, bytes, None and
    dtypes stay; anything else (arrays, tensors) makes the spec uncached (None)."""
    if isinstance(value, (list, tuple)):
        items = [_frozen(v) for v in value]
        return None if any(i is _UNCACHED for i in items) else tuple(items)
    if value is None or isinstance(value, (bool, int, float, str, bytes, dtypes.DType)):
        return (type(value), value)
    return _UNCACHED


_UNCACHED = object()


def _spec_key(features):
    key = []
    for k, f in sorted(features.items()):
        if not isinstance(f, (FixedLenFeature, FixedLenSequenceFeature)):
            return None
        fields = tuple(_frozen(v) for v in f)
        if any(v is _UNCACHED or v is None for v in fields):
            return None
        key.append((k, type(f), fields))
    return tuple(key)


def _prepare(features):
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    dense_keys, dense_defaults, dense_shapes, sparse_keys, sparse_types = [], [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            sparse_keys.append(key)
            sparse_types.append(dtypes.as_dtype(feature.dtype))
            continue
        if not isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            raise ValueError("Unsupported %s %s." % (type(feature).__name__, feature))
        default, shape = _dense_params(key, feature)
        dense_keys.append(key)
        dense_defaults.append(default)
        dense_shapes.append(shape)
    return dense_keys, dense_defaults, dense_shapes, sparse_keys, sparse_types, _empty(dtypes.string)


def _parse(serialized, features, example_names, name):
    eager = _core.current_graph() is None
    key = _spec_key(features) if eager and isinstance(features, dict) else None
    prepared = _PREPARED.get(key) if key is not None else None
    if prepared is None:
        prepared = _prepare(features)
        if key is not None and len(_PREPARED) < 64:
            _PREPARED[key] = prepared
    dense_keys, dense_defaults, dense_shapes, sparse_keys, sparse_types, empty = prepared
    names = empty if example_names is None else array_ops.convert_to_tensor(example_names, dtypes.string)
    keys = array_ops.convert_to_tensor(sparse_keys, dtypes.string) if sparse_keys else empty
    outputs = list(node("ParseExampleV2", name)(
        serialized, names, keys, array_ops.convert_to_tensor(dense_keys, dtypes.string), empty, dense_defaults,
        num_sparse=len(sparse_keys), sparse_types=sparse_types, ragged_value_types=[], ragged_split_types=[],
        dense_shapes=dense_shapes))
    n = len(sparse_keys)
    result = {key: SparseTensor(outputs[i], outputs[n + i], outputs[2 * n + i]) for i, key in enumerate(sparse_keys)}
    result.update(zip(dense_keys, outputs[3 * n:]))
    return result


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
