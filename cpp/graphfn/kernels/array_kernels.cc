// Kernels for array ops. Most only re-wrap or copy buffers.
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status const_kernel(KernelContext& c) {
  c.set_output(0, *c.attrs.get_tensor("value"));
  return Status::OK();
}

// Tensors are immutable once produced, so identity shares the buffer.
Status identity_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

}  // namespace

void register_array_kernels(OpRegistry& reg) {
  for (int d = 0; d < kNumDTypes; ++d) {
    if (!is_valid(static_cast<DType>(d))) continue;
    reg.set_kernel("Const", static_cast<DType>(d), &const_kernel);
    reg.set_kernel("Identity", static_cast<DType>(d), &identity_kernel);
  }
}

}  // namespace graphfn
