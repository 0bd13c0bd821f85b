// Gradients of the element-wise math ops of ops/math_ops.cc, clip and select (those of
// ops/math_cwise.def are in math_cwise_grad.cc).
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::out;
using grad::x;
using grad::y;
using Grads = std::vector<GradValue>;

Status add_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return grad::binary(b, in, dy(in), dy(in), g); }

Status sub_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  return grad::binary(b, in, dy(in), b.op("Neg", {dy(in)}), g);
}

Status mul_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue xc = grad::conj_if_complex(b, x(in)), yc = grad::conj_if_complex(b, y(in));
  return grad::binary(b, in, b.op("Mul", {dy(in), yc}), b.op("Mul", {xc, dy(in)}), g);
}

// d(x/y) = dy/y, -dy*x/y^2.
Status real_div_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue xc = grad::conj_if_complex(b, x(in)), yc = grad::conj_if_complex(b, y(in));
  const GradValue neg_x_over_y2 = b.op("RealDiv", {b.op("RealDiv", {b.op("Neg", {xc}), yc}), yc});
  return grad::binary(b, in, b.op("RealDiv", {dy(in), yc}), b.op("Mul", {dy(in), neg_x_over_y2}), g);
}

// x mod y = x - floor(x/y)*y.
Status floor_mod_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue floor_xy = b.op("FloorDiv", {x(in), y(in)});
  return grad::binary(b, in, dy(in), b.op("Mul", {b.op("Neg", {dy(in)}), floor_xy}), g);
}

// d(x^y) = y*x^(y-1), x^y*log(x) (0 where x <= 0, as TF).
Status pow_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const DType dt = b.dtype(x(in));
  const GradValue one = b.scalar(dt, 1);
  const GradValue gx = b.op("Mul", {b.op("Mul", {dy(in), y(in)}), b.op("Pow", {x(in), b.op("Sub", {y(in), one})})});
  const GradValue positive = b.op("Greater", {x(in), b.scalar(dt, 0)});
  const GradValue safe_x = b.op("SelectV2", {positive, x(in), b.ones_like(x(in))});
  const GradValue log_x = b.op("SelectV2", {positive, b.op("Log", {safe_x}), b.zeros_like(x(in))});
  const GradValue gy = b.op("Mul", {b.op("Mul", {dy(in), out(in)}), log_x});
  return grad::binary(b, in, gx, gy, g);
}

// The gradient goes to x where `selector(x, y)` holds (ties go to x), else to y.
template <const char* kSelector>
Status max_min_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue x_wins = b.op(kSelector, {x(in), y(in)});
  const GradValue zeros = b.zeros_like(dy(in));
  return grad::binary(b, in, b.op("SelectV2", {x_wins, dy(in), zeros}), b.op("SelectV2", {x_wins, zeros, dy(in)}), g);
}
constexpr char kGreaterEqual[] = "GreaterEqual";
constexpr char kLessEqual[] = "LessEqual";

// ReluGrad is linear in its gradients; its features get zeros (as TF: second derivatives of
// relu are 0, not None).
Status relu_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("ReluGrad", {dy(in), in.inputs[1]});
  (*g)[1] = b.zeros_like(in.inputs[1]);
  return b.status();
}

// Between float dtypes only; otherwise no gradient.
Status cast_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const DType src = b.dtype(x(in)), dst = b.dtype(out(in));
  if (is_trainable_dtype(src) && is_trainable_dtype(dst)) {
    (*g)[0] = src == dst ? dy(in) : b.op("Cast", {dy(in)}, grad::attrs({{"DstT", src}}));
  }
  return b.status();
}

// clip(t, lo, hi): t gets the gradient where it is inside [lo, hi]; lo and hi where they clip.
Status clip_by_value_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& t = in.inputs[0];
  const GradValue zeros = b.zeros_like(dy(in));
  const GradValue below = b.op("Less", {t, in.inputs[1]});
  const GradValue above = b.op("Greater", {t, in.inputs[2]});
  (*g)[0] = b.op("SelectV2", {b.op("LogicalOr", {below, above}), zeros, dy(in)});
  (*g)[1] = b.reduce_to_shape_of(b.op("SelectV2", {below, dy(in), zeros}), in.inputs[1]);
  (*g)[2] = b.reduce_to_shape_of(b.op("SelectV2", {above, dy(in), zeros}), in.inputs[2]);
  return b.status();
}

// select(c, t, e): t where c, e elsewhere; each reduced to its (broadcast) input's shape.
Status select_v2_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& c = in.inputs[0];
  const GradValue zeros = b.zeros_like(dy(in));
  (*g)[1] = b.reduce_to_shape_of(b.op("SelectV2", {c, dy(in), zeros}), in.inputs[1]);
  (*g)[2] = b.reduce_to_shape_of(b.op("SelectV2", {c, zeros, dy(in)}), in.inputs[2]);
  return b.status();
}

}  // namespace

void register_math_gradients(OpRegistry& reg) {
  reg.set_gradient("AddV2", add_grad);
  reg.set_gradient("Add", add_grad);
  reg.set_gradient("Sub", sub_grad);
  reg.set_gradient("Mul", mul_grad);
  reg.set_gradient("RealDiv", real_div_grad);
  reg.set_gradient("FloorMod", floor_mod_grad);
  reg.set_gradient("Pow", pow_grad);
  reg.set_gradient("Maximum", max_min_grad<kGreaterEqual>);
  reg.set_gradient("Minimum", max_min_grad<kLessEqual>);
  reg.set_gradient("ReluGrad", relu_grad_grad);
  reg.set_gradient("Cast", cast_grad);
  reg.set_gradient("ClipByValue", clip_by_value_grad);
  reg.set_gradient("SelectV2", select_v2_grad);
  for (const char* op : {"FloorDiv", "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual",
                         "LogicalAnd", "LogicalOr", "LogicalNot", "BitwiseAnd", "BitwiseOr", "BitwiseXor"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
