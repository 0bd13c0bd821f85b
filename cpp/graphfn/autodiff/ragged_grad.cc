// RaggedRange (ops/ragged_ops.cc) has no gradient: TF declares it not differentiable.
#include "graphfn/autodiff/gradient.h"
#include "graphfn/ir/op_registry.h"

namespace graphfn {

void register_ragged_gradients(OpRegistry& reg) { reg.set_not_differentiable("RaggedRange"); }

}  // namespace graphfn
