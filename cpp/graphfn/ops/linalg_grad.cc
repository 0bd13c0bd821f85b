// Gradients of MatMul and BatchMatMulV2 (ops/linalg_ops.cc), for every transpose/adjoint mix.
#include "graphfn/ops/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using grad::y;
using Grads = std::vector<GradValue>;

// For C = op_a(A) op_b(B): dA and dB as products of (dy, A, B) with transposes, per TF's table.
template <bool kBatch>
Status matmul_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const char* op = kBatch ? "BatchMatMulV2" : "MatMul";
  const char* ta_name = kBatch ? "adj_x" : "transpose_a";
  const char* tb_name = kBatch ? "adj_y" : "transpose_b";
  const bool ta = in.attr_bool(ta_name), tb = in.attr_bool(tb_name);
  auto mm = [&](const GradValue& p, const GradValue& q, bool tp, bool tq) {
    return b.op(op, {p, q}, grad::attrs({{ta_name, tp}, {tb_name, tq}}));
  };
  const GradValue &a = x(in), &bb = y(in), &d = dy(in);
  GradValue ga, gb;
  if (!ta && !tb) {
    ga = mm(d, bb, false, true);
    gb = mm(a, d, true, false);
  } else if (!ta && tb) {
    ga = mm(d, bb, false, false);
    gb = mm(d, a, true, false);
  } else if (ta && !tb) {
    ga = mm(bb, d, false, true);
    gb = mm(a, d, false, false);
  } else {
    ga = mm(bb, d, true, true);
    gb = mm(d, a, true, true);
  }
  if (kBatch) return grad::binary(b, in, ga, gb, g);  // broadcast batch dims are summed
  (*g)[0] = ga;
  (*g)[1] = gb;
  return b.status();
}

}  // namespace

void register_linalg_gradients(OpRegistry& reg) {
  reg.set_gradient("MatMul", matmul_grad<false>);
  reg.set_gradient("BatchMatMulV2", matmul_grad<true>);
}

}  // namespace graphfn
