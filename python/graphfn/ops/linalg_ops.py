"""Matrix products (tf.matmul, tf.linalg.matmul, and `a @ b` on tensors)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import Tensor
from graphfn.ops._op_table import ops
from graphfn.util.tf_export import tf_export


@tf_export("matmul", "linalg.matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """Rank-2 operands use MatMul, higher ranks BatchMatMulV2 (batch dims broadcast); an
    `output_type` that differs from an input dtype selects BatchMatMulV3, as in TF.
    `*_is_sparse` and `grad_*` are hints that do not change the result."""
    if transpose_a and adjoint_a:
        raise ValueError("Only one of `transpose_a` and `adjoint_a` can be True. Received "
                         "`transpose_a`=%s, `adjoint_a`=%s." % (transpose_a, adjoint_a))
    if transpose_b and adjoint_b:
        raise ValueError("Only one of `transpose_b` and `adjoint_b` can be True. Received "
                         "`transpose_b`=%s, `adjoint_b`=%s." % (transpose_b, adjoint_b))
    if not isinstance(a, Tensor):
        a = _core.to_tensor(a)
    if not isinstance(b, Tensor):
        try:  # b follows a's dtype when it can (TF's dtype_hint), else keeps its own
            b = _core.to_tensor(b, a._dtype_enum)
        except (TypeError, ValueError):
            b = _core.to_tensor(b)
    batched = a._rank > 2 or b._rank > 2
    # TF conjugates the operands it folds into an adjoint (batched: the transposed ones;
    # rank 2: the adjoint ones); conj rejects bool and string.
    _check_conjugable(a, transpose_a if batched else adjoint_a)
    _check_conjugable(b, transpose_b if batched else adjoint_b)
    # Only real dtypes exist here, so the adjoint is the transpose.
    adj_a = bool(transpose_a or adjoint_a)
    adj_b = bool(transpose_b or adjoint_b)
    if output_type is not None:
        output_type = dtypes.as_dtype(output_type)
        if output_type != a.dtype or output_type != b.dtype:
            return ops.BatchMatMulV3(a, b, Tout=output_type, adj_x=adj_a, adj_y=adj_b)
    if batched:
        return ops.BatchMatMulV2(a, b, adj_x=adj_a, adj_y=adj_b)
    return ops.MatMul(a, b, transpose_a=adj_a, transpose_b=adj_b)


def _check_conjugable(x, conjugated):
    if conjugated and x.dtype in (dtypes.bool, dtypes.string):
        raise TypeError("Expected numeric or variant tensor, got dtype %r." % (x.dtype,))
