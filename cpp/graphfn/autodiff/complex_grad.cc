// Gradients of the complex ops (ops/complex_ops.cc), with TF's conventions: the gradient of a
// real loss L with respect to z = x + iy is dL/dx + i dL/dy.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

// complex(re, im) with the dtype made from re's.
GradValue make_complex(GradBuilder& b, const GradValue& re, const GradValue& im) {
  const DType tout = b.dtype(re) == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64;
  return b.op("Complex", {re, im}, grad::attrs({{"Tout", tout}}));
}

GradValue part(GradBuilder& b, const char* op, const GradValue& z) {
  return b.op(op, {z}, grad::attrs({{"Tout", real_dtype(b.dtype(z))}}));
}

// Complex(re, im): re gets real(dz), im gets imag(dz), each summed over broadcast dims.
Status complex_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  return grad::binary(b, in, part(b, "Real", dy(in)), part(b, "Imag", dy(in)), g);
}

Status real_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = make_complex(b, dy(in), b.zeros_like(dy(in)));
  return b.status();
}

Status imag_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = make_complex(b, b.zeros_like(dy(in)), dy(in));
  return b.status();
}

Status conj_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Conj", {dy(in)});
  return b.status();
}

// |z|: dy * z / |z| (0 where z is 0, TF's DivNoNan).
Status complex_abs_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& z = x(in);
  const GradValue scaled = b.op("Mul", {make_complex(b, dy(in), b.zeros_like(dy(in))), z});
  const GradValue modulus = make_complex(b, grad::out(in), b.zeros_like(grad::out(in)));
  (*g)[0] = b.op("DivNoNan", {scaled, modulus});
  return b.status();
}

// arg(z): -dy / (im + i re), as TF writes it.
Status angle_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& z = x(in);
  const GradValue swapped = make_complex(b, part(b, "Imag", z), part(b, "Real", z));
  const GradValue dz = make_complex(b, dy(in), b.zeros_like(dy(in)));
  (*g)[0] = b.op("Neg", {b.op("Mul", {dz, b.op("RealDiv", {b.scalar(b.dtype(swapped), 1.0), swapped})})});
  return b.status();
}

}  // namespace

void register_complex_gradients(OpRegistry& reg) {
  reg.set_gradient("Complex", complex_grad);
  reg.set_gradient("Real", real_grad);
  reg.set_gradient("Imag", imag_grad);
  reg.set_gradient("Conj", conj_grad);
  reg.set_gradient("ComplexAbs", complex_abs_grad);
  reg.set_gradient("Angle", angle_grad);
}

}  // namespace graphfn
