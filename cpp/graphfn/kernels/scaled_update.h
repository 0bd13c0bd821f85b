// The kernel side of passes/scaled_updates.h: a variable's next value current - scale * delta
// (or + for AssignAddVariableOp) in one pass, with the bits of Mul followed by Sub/AddV2.
#pragma once
#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"

namespace graphfn {

// The attr of AssignSubVariableOp/AssignAddVariableOp carrying the scale, a scalar tensor of the
// variable's dtype (set by passes/scaled_updates.h).
inline constexpr const char* kUpdateScaleAttr = "_scale";

// *next = current (+|-) scale * delta, scale a scalar tensor. Same-shape float and double
// operands take one fused loop; anything else (broadcasting, other dtypes) runs the Mul and
// Sub/AddV2 kernels, so errors are the unfused ops' own.
Status scaled_update(const Tensor& current, const Tensor& delta, const Tensor& scale, bool add, Tensor* next);

}  // namespace graphfn
