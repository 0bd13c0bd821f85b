"""The ragged package's public objects, gathered for ragged_names' lazy exports. Importing this
module loads RaggedTensor with all its methods and registers its dispatch."""

from graphfn.ops.ragged_tensor import (  # noqa: F401
    RaggedTensor, RaggedTensorSpec, row_splits_to_segment_ids, segment_ids_to_row_splits)
from graphfn.ops.ragged_factory import constant, ragged_range  # noqa: F401
from graphfn.ops.ragged_ops import boolean_mask, map_flat_values  # noqa: F401
from graphfn.ops import ragged_ops as _ragged_ops
from graphfn.ops import ragged_getitem as _ragged_getitem  # noqa: F401  (installs RaggedTensor.__getitem__)
from graphfn.ops.ragged_shape import DynamicRaggedShape  # noqa: F401  (also tf.shape of a RaggedTensor)
from graphfn.ops.row_partition import RowPartition  # noqa: F401


def stack(values, axis=0, name=None):
    """tf.ragged.stack: stacks tensors (ragged or dense) into a RaggedTensor."""
    return _ragged_ops.stack([_as_ragged(v) for v in values], axis, name)


def _as_ragged(value):
    value = _ragged_ops._convert(value)
    if isinstance(value, RaggedTensor):
        return value
    rank = value.shape.rank
    if rank is not None and rank >= 2:
        return RaggedTensor.from_tensor(value)
    return value
from graphfn.ops import ragged_sparse as _ragged_sparse  # noqa: F401,E402  (installs RaggedTensor.to_sparse / from_sparse)
