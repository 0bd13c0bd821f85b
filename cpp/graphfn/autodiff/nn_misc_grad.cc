// Gradients of the fused tf.nn ops of ops/nn_misc_ops.cc: activations, BiasAdd, L2Loss,
// FusedBatchNormV3 and LRN. Second derivatives follow TF's gradient functions.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::out;
using grad::x;
using Grads = std::vector<GradValue>;

// The forward op's attrs named here, for the gradient op (defaults filled in by the op).
AttrMap copy_attrs(const GradInputs& in, std::initializer_list<const char*> names) {
  AttrMap m;
  for (const char* name : names) {
    if (const AttrValue* v = in.attrs->find(name)) m.set(name, *v);
  }
  return m;
}

// Activations whose gradient op reads the output (Elu, Selu) or the input (the others).
template <const char* kGradOp, bool kFromOutput>
Status activation_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op(kGradOp, {dy(in), kFromOutput ? out(in) : x(in)}, copy_attrs(in, {"alpha"}));
  return b.status();
}
constexpr char kEluGrad[] = "EluGrad";
constexpr char kSeluGrad[] = "SeluGrad";
constexpr char kRelu6Grad[] = "Relu6Grad";
constexpr char kLeakyReluGrad[] = "LeakyReluGrad";
constexpr char kSoftplusGrad[] = "SoftplusGrad";
constexpr char kSoftsignGrad[] = "SoftsignGrad";

// EluGrad/SeluGrad(g, y): linear in g; y gets g * grad where y < 0 (TF's second derivative).
template <const char* kGradOp>
Status exp_linear_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& y = in.inputs[1];
  (*g)[0] = b.op(kGradOp, {dy(in), y});
  const GradValue negative = b.op("Less", {y, b.scalar(b.dtype(y), 0)});
  (*g)[1] = b.op("SelectV2", {negative, b.op("Mul", {dy(in), in.inputs[0]}), b.zeros_like(y)});
  return b.status();
}

// Relu6Grad/LeakyReluGrad(g, features): linear in g; the features get zeros.
template <const char* kGradOp>
Status piecewise_linear_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op(kGradOp, {dy(in), in.inputs[1]}, copy_attrs(in, {"alpha"}));
  (*g)[1] = b.zeros_like(in.inputs[1]);
  return b.status();
}

// SoftplusGrad(g, x) = g * sigmoid(x): d/dx = g / (exp(-x) + 2 + exp(x)).
Status softplus_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& f = in.inputs[1];
  (*g)[0] = b.op("SoftplusGrad", {dy(in), f});
  const GradValue denom = b.op("AddV2", {b.op("AddV2", {b.op("Exp", {b.op("Neg", {f})}), b.scalar(b.dtype(f), 2)}),
                                         b.op("Exp", {f})});
  (*g)[1] = b.op("RealDiv", {b.op("Mul", {dy(in), in.inputs[0]}), denom});
  return b.status();
}

Status bias_add_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = dy(in);
  (*g)[1] = b.op("BiasAddGrad", {dy(in)}, copy_attrs(in, {"data_format"}));
  return b.status();
}

// BiasAddGrad sums over all but the channel axis: its gradient broadcasts back.
Status bias_add_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const Shape s = b.static_shape(x(in));
  if (!s.known_rank()) {
    b.set_error(errors::Unimplemented("The gradient of BiasAddGrad needs the rank of its input"));
    return b.status();
  }
  const AttrValue* format = in.attrs->find("data_format");
  const bool nchw = format && std::get_if<std::string>(format) && *std::get_if<std::string>(format) == "NCHW";
  const int axis = nchw && s.rank() > 2 ? 1 : s.rank() - 1;
  std::vector<int64_t> expanded(s.rank(), 1);
  expanded[axis] = -1;
  (*g)[0] = b.op("BroadcastTo", {b.op("Reshape", {dy(in), b.int_vector(expanded)}), b.shape_of(x(in))});
  return b.status();
}

Status l2_loss_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Mul", {x(in), dy(in)});
  return b.status();
}

Status lrn_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("LRNGrad", {dy(in), x(in), out(in)}, copy_attrs(in, {"depth_radius", "bias", "alpha", "beta"}));
  return b.status();
}

// x, scale and offset get FusedBatchNormGradV3's outputs; mean and variance get none (as TF).
// In training the statistics are the batch's (reserve spaces 1 and 2), else the given ones.
Status fused_batch_norm_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const bool training = in.attr_bool("is_training");
  const GradValue d = dy(in) ? dy(in) : b.zeros_like(out(in));
  const GradValue& mean = training ? in.outputs[3] : in.inputs[3];
  const GradValue& variance = training ? in.outputs[4] : in.inputs[4];
  const std::vector<GradValue> r = b.op_n("FusedBatchNormGradV3",
                                          {d, x(in), in.inputs[1], mean, variance, in.outputs[5]},
                                          copy_attrs(in, {"epsilon", "data_format", "is_training"}));
  if (r.size() == 5) {
    (*g)[0] = r[0];
    (*g)[1] = r[1];
    (*g)[2] = r[2];
  }
  return b.status();
}

}  // namespace

void register_nn_misc_gradients(OpRegistry& reg) {
  reg.set_gradient("Elu", activation_grad<kEluGrad, true>);
  reg.set_gradient("Selu", activation_grad<kSeluGrad, true>);
  reg.set_gradient("Relu6", activation_grad<kRelu6Grad, false>);
  reg.set_gradient("LeakyRelu", activation_grad<kLeakyReluGrad, false>);
  reg.set_gradient("Softplus", activation_grad<kSoftplusGrad, false>);
  reg.set_gradient("Softsign", activation_grad<kSoftsignGrad, false>);
  reg.set_gradient("EluGrad", exp_linear_grad_grad<kEluGrad>);
  reg.set_gradient("SeluGrad", exp_linear_grad_grad<kSeluGrad>);
  reg.set_gradient("Relu6Grad", piecewise_linear_grad_grad<kRelu6Grad>);
  reg.set_gradient("LeakyReluGrad", piecewise_linear_grad_grad<kLeakyReluGrad>);
  reg.set_gradient("SoftplusGrad", softplus_grad_grad);
  reg.set_gradient("BiasAdd", bias_add_grad);
  reg.set_gradient("BiasAddGrad", bias_add_grad_grad);
  reg.set_gradient("L2Loss", l2_loss_grad);
  reg.set_gradient("LRN", lrn_grad);
  reg.set_gradient("FusedBatchNormV3", fused_batch_norm_grad);
}

}  // namespace graphfn
