// Kernels for graph-only ops. A Placeholder is fed by the executor; running its kernel means
// nothing was fed. NoOp does nothing.
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status placeholder_kernel(KernelContext& c) {
  return errors::InvalidArgument("You must feed a value for placeholder tensor with dtype ",
                                 dtype_name(c.type_attr("dtype")));
}

Status no_op_kernel(KernelContext&) { return Status::OK(); }

}  // namespace

void register_graph_kernels(OpRegistry& reg) {
  reg.set_kernel("NoOp", DType::kInvalid, &no_op_kernel);
  for (int d = 0; d < kNumDTypes; ++d) {
    if (is_valid(static_cast<DType>(d))) reg.set_kernel("Placeholder", static_cast<DType>(d), &placeholder_kernel);
  }
}

}  // namespace graphfn
