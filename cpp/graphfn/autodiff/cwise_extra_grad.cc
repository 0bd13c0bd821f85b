// Gradients of ops/cwise_extra_ops.cc, TF's formulas (math_grad.py): the fused gradient ops
// differentiate in y (a) and dy (b), with conjugates for complex values; Xlog1py as Xlogy;
// NextAfter passes the gradient to x1 only. ApproximateEqual is not differentiable.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using Grads = std::vector<GradValue>;

GradValue conj_of(GradBuilder& b, const GradValue& v) { return grad::conj_if_complex(b, v); }
GradValue grad_product(GradBuilder& b, const GradValue& x, const GradValue& y) { return b.op("Mul", {x, y}); }
GradValue grad_scaled(GradBuilder& b, double k, const GradValue& v) { return grad_product(b, b.scalar(b.dtype(v), k), v); }

// d/dy and d/d(dy) of dy * y * (1 - y): (g b - 2 g b a, SigmoidGrad(a, g)), a = conj(y), b = conj(dy).
Status sigmoid_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue a = conj_of(b, grad::x(in)), bb = conj_of(b, grad::y(in));
  const GradValue gb = grad_product(b, grad::dy(in), bb);
  (*g)[0] = b.op("Sub", {gb, grad_product(b, grad_scaled(b, 2.0, gb), a)});
  (*g)[1] = b.op("SigmoidGrad", {a, grad::dy(in)});
  return b.status();
}

// dy * (1 - y^2): (-2 g b a, TanhGrad(a, g)).
Status tanh_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue a = conj_of(b, grad::x(in)), bb = conj_of(b, grad::y(in));
  (*g)[0] = grad_product(b, grad_product(b, grad_scaled(b, -2.0, grad::dy(in)), bb), a);
  (*g)[1] = b.op("TanhGrad", {a, grad::dy(in)});
  return b.status();
}

// 0.5 dy / conj(y): with ga = g / y, (-conj(ga) z, 0.5 ga).
Status sqrt_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue ga = b.op("RealDiv", {grad::dy(in), grad::x(in)});
  (*g)[0] = grad_product(b, b.op("Neg", {conj_of(b, ga)}), grad::out(in));
  (*g)[1] = grad_scaled(b, 0.5, ga);
  return b.status();
}

// -0.5 dy conj(y)^3: (-1.5 conj(g) dy conj(y)^2, RsqrtGrad(conj(y), g)).
Status rsqrt_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue ca = conj_of(b, grad::x(in)), cg = conj_of(b, grad::dy(in));
  (*g)[0] = grad_product(b, grad_product(b, grad_scaled(b, -1.5, cg), grad::y(in)), b.op("Square", {ca}));
  (*g)[1] = b.op("RsqrtGrad", {ca, grad::dy(in)});
  return b.status();
}

// -dy conj(y)^2: (-2 conj(g) dy conj(y), ReciprocalGrad(conj(y), g)).
Status reciprocal_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue ca = conj_of(b, grad::x(in)), cg = conj_of(b, grad::dy(in));
  (*g)[0] = grad_product(b, grad_product(b, grad_scaled(b, -2.0, cg), grad::y(in)), ca);
  (*g)[1] = b.op("ReciprocalGrad", {ca, grad::dy(in)});
  return b.status();
}

// x log1p(y): (Xlog1py(x != 0, y) g, Xdivy(x, y + 1) g), each reduced to its input's shape.
Status xlog1py_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& x = grad::x(in);
  const DType dt = b.dtype(x);
  const GradValue nonzero = b.op("Cast", {b.op("NotEqual", {x, b.scalar(dt, 0.0)})},
                                 grad::attrs({{"SrcT", DType::kBool}, {"DstT", dt}}));
  const GradValue gx = grad_product(b, b.op("Xlog1py", {nonzero, grad::y(in)}), grad::dy(in));
  const GradValue gy = grad_product(b, b.op("Xdivy", {x, b.op("AddV2", {grad::y(in), b.scalar(dt, 1.0)})}), grad::dy(in));
  return grad::binary(b, in, gx, gy, g);
}

Status next_after_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  return grad::binary(b, in, grad::dy(in), b.zeros_like(grad::y(in)), g);
}

}  // namespace

void register_cwise_extra_gradients(OpRegistry& reg) {
  reg.set_gradient("SigmoidGrad", sigmoid_grad_grad);
  reg.set_gradient("TanhGrad", tanh_grad_grad);
  reg.set_gradient("SqrtGrad", sqrt_grad_grad);
  reg.set_gradient("RsqrtGrad", rsqrt_grad_grad);
  reg.set_gradient("ReciprocalGrad", reciprocal_grad_grad);
  reg.set_gradient("InvGrad", reciprocal_grad_grad);
  reg.set_gradient("Xlog1py", xlog1py_grad);
  reg.set_gradient("NextAfter", next_after_grad);
  reg.set_not_differentiable("ApproximateEqual");
}

}  // namespace graphfn
