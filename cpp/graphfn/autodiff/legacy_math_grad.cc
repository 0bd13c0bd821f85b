// Gradients of ops/legacy_math_ops.cc and ops/bitwise_shift_ops.cc, as TF registers them: Div
// differentiates as RealDiv, Inv through ReciprocalGrad (ops/cwise_extra_ops.cc); shifts and PopulationCount
// are not differentiable; Mod and Bucketize have no gradient (TF's LookupError).
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

// TF's: ReciprocalGrad(y, dy) = -dy * conj(y)^2, y = 1 / x.
Status inv_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* g) {
  (*g)[0] = b.op("ReciprocalGrad", {grad::out(in), grad::dy(in)});
  return b.status();
}

}  // namespace

void register_legacy_math_gradients(OpRegistry& reg) {
  reg.set_gradient("Div", reg.find("RealDiv")->grad_fn);
  reg.set_gradient("Inv", inv_grad);
  for (const char* op : {"LeftShift", "RightShift", "PopulationCount"}) reg.set_not_differentiable(op);
}

}  // namespace graphfn
