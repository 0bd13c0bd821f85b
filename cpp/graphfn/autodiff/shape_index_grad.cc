// Gradients of the shape and indexing ops (ops/shape_index_ops.cc, scatter_nd_ops.cc) and of
// StableSort (ops/sort_ops.cc), with the ops of those families that have none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

GradValue cast_to(GradBuilder& b, const GradValue& v, DType dt) {
  return b.dtype(v) == dt ? v : b.op("Cast", {v}, grad::attrs({{"DstT", dt}}));
}

// Tile: dy seen as [m0, d0, m1, d1, ...] summed over the m axes.
Status tile_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& multiples = in.inputs[1];
  const DType dt = b.dtype(multiples);
  const GradValue shape = cast_to(b, b.shape_of(x(in)), dt);
  const std::vector<GradValue> pair = b.op_n("Pack", {multiples, shape}, grad::attrs({{"N", int64_t{2}}, {"axis", int64_t{0}}}));
  if (pair.empty()) return b.status();
  const GradValue split_shape = b.op("Reshape", {b.op("Transpose", {pair[0], b.int_vector({1, 0})}), b.int_vector({-1})});
  const GradValue axes = b.op("Range", {b.scalar(DType::kInt32, 0), b.op("Size", {split_shape}), b.scalar(DType::kInt32, 2)});
  (*g)[0] = b.op("Sum", {b.op("Reshape", {dy(in), split_shape}), axes});
  return b.status();
}

// Split and SplitV: the pieces' gradients concatenated back (zeros for pieces without one).
Status split_pieces_grad(GradBuilder& b, const GradInputs& in, const GradValue& axis, int value_input, Grads* g) {
  std::vector<GradValue> parts;
  for (size_t i = 0; i < in.outputs.size(); ++i) {
    parts.push_back(in.output_grads[i] ? in.output_grads[i] : b.zeros_like(in.outputs[i]));
  }
  if (parts.size() == 1) {
    (*g)[value_input] = parts[0];
    return b.status();
  }
  parts.push_back(axis);
  const std::vector<GradValue> joined =
      b.op_n("ConcatV2", parts, grad::attrs({{"N", static_cast<int64_t>(parts.size() - 1)}}));
  if (!joined.empty()) (*g)[value_input] = joined[0];
  return b.status();
}

Status split_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  return split_pieces_grad(b, in, in.inputs[0], 1, g);
}

Status split_v_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  return split_pieces_grad(b, in, in.inputs[2], 0, g);
}

// Pad/PadV2: the unpadded box of dy (begin = paddings[:, 0], size = x's shape).
Status pad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& paddings = in.inputs[1];
  const DType dt = b.dtype(paddings);
  const GradValue column = b.op("Slice", {paddings, cast_to(b, b.int_vector({0, 0}), dt), cast_to(b, b.int_vector({-1, 1}), dt)});
  const GradValue begin = b.op("Reshape", {column, b.int_vector({-1})});
  (*g)[0] = b.op("Slice", {dy(in), begin, cast_to(b, b.shape_of(x(in)), dt)});
  return b.status();
}

AttrMap mode_attr(const GradInputs& in) {
  AttrMap a;
  if (const std::string* mode = in.attrs->get_string("mode")) a.set("mode", *mode);
  return a;
}

Status mirror_pad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("MirrorPadGrad", {dy(in), in.inputs[1]}, mode_attr(in));
  return b.status();
}

Status mirror_pad_grad_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("MirrorPad", {dy(in), in.inputs[1]}, mode_attr(in));
  return b.status();
}

Status reverse_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("ReverseV2", {dy(in), in.inputs[1]});
  return b.status();
}

Status roll_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("Roll", {dy(in), b.op("Neg", {in.inputs[1]}), in.inputs[2]});
  return b.status();
}

Status identity_n_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  for (size_t i = 0; i < g->size() && i < in.output_grads.size(); ++i) (*g)[i] = in.output_grads[i];
  return b.status();
}

GradValue shape_as(GradBuilder& b, const GradValue& v, const GradValue& indices) {
  const DType dt = b.dtype(indices);
  return b.op("Shape", {v}, grad::attrs({{"out_type", dt == DType::kInt64 ? DType::kInt64 : DType::kInt32}}));
}

GradValue indices_for_scatter(GradBuilder& b, const GradValue& indices) {
  const DType dt = b.dtype(indices);
  return dt == DType::kInt32 || dt == DType::kInt64 ? indices : cast_to(b, indices, DType::kInt32);
}

// GatherNd: dy summed into zeros of params' shape at the gathered slices.
Status gather_nd_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue indices = indices_for_scatter(b, in.inputs[1]);
  (*g)[0] = b.op("ScatterNd", {indices, dy(in), shape_as(b, x(in), indices)});
  return b.status();
}

