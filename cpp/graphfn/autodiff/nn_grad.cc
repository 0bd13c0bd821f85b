// Gradients of the softmax family (ops/nn_ops.cc).
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::out;
using grad::x;
using Grads = std::vector<GradValue>;

GradValue sum_last(GradBuilder& b, const GradValue& v) {
  return b.op("Sum", {v, b.scalar(DType::kInt32, -1)}, grad::attrs({{"keep_dims", true}}));
}

// (dy - sum(dy * y)) * y: the Jacobian of softmax applied to dy.
GradValue softmax_backward(GradBuilder& b, const GradValue& d, const GradValue& softmax) {
  return b.op("Mul", {b.op("Sub", {d, sum_last(b, b.op("Mul", {d, softmax}))}), softmax});
}

Status softmax_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = softmax_backward(b, dy(in), out(in));
  return b.status();
}

Status log_softmax_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Sub", {dy(in), b.op("Mul", {b.op("Exp", {out(in)}), sum_last(b, dy(in))})});
  return b.status();
}

// d loss / d logits is the op's own backprop output, scaled per row; a gradient reaching
// backprop (second derivatives) goes through softmax's Jacobian.
GradValue xent_logits_grad(GradBuilder& b, const GradInputs& in) {
  GradValue result;
  if (in.output_grads[0]) {
    const GradValue per_row = b.op("ExpandDims", {in.output_grads[0], b.scalar(DType::kInt32, -1)});
    result = b.op("Mul", {per_row, in.outputs[1]});
  }
  if (in.output_grads[1]) {
    const GradValue extra = softmax_backward(b, in.output_grads[1], b.op("Softmax", {x(in)}));
    result = result ? b.op("AddV2", {result, extra}) : extra;
  }
  return result;
}

Status sparse_xent_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = xent_logits_grad(b, in);
  return b.status();
}

// Labels get -log_softmax(logits) per unit of loss, summed where they were broadcast.
Status xent_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = xent_logits_grad(b, in);
  if (in.output_grads[0]) {
    const GradValue per_row = b.op("ExpandDims", {in.output_grads[0], b.scalar(DType::kInt32, -1)});
    const GradValue labels_grad = b.op("Mul", {per_row, b.op("Neg", {b.op("LogSoftmax", {x(in)})})});
    (*g)[1] = b.reduce_to_shape_of(labels_grad, in.inputs[1]);
  } else {
    // TF treats a missing loss gradient as zeros here (only backprop's may be None), so the
    // labels get zeros, not None (second derivatives).
    (*g)[1] = b.zeros_like(in.inputs[1]);
  }
  return b.status();
}

}  // namespace

void register_nn_gradients(OpRegistry& reg) {
  reg.set_gradient("Softmax", softmax_grad);
  reg.set_gradient("LogSoftmax", log_softmax_grad);
  reg.set_gradient("SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad);
  reg.set_gradient("SoftmaxCrossEntropyWithLogits", xent_grad);
}

}  // namespace graphfn
