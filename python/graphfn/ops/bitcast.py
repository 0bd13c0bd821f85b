"""tf.bitcast: a tensor's bytes read as another dtype, without copying (the Bitcast op,
cpp/graphfn/ops/bitcast_ops.cc). It has no gradient, as in TF (a gradient
through it is TF's LookupError)."""

from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops import array_ops
from graphfn.ops._op_table import node
from graphfn.util.tf_export import tf_export


@tf_export("bitcast")
def bitcast(input, type, name=None):  # noqa: A002 (TF's argument names)
    """`input`'s bytes as `type`: a narrower type appends a dimension of the size ratio, a wider
    one consumes the last dimension (which must equal the ratio)."""
    if not isinstance(input, Tensor):
        input = array_ops.convert_to_tensor(input, name="input")
    return node("Bitcast", name)(input, type=dtypes.as_dtype(type))
