// The one place that lists every op family and kernel family, in registration order:
// definitions first (ops/), then implementations (kernels/).
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_math_ops(OpRegistry& reg);
void register_array_ops(OpRegistry& reg);
void register_linalg_ops(OpRegistry& reg);
void register_reduction_ops(OpRegistry& reg);
void register_clip_ops(OpRegistry& reg);

void register_cwise_binary_kernels(OpRegistry& reg);
void register_cwise_unary_kernels(OpRegistry& reg);
void register_array_kernels(OpRegistry& reg);
void register_cast_kernels(OpRegistry& reg);
void register_matmul_kernels(OpRegistry& reg);
void register_reduction_kernels(OpRegistry& reg);
void register_argminmax_kernels(OpRegistry& reg);
void register_clip_kernels(OpRegistry& reg);

void register_builtin_ops(OpRegistry& reg) {
  register_math_ops(reg);
  register_array_ops(reg);
  register_linalg_ops(reg);
  register_reduction_ops(reg);
  register_clip_ops(reg);

  register_cwise_binary_kernels(reg);
  register_cwise_unary_kernels(reg);
  register_array_kernels(reg);
  register_cast_kernels(reg);
  register_matmul_kernels(reg);
  register_reduction_kernels(reg);
  register_argminmax_kernels(reg);
  register_clip_kernels(reg);
}

}  // namespace graphfn
