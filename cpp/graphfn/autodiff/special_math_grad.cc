// Gradients of ops/special_math_ops.cc, TF's formulas (math_grad.py). IgammaGradA has none, as
// in TF.
#include <cmath>

#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using Grads = std::vector<GradValue>;

GradValue special_mul(GradBuilder& b, const GradValue& x, const GradValue& y) { return b.op("Mul", {x, y}); }

// d erfinv(x) = sqrt(pi) / 2 * exp(y^2).
Status erfinv_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& y = grad::out(in);
  const GradValue scale = b.scalar(b.dtype(y), std::sqrt(M_PI) / 2);
  (*g)[0] = special_mul(b, special_mul(b, grad::dy(in), scale), b.op("Exp", {b.op("Square", {y})}));
  return b.status();
}

// d ndtri(x) = sqrt(2 pi) * exp(y^2 / 2).
Status ndtri_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& y = grad::out(in);
  const DType dt = b.dtype(y);
  const GradValue half_square = b.op("RealDiv", {b.op("Square", {y}), b.scalar(dt, 2.0)});
  (*g)[0] = special_mul(b, special_mul(b, grad::dy(in), b.scalar(dt, std::sqrt(2 * M_PI))), b.op("Exp", {half_square}));
  return b.status();
}

// (IgammaGradA(a, x), exp(-x + (a - 1) log x - lgamma(a))), times the gradient, negated for Igammac.
Status igamma_grads(GradBuilder& b, const GradInputs& in, bool upper, Grads* g) {
  const GradValue& a = grad::x(in);
  const GradValue& x = grad::y(in);
  const DType dt = b.dtype(a);
  const GradValue partial_a = b.op("IgammaGradA", {a, x});
  const GradValue log_density = b.op("Sub", {b.op("AddV2", {b.op("Neg", {x}), special_mul(b, b.op("Sub", {a, b.scalar(dt, 1.0)}),
                                                                                           b.op("Log", {x}))}),
                                             b.op("Lgamma", {a})});
  GradValue ga = special_mul(b, partial_a, grad::dy(in));
  GradValue gx = special_mul(b, b.op("Exp", {log_density}), grad::dy(in));
  if (upper) {
    ga = b.op("Neg", {ga});
    gx = b.op("Neg", {gx});
  }
  return grad::binary(b, in, ga, gx, g);
}

Status igamma_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return igamma_grads(b, in, false, g); }
Status igammac_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return igamma_grads(b, in, true, g); }

}  // namespace

void register_special_math_gradients(OpRegistry& reg) {
  reg.set_gradient("Erfinv", erfinv_grad);
  reg.set_gradient("Ndtri", ndtri_grad);
  reg.set_gradient("Igamma", igamma_grad);
  reg.set_gradient("Igammac", igammac_grad);
}

}  // namespace graphfn
