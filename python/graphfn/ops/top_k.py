"""tf.math.top_k (TopKV2) and tf.math.in_top_k (InTopKV2), also under tf.nn."""

import collections

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops import _fast_path
from graphfn.framework.name_scope import name_scope
from graphfn.ops._op_table import node, ops
from graphfn.util.tf_export import tf_export

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


@tf_export("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002 (TF's names)
    """The k largest entries of each last-axis row, largest first (ties: lower index first)."""
    fast = _fast_path.is_plain(input) and _fast_path.is_plain(k)
    if not isinstance(k, Tensor):  # TF converts a Python k to int32 first (1.5 raises TypeError)
        k = _core.to_tensor(k, dtypes.int32.as_datatype_enum)
    values, indices = _fast_path.call(fast, node("TopKV2", name), input, k, sorted=bool(sorted),
                                      index_type=dtypes.as_dtype(index_type))
    return TopKV2(values, indices)


@tf_export("math.in_top_k", "nn.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    """Whether each target class is among its row's k largest predictions."""
    fast = all(_fast_path.is_plain(v) for v in (targets, predictions, k))
    with name_scope(name or "in_top_k"):  # TF's node: "in_top_k/InTopKV2"
        return _fast_path.call(fast, ops.InTopKV2, predictions, targets, k)
