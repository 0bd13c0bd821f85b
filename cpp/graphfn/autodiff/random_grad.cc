// Gradients of random ops (ops/random_sampling_ops.cc). RandomGamma is reparameterized as TF's:
// a sample moves with alpha so that its quantile stays fixed (RandomGammaGrad), and the gradient
// sums over the sample dimensions in front of alpha's.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using Grads = std::vector<GradValue>;

Status random_gamma_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const Shape shape_shape = b.static_shape(in.inputs[0]);
  if (!shape_shape.known_rank() || shape_shape.rank() != 1 || shape_shape.dim(0) < 0) {
    return errors::Unimplemented("the gradient of RandomGamma needs the number of sample dimensions when traced");
  }
  const int64_t sample_dims = shape_shape.dim(0);
  const GradValue& alpha = in.inputs[1];
  // alpha with sample_dims leading ones, so that it broadcasts against the samples.
  const GradValue lead = b.op("Fill", {b.int_vector({sample_dims}), b.scalar(DType::kInt32, 1)});
  const GradValue shape = b.op("ConcatV2", {lead, b.shape_of(alpha), b.scalar(DType::kInt32, 0)},
                               grad::attrs({{"N", int64_t{2}}}));
  const GradValue alpha_b = b.op("Reshape", {alpha, shape});
  const GradValue partial = b.op("RandomGammaGrad", {alpha_b, in.outputs[0]});
  std::vector<int64_t> axes(sample_dims);
  for (int64_t i = 0; i < sample_dims; ++i) axes[i] = i;
  (*g)[1] = b.op("Sum", {b.op("Mul", {dy(in), partial}), b.int_vector(axes)});
  return b.status();
}

}  // namespace

void register_random_gradients(OpRegistry& reg) {
  reg.set_gradient("RandomGamma", random_gamma_grad);
  // RandomGammaGrad: no gradient, as in TF (LookupError).
}

}  // namespace graphfn
