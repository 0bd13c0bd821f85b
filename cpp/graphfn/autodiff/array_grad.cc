// Gradients of the shape-moving ops (ops/array_ops.cc, fill_ops.cc, gradient_ops.cc) and the
// registry's list of ops without gradients.
#include "graphfn/ir/shape_inference.h"
#include "graphfn/autodiff/grad_util.h"

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

// Transposed back by the inverse permutation (computed now when the permutation is constant).
Status transpose_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!b.constant_value(in.inputs[1])) {
    (*g)[0] = b.op("Transpose", {dy(in), b.op("InvertPermutation", {in.inputs[1]})});
    return b.status();
  }
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
  if (parts.empty()) return b.status();
  std::vector<GradValue> packed = b.op_n("Pack", parts, attrs);
  if (!packed.empty()) (*g)[0] = packed[0];
  return b.status();
}

// Each input gets its slice of the gradient along the axis: offsets computed now from static
// shapes, else by ConcatOffset at run time (as TF).
Status concat_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const int n = static_cast<int>(in.inputs.size()) - 1;
  const GradValue& axis_input = in.inputs[n];
  bool all_static = b.constant_value(axis_input) != nullptr;
  for (int i = 0; i < n && all_static; ++i) {
    const Shape s = b.static_shape(in.inputs[i]);
    all_static = s.known_rank() && s.fully_defined();
  }
  if (!all_static) {
    const GradValue axis = b.dtype(axis_input) == DType::kInt32
                               ? axis_input
                               : b.op("Cast", {axis_input}, grad::attrs({{"DstT", DType::kInt32}}));
    std::vector<GradValue> offset_inputs{axis};
    for (int i = 0; i < n; ++i) offset_inputs.push_back(b.shape_of(in.inputs[i]));
    const std::vector<GradValue> offsets = b.op_n("ConcatOffset", offset_inputs,
                                                  grad::attrs({{"N", static_cast<int64_t>(n)}}));
    for (int i = 0; i < n && !offsets.empty(); ++i) {
      (*g)[i] = b.op("Slice", {dy(in), offsets[i], offset_inputs[i + 1]});
    }
    return b.status();
  }
  std::vector<int64_t> axis_value;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, axis_input, "axis", &axis_value));
  const Shape out_shape = b.static_shape(in.inputs[0]);
  if (axis_value.size() != 1) return errors::Unimplemented("concat gradient needs a scalar axis");
  int axis = 0;
  GRAPHFN_RETURN_IF_ERROR(normalize_axis(axis_value[0], out_shape.rank(), &axis, "axis"));
  std::vector<int64_t> begin(out_shape.rank(), 0);
  for (int i = 0; i < n; ++i) {
    const Shape s = b.static_shape(in.inputs[i]);
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

// dy placed back into zeros of x's shape, at the elements the slice read.
Status strided_slice_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  GradValue shape = b.shape_of(x(in));
  const DType index = b.dtype(in.inputs[1]);
  if (index != DType::kInt32) shape = b.op("Cast", {shape}, grad::attrs({{"DstT", index}}));
  AttrMap attrs;
  for (const char* mask : {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
    attrs.set(mask, in.attr_int(mask));
  }
  (*g)[0] = b.op("StridedSliceGrad", {shape, in.inputs[1], in.inputs[2], in.inputs[3], dy(in)}, attrs);
  return b.status();
}

// StridedSliceGrad is linear in dy: its gradient slices the incoming gradient the same way.
Status strided_slice_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  AttrMap attrs;
  for (const char* mask : {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
    attrs.set(mask, in.attr_int(mask));
  }
  (*g)[4] = b.op("StridedSlice", {dy(in), in.inputs[1], in.inputs[2], in.inputs[3]}, attrs);
  return b.status();
}

// Slice(x, begin, size) is the strided slice [begin, begin + size) with unit strides (size -1:
// to the end); computed now when begin, size and x's shape are known, else by ops.
Status slice_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue &begin_v = in.inputs[1], &size_v = in.inputs[2];
  const Shape s = b.static_shape(x(in));
  if (!b.constant_value(begin_v) || !b.constant_value(size_v) || !s.known_rank() || !s.fully_defined()) {
    const DType index = b.dtype(begin_v);
    GradValue shape = b.shape_of(x(in));
    if (index != DType::kInt32) shape = b.op("Cast", {shape}, grad::attrs({{"DstT", index}}));
    const GradValue to_end = b.op("Less", {size_v, b.scalar(index, 0)});
    const GradValue end = b.op("SelectV2", {to_end, shape, b.op("AddV2", {begin_v, size_v})});
    (*g)[0] = b.op("StridedSliceGrad", {shape, begin_v, end, b.ones_like(begin_v), dy(in)});
    return b.status();
  }
  std::vector<int64_t> begin, size;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, begin_v, "slice begin", &begin));
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, size_v, "slice size", &size));
  std::vector<int64_t> end(begin.size()), strides(begin.size(), 1);
  for (size_t d = 0; d < begin.size(); ++d) end[d] = size[d] < 0 ? s.dim(static_cast<int>(d)) : begin[d] + size[d];
  (*g)[0] = b.op("StridedSliceGrad", {b.shape_of(x(in)), b.int_vector(begin), b.int_vector(end),
                                      b.int_vector(strides), dy(in)});
  return b.status();
}

