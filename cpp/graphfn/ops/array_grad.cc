// Gradients of the shape-moving ops (ops/array_ops.cc, fill_ops.cc, gradient_ops.cc) and the
// registry's list of ops without gradients.
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/grad_util.h"

namespace graphfn {

Status grad::int_values(GradBuilder& b, const GradValue& v, const char* what, std::vector<int64_t>* out) {
  const Tensor* t = b.constant_value(v);
  if (!t) return errors::Unimplemented("gradient needs a constant ", what);
  return tensor_to_int64s(*t, out);
}

namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

Status transpose_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  std::vector<int64_t> perm;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[1], "permutation", &perm));
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  (*g)[0] = b.op("Transpose", {dy(in), b.int_vector(inverse)});
  return b.status();
}

Status pack_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const int64_t n = static_cast<int64_t>(in.inputs.size());
  *g = b.op_n("Unpack", {dy(in)}, grad::attrs({{"num", n}, {"axis", in.attr_int("axis")}}));
  return b.status();
}

Status unpack_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  std::vector<GradValue> parts;
  for (size_t i = 0; i < in.outputs.size(); ++i) {
    parts.push_back(in.output_grads[i] ? in.output_grads[i] : b.zeros_like(in.outputs[i]));
  }
  const AttrMap attrs = grad::attrs({{"N", static_cast<int64_t>(parts.size())}, {"axis", in.attr_int("axis")}});
  (*g)[0] = parts.empty() ? GradValue() : b.op_n("Pack", parts, attrs).at(0);
  return b.status();
}

// Each input gets its slice of the gradient along the axis (static shapes).
Status concat_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const int n = static_cast<int>(in.inputs.size()) - 1;
  std::vector<int64_t> axis_value;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[n], "axis", &axis_value));
  const Shape out_shape = b.static_shape(dy(in));
  if (!out_shape.known_rank() || axis_value.size() != 1) return errors::Unimplemented("concat gradient needs a known rank");
  int axis = 0;
  GRAPHFN_RETURN_IF_ERROR(normalize_axis(axis_value[0], out_shape.rank(), &axis, "axis"));
  std::vector<int64_t> begin(out_shape.rank(), 0);
  for (int i = 0; i < n; ++i) {
    const Shape s = b.static_shape(in.inputs[i]);
    if (!s.known_rank() || !s.fully_defined()) return errors::Unimplemented("concat gradient needs static shapes");
    std::vector<int64_t> size(s.dims().begin(), s.dims().end());
    (*g)[i] = b.op("Slice", {dy(in), b.int_vector(begin), b.int_vector(size)});
    begin[axis] += s.dim(axis);
  }
  return b.status();
}

// Fill(dims, value): the value's gradient is the sum over every element.
Status fill_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const Shape s = b.static_shape(dy(in));
  if (!s.known_rank()) return errors::Unimplemented("fill gradient needs a known rank");
  std::vector<int64_t> axes(s.rank());
  for (int i = 0; i < s.rank(); ++i) axes[i] = i;
  (*g)[1] = b.op("Sum", {dy(in), b.int_vector(axes)});
  return b.status();
}

Status broadcast_to_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.reduce_to_shape_of(dy(in), x(in));
  return b.status();
}

}  // namespace

void register_array_gradients(OpRegistry& reg) {
  reg.set_gradient("Identity", grad::pass_through);
  reg.set_gradient("ReadVariableOp", grad::pass_through);
  reg.set_gradient("Reshape", grad::reshape_back);
  reg.set_gradient("ExpandDims", grad::reshape_back);
  reg.set_gradient("Squeeze", grad::reshape_back);
  reg.set_gradient("Transpose", transpose_grad);
  reg.set_gradient("Pack", pack_grad);
  reg.set_gradient("Unpack", unpack_grad);
  reg.set_gradient("ConcatV2", concat_grad);
  reg.set_gradient("Fill", fill_grad);
  reg.set_gradient("BroadcastTo", broadcast_to_grad);
  // TF's NotDifferentiable ops (and ops whose gradient is None for every input).
  for (const char* op : {"Const", "Placeholder", "Shape", "Size", "Rank", "ZerosLike", "OnesLike", "StopGradient",
                         "BroadcastGradientArgs", "Eye", "Range", "OneHot", "Where", "ArgMax", "ArgMin", "Any",
                         "All", "StringFormat", "PrintV2", "Assert", "RandomUniformInt", "RandomUniform",
                         "RandomStandardNormal", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
