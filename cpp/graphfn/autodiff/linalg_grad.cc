// Gradients of MatMul, SparseMatMul and BatchMatMulV2/V3 (ops/linalg_ops.cc), for every
// transpose/adjoint mix.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using grad::y;
using Grads = std::vector<GradValue>;

enum MatMulKind { kMatMul, kSparseMatMul, kBatchMatMulV2, kBatchMatMulV3 };

// For C = op_a(A) op_b(B): dA and dB as products of (dy, A, B) with transposes, per TF's table,
// with the forward op itself (batched ones sum broadcast batch dims back).
template <MatMulKind kKind>
Status matmul_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  constexpr bool kBatch = kKind == kBatchMatMulV2 || kKind == kBatchMatMulV3;
  const char* op = kKind == kMatMul ? "MatMul" : kKind == kSparseMatMul ? "SparseMatMul"
                   : kKind == kBatchMatMulV2 ? "BatchMatMulV2" : "BatchMatMulV3";
  const char* ta_name = kBatch ? "adj_x" : "transpose_a";
  const char* tb_name = kBatch ? "adj_y" : "transpose_b";
  const bool ta = in.attr_bool(ta_name), tb = in.attr_bool(tb_name);
  // V3 may mix dtypes: each gradient gets the dtype of the input it is for.
  const GradValue* target = nullptr;
  auto mm = [&](const GradValue& p, const GradValue& q, bool tp, bool tq) {
    AttrMap attrs = grad::attrs({{ta_name, tp}, {tb_name, tq}});
    if (kKind == kBatchMatMulV3) attrs.set("Tout", b.dtype(*target));
    return b.op(op, {p, q}, attrs);
  };
  // MatMul's transposes do not conjugate: TF conjugates complex operands first (the batched
  // ops' adjoints already conjugate).
  const GradValue a = kBatch ? x(in) : grad::conj_if_complex(b, x(in));
  const GradValue bb = kBatch ? y(in) : grad::conj_if_complex(b, y(in));
  const GradValue& d = dy(in);
  GradValue ga, gb;
  target = &a;
  ga = !ta ? mm(d, bb, false, !tb) : tb ? mm(bb, d, true, true) : mm(bb, d, false, true);
  target = &bb;
  gb = !tb ? mm(a, d, !ta, false) : ta ? mm(d, a, true, true) : mm(d, a, true, false);
  if (kBatch) return grad::binary(b, in, ga, gb, g);  // broadcast batch dims are summed
  (*g)[0] = ga;
  (*g)[1] = gb;
  return b.status();
}

}  // namespace

void register_linalg_gradients(OpRegistry& reg) {
  reg.set_gradient("MatMul", matmul_grad<kMatMul>);
  reg.set_gradient("SparseMatMul", matmul_grad<kSparseMatMul>);
  reg.set_gradient("BatchMatMulV2", matmul_grad<kBatchMatMulV2>);
  reg.set_gradient("BatchMatMulV3", matmul_grad<kBatchMatMulV3>);
}

}  // namespace graphfn