// GatherV2 (batch_dims 0): dy's slices are summed into the rows they were gathered from (TF
// returns IndexedSlices; graphfn gives the dense sum). Along axis a, dy is seen as
// [outer, indices, inner] and summed by index into [outer, params.shape[a], inner].
Status gather_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (in.attr_int("batch_dims") != 0) return errors::Unimplemented("gather gradient with batch_dims");
  const Shape p = b.static_shape(x(in));
  const Shape ishape = b.static_shape(in.inputs[1]);
  std::vector<int64_t> axis_value;
  GRAPHFN_RETURN_IF_ERROR(grad::int_values(b, in.inputs[2], "axis", &axis_value));
  if (axis_value.size() != 1) return errors::Unimplemented("gather gradient needs a scalar axis");
  if (!p.known_rank() || !p.fully_defined() || !ishape.known_rank() || !ishape.fully_defined()) {
    if (axis_value[0] != 0) return errors::Unimplemented("gather gradient along axis != 0 needs static shapes");
    // Along axis 0 with shapes known at run time only: dy is [indices..., params[1:]...].
    const GradValue params_shape = b.op("Shape", {x(in)});
    const GradValue one = b.int_vector({1}), zero = b.int_vector({0});
    const GradValue inner = b.op("StridedSlice", {params_shape, one, zero, one}, grad::attrs({{"end_mask", int64_t{1}}}));
    const GradValue rows = b.op("StridedSlice", {params_shape, zero, one, one},
                                grad::attrs({{"shrink_axis_mask", int64_t{1}}}));
    const GradValue n = b.op("ExpandDims", {b.op("Size", {in.inputs[1]}), b.scalar(DType::kInt32, 0)});
    const std::vector<GradValue> values_shape = b.op_n("ConcatV2", {n, inner, b.scalar(DType::kInt32, 0)},
                                                       grad::attrs({{"N", int64_t{2}}}));
    if (values_shape.empty()) return b.status();
    const GradValue ids = b.op("Reshape", {in.inputs[1], b.int_vector({-1})});
    (*g)[0] = b.op("UnsortedSegmentSum", {b.op("Reshape", {dy(in), values_shape[0]}), ids, rows});
    return b.status();
  }
  int axis = 0;
  GRAPHFN_RETURN_IF_ERROR(normalize_axis(axis_value[0], p.rank(), &axis, "axis"));
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= p.dim(d);
  for (int d = axis + 1; d < p.rank(); ++d) inner *= p.dim(d);
  const int64_t n = ishape.num_elements();
  const GradValue ids = b.op("Reshape", {in.inputs[1], b.int_vector({n})});
  const GradValue n_segments = b.scalar(DType::kInt32, static_cast<double>(p.dim(axis)));
  GradValue summed;
  if (outer == 1) {
    summed = b.op("UnsortedSegmentSum", {b.op("Reshape", {dy(in), b.int_vector({n, inner})}), ids, n_segments});
  } else {
    const GradValue d3 = b.op("Reshape", {dy(in), b.int_vector({outer, n, inner})});
    const GradValue by_index = b.op("Transpose", {d3, b.int_vector({1, 0, 2})});
    const GradValue sums = b.op("UnsortedSegmentSum", {by_index, ids, n_segments});
    summed = b.op("Transpose", {sums, b.int_vector({1, 0, 2})});
  }
  (*g)[0] = b.op("Reshape", {summed, b.shape_of(x(in))});
  return b.status();
}


Status add_n_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  for (auto& v : *g) v = dy(in);
  return b.status();
}

}  // namespace

void register_array_gradients(OpRegistry& reg) {
  reg.set_gradient("Identity", grad::pass_through);
  reg.set_gradient("AddN", add_n_grad);
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
  reg.set_gradient("StridedSlice", strided_slice_grad);
  reg.set_gradient("StridedSliceGrad", strided_slice_grad_grad);
  reg.set_gradient("Slice", slice_grad);
  reg.set_gradient("GatherV2", gather_grad);
  // TF's NotDifferentiable ops (and ops whose gradient is None for every input).
  for (const char* op : {"Const", "Placeholder", "Shape", "Size", "Rank", "ZerosLike", "OnesLike", "StopGradient",
                         "BroadcastGradientArgs", "InvertPermutation", "ConcatOffset", "Eye", "Range", "OneHot", "Where", "ArgMax", "ArgMin", "Any",
                         "All", "StringFormat", "PrintV2", "Assert", "NoOp", "RandomUniformInt", "RandomUniform",
                         "RandomStandardNormal", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
