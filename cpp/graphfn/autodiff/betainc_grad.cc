// Gradient of Betainc (ops/betainc_ops.cc), TF's: only x gets one, the beta density
// x^(a-1) (1-x)^(b-1) / B(a, b) computed in log space (xlogy/xlog1py keep the tails finite when
// a or b is 1), times the output gradient, summed back to x's shape. a and b get none, as in TF.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

Status betainc_grad(GradBuilder& b, const GradInputs& in, std::vector<GradValue>* g) {
  const GradValue& pa = in.inputs[0];
  const GradValue& pb = in.inputs[1];
  const GradValue& px = in.inputs[2];
  const DType dt = b.dtype(px);
  const GradValue one = b.scalar(dt, 1.0);
  const GradValue log_beta =
      b.op("Sub", {b.op("AddV2", {b.op("Lgamma", {pa}), b.op("Lgamma", {pb})}), b.op("Lgamma", {b.op("AddV2", {pa, pb})})});
  const GradValue log_density = b.op("Sub", {b.op("AddV2", {b.op("Xlog1py", {b.op("Sub", {pb, one}), b.op("Neg", {px})}),
                                                            b.op("Xlogy", {b.op("Sub", {pa, one}), px})}),
                                             log_beta});
  const GradValue gx = b.op("Mul", {b.op("Exp", {log_density}), grad::dy(in)});
  (*g)[2] = b.reduce_to_shape_of(gx, px);
  return b.status();
}

}  // namespace

void register_betainc_gradients(OpRegistry& reg) { reg.set_gradient("Betainc", betainc_grad); }

}  // namespace graphfn