Status scatter_nd_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[1] = b.op("GatherNd", {dy(in), in.inputs[0]});
  return b.status();
}

Status tensor_scatter_update_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& indices = in.inputs[1];
  (*g)[0] = b.op("TensorScatterUpdate", {dy(in), indices, b.zeros_like(in.inputs[2])});
  (*g)[2] = b.op("GatherNd", {dy(in), indices});
  return b.status();
}

Status tensor_scatter_add_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = dy(in);
  (*g)[2] = b.op("GatherNd", {dy(in), in.inputs[1]});
  return b.status();
}

Status tensor_scatter_sub_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = dy(in);
  (*g)[2] = b.op("Neg", {b.op("GatherNd", {dy(in), in.inputs[1]})});
  return b.status();
}

// TensorScatterMin/Max: the gradient is shared among the elements equal to the result (TF's rule).
Status tensor_scatter_min_max_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue &tensor = in.inputs[0], &indices = in.inputs[1], &updates = in.inputs[2];
  const GradValue& output = in.outputs[0];
  const DType dt = b.dtype(dy(in));
  const AttrMap to_dt = grad::attrs({{"DstT", dt}});
  const GradValue x_ind = b.op("Cast", {b.op("Equal", {tensor, output})}, to_dt);
  const GradValue y_out = b.op("GatherNd", {output, indices});
  const GradValue y_ind = b.op("Cast", {b.op("Equal", {updates, y_out})}, to_dt);
  const GradValue ys_ind = b.op("ScatterNd", {indices, y_ind, shape_as(b, tensor, indices)});
  const GradValue ind = b.op("AddV2", {x_ind, ys_ind});
  (*g)[0] = b.op("RealDiv", {b.op("Mul", {dy(in), x_ind}), ind});
  (*g)[2] = b.op("Mul", {b.op("GatherNd", {b.op("RealDiv", {dy(in), ind}), indices}), y_ind});
  return b.status();
}

// StableSort: dy put back where each value came from: gathered by the inverse permutation (the
// argsort of the sort's indices) along the last axis, row by row.
Status stable_sort_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (!in.output_grads[0]) return b.status();
  const Shape s = b.static_shape(x(in));
  if (!s.known_rank()) return errors::Unimplemented("sort gradient needs a known rank");
  const int64_t last = s.rank() - 1;
  const std::vector<GradValue> inverse = b.op_n("StableSort", {in.outputs[1]});
  if (inverse.size() < 2) return b.status();
  (*g)[0] = b.op("GatherV2", {dy(in), inverse[1], b.scalar(DType::kInt32, static_cast<double>(last))},
                 grad::attrs({{"batch_dims", last}}));
  return b.status();
}

}  // namespace

void register_shape_index_gradients(OpRegistry& reg) {
  reg.set_gradient("Tile", tile_grad);
  reg.set_gradient("Split", split_grad);
  reg.set_gradient("SplitV", split_v_grad);
  reg.set_gradient("Pad", pad_grad);
  reg.set_gradient("PadV2", pad_grad);
  reg.set_gradient("MirrorPad", mirror_pad_grad);
  reg.set_gradient("MirrorPadGrad", mirror_pad_grad_grad);
  reg.set_gradient("ReverseV2", reverse_grad);
  reg.set_gradient("Roll", roll_grad);
  reg.set_gradient("EnsureShape", grad::pass_through);
  reg.set_gradient("IdentityN", identity_n_grad);
  reg.set_gradient("GatherNd", gather_nd_grad);
  reg.set_gradient("ScatterNd", scatter_nd_grad);
  reg.set_gradient("TensorScatterUpdate", tensor_scatter_update_grad);
  reg.set_gradient("TensorScatterAdd", tensor_scatter_add_grad);
  reg.set_gradient("TensorScatterSub", tensor_scatter_sub_grad);
  reg.set_gradient("TensorScatterMin", tensor_scatter_min_max_grad);
  reg.set_gradient("TensorScatterMax", tensor_scatter_min_max_grad);
  reg.set_gradient("StableSort", stable_sort_grad);
  for (const char* op : {"ShapeN", "UnravelIndex", "BroadcastArgs", "LowerBound", "UpperBound", "HistogramFixedWidth", "ResourceScatterUpdate", "ResourceScatterAdd",
                         "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv", "ResourceScatterMin",
                         "ResourceScatterMax", "ResourceScatterNdUpdate", "ResourceScatterNdAdd",
                         "ResourceScatterNdSub", "ResourceScatterNdMin", "ResourceScatterNdMax",
                         "ResourceStridedSliceAssign"}) {
    reg.set_not_differentiable(op);
  }
}

}  // namespace graphfn
