// LogicalNot, the one unary element-wise op without a type attr. The unary math ops are one
// line each in ops/math_cwise.def (kernels: kernels/math_cwise_kernels.cc).
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status logical_not_kernel(KernelContext& c) {
  const bool* in = c.input(0).data<bool>();
  bool* out = c.allocate_output(0).data<bool>();
  for (int64_t i = 0; i < c.input(0).num_elements(); ++i) out[i] = !in[i];
  return Status::OK();
}

}  // namespace

void register_cwise_unary_kernels(OpRegistry& reg) {
  reg.set_kernel("LogicalNot", DType::kInvalid, &logical_not_kernel);
}

}  // namespace graphfn
