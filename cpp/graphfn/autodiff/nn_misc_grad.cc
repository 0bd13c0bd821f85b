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

// d softplus(x) = g * sigmoid(x), built as TF 2.21's gradient builds it (a Mul of a Sigmoid, not
// the SoftplusGrad op), so every dtype rounds as TF's does.
Status softplus_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Mul", {dy(in), b.op("Sigmoid", {x(in)})});
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

// The gradient of FusedBatchNormGradV3 (second derivatives of batch norm), in closed form. Per
// channel, with r = 1/sqrt(var + eps), x^ = (x - mean) r, a = y_backprop, and the incoming
// gradients u (of x_backprop), v (of scale_backprop), w (of offset_backprop):
//   inference: x_backprop = s r a, so  da = s r u + v x^ + w,  dx = v r a,  ds = sum(u r a);
//   training:  x_backprop = s P(a) with P(z) = r (z - mean(z) - x^ mean(z x^)) (the Jacobian of
//   x^, symmetric), scale_backprop = sum(a x^), and the batch statistics depend on x:
//     da = s P(u) + v x^ + w
//     ds = sum(u P(a))
//     dx = -s r^2 x^ (mean(u a) - mean(u) mean(a) - m q) - s r (q P(a) + m P(u)) + v P(a)
//   where m = mean(a x^), q = mean(u x^). Means and sums run over every axis but the channels.
Status fused_batch_norm_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& a = in.inputs[0];
  const GradValue& x = in.inputs[1];
  const GradValue& scale = in.inputs[2];
  const Shape shape = b.static_shape(x);
  if (!shape.known_rank()) {
    b.set_error(errors::Unimplemented("The gradient of FusedBatchNormGradV3 needs the rank of its input"));
    return b.status();
  }
  const AttrValue* format_attr = in.attrs->find("data_format");
  const std::string* format = format_attr ? std::get_if<std::string>(format_attr) : nullptr;
  const bool channels_first = format && (*format == "NCHW" || *format == "NCDHW");
  const int rank = shape.rank(), channel_axis = channels_first ? 1 : rank - 1;
  std::vector<int64_t> axes, per_channel(rank, 1);
  for (int i = 0; i < rank; ++i) {
    if (i != channel_axis) axes.push_back(i);
  }
  per_channel[channel_axis] = -1;
  const GradValue axes_v = b.int_vector(axes);
  const GradValue channel_shape = b.int_vector(per_channel);
  const GradValue flat = b.int_vector({-1});
  const AttrMap keep = grad::attrs({{"keep_dims", true}});
  auto broadcast = [&](const GradValue& v) { return b.op("Reshape", {v, channel_shape}); };
  auto mean = [&](const GradValue& v) { return b.op("Mean", {v, axes_v}, keep); };
  auto sum_per_channel = [&](const GradValue& v) { return b.op("Reshape", {b.op("Sum", {v, axes_v}), flat}); };
  auto mul = [&](const GradValue& p, const GradValue& q) { return b.op("Mul", {p, q}); };
  auto sub = [&](const GradValue& p, const GradValue& q) { return b.op("Sub", {p, q}); };
  auto add = [&](const GradValue& p, const GradValue& q) { return b.op("AddV2", {p, q}); };

  const DType dt = b.dtype(x);
  const AttrValue* eps_attr = in.attrs->find("epsilon");
  const double epsilon = eps_attr && std::get_if<double>(eps_attr) ? *std::get_if<double>(eps_attr) : 0.0001;
  const GradValue u = in.output_grads[0] ? in.output_grads[0] : b.zeros_like(x);
  const GradValue v = broadcast(in.output_grads[1] ? in.output_grads[1] : b.zeros_like(scale));
  const GradValue w = broadcast(in.output_grads[2] ? in.output_grads[2] : b.zeros_like(scale));
  const GradValue s = broadcast(scale);
  const GradValue r = b.op("RealDiv", {b.scalar(dt, 1), b.op("Sqrt", {add(broadcast(in.inputs[4]), b.scalar(dt, epsilon))})});
  const GradValue x_hat = mul(sub(x, broadcast(in.inputs[3])), r);

  if (!in.attr_bool("is_training")) {
    (*g)[0] = add(add(mul(mul(u, s), r), mul(v, x_hat)), w);
    (*g)[1] = mul(mul(v, a), r);
    (*g)[2] = sum_per_channel(mul(mul(u, a), r));
    return b.status();
  }
  auto project = [&](const GradValue& z) {  // P(z)
    return mul(r, sub(sub(z, mean(z)), mul(x_hat, mean(mul(z, x_hat)))));
  };
  const GradValue p_a = project(a), p_u = project(u);
  const GradValue m = mean(mul(a, x_hat)), q = mean(mul(u, x_hat));
  (*g)[0] = add(add(mul(s, p_u), mul(v, x_hat)), w);
  const GradValue cov = sub(sub(mean(mul(u, a)), mul(mean(u), mean(a))), mul(m, q));
  const GradValue through_r = b.op("Neg", {mul(mul(mul(s, mul(r, r)), x_hat), cov)});
  const GradValue through_x_hat = b.op("Neg", {mul(mul(s, r), add(mul(q, p_a), mul(m, p_u)))});
  (*g)[1] = add(add(through_r, through_x_hat), mul(v, p_a));
  (*g)[2] = sum_per_channel(mul(u, p_a));
  return b.status();
}

}  // namespace

void register_nn_misc_gradients(OpRegistry& reg) {
  reg.set_gradient("Elu", activation_grad<kEluGrad, true>);
  reg.set_gradient("Selu", activation_grad<kSeluGrad, true>);
  reg.set_gradient("Relu6", activation_grad<kRelu6Grad, false>);
  reg.set_gradient("LeakyRelu", activation_grad<kLeakyReluGrad, false>);
  reg.set_gradient("Softplus", softplus_grad);
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
  reg.set_gradient("FusedBatchNormGradV3", fused_batch_norm_grad_grad);
}

}  // namespace graphfn
