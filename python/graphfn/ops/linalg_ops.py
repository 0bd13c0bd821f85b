"""Matrix products (tf.matmul, tf.linalg.matmul, and `a @ b` on tensors)."""

from graphfn import _core
from graphfn.framework import dtypes
from graphfn.framework.tensor import EagerTensor, Tensor
from graphfn.ops._op_table import ops
from graphfn.ops.array_ops import to_tensor
from graphfn.util.tf_export import tf_export


@tf_export("matmul", "linalg.matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """TF's op choice: rank-2 operands use MatMul, higher ranks BatchMatMulV2 (batch dims
    broadcast); an `output_type` that differs from an input dtype selects BatchMatMulV3;
    `a_is_sparse`/`b_is_sparse` keep rank-2 ops and, for float32, use SparseMatMul (which
    leaves out the terms where the sparse operand is 0). `grad_*` are hints."""
    if (type(a) is EagerTensor and type(b) is EagerTensor and a._rank == 2 and b._rank == 2 and not (
            transpose_a or transpose_b or adjoint_a or adjoint_b or a_is_sparse or b_is_sparse or output_type)):
        return ops.MatMul(a, b)  # the common eager case, without the checks below
    if transpose_a and adjoint_a:
        raise ValueError("Only one of `transpose_a` and `adjoint_a` can be True. Received "
                         "`transpose_a`=%s, `adjoint_a`=%s." % (transpose_a, adjoint_a))
    if transpose_b and adjoint_b:
        raise ValueError("Only one of `transpose_b` and `adjoint_b` can be True. Received "
                         "`transpose_b`=%s, `adjoint_b`=%s." % (transpose_b, adjoint_b))
    a = to_tensor(a)
    b = to_tensor(b, dtype_hint=a.dtype)  # b follows a's dtype when it can, else keeps its own
    if output_type is not None:
        output_type = dtypes.as_dtype(output_type)
    use_v3 = output_type is not None and (output_type != a.dtype or output_type != b.dtype)
    sparse = bool(a_is_sparse or b_is_sparse)
    # TF conjugates the operands it folds into an adjoint (batched: the transposed ones,
    # rank 2: the adjoint ones); conj rejects bool and string and changes complex values.
    if not sparse and (_batched(a) or _batched(b)):
        a = _conjugated(a, transpose_a)
        b = _conjugated(b, transpose_b)
        adj_a, adj_b = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
        if use_v3:
            return ops.BatchMatMulV3(a, b, Tout=output_type, adj_x=adj_a, adj_y=adj_b)
        return ops.BatchMatMulV2(a, b, adj_x=adj_a, adj_y=adj_b)
    a = _conjugated(a, adjoint_a)
    b = _conjugated(b, adjoint_b)
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    if sparse and a.dtype == dtypes.float32 and b.dtype == dtypes.float32:
        return ops.SparseMatMul(a, b, transpose_a=ta, transpose_b=tb, a_is_sparse=bool(a_is_sparse),
                                b_is_sparse=bool(b_is_sparse))
    if use_v3:
        return ops.BatchMatMulV3(a, b, Tout=output_type, adj_x=ta, adj_y=tb)
    return ops.MatMul(a, b, transpose_a=ta, transpose_b=tb)


def _conjugated(x, conjugate):
    """x, conjugated when asked and complex (TF's conj; it rejects bool and string)."""
    if conjugate and x.dtype in (dtypes.bool, dtypes.string):
        raise TypeError("Expected numeric or variant tensor, got dtype %r." % (x.dtype,))
    return ops.Conj(x) if conjugate and x.dtype.is_complex else x


def _batched(t):
    """Rank above 2, or unknown while tracing (TF then uses BatchMatMulV2 too)."""
    if isinstance(t, EagerTensor):
        return t._rank > 2
    dims = t._shape_dims
    return dims is None or len(dims) > 2
