// Reductions over axes (Sum, Mean, Max, Min, Prod, Any, All) and the arg-reductions
// (ArgMax, ArgMin). Shape functions validate the axes with TF's messages.
#include "graphfn/ops/reduction_ops.h"

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {

Status reduction_axes(const Tensor& indices, int rank, std::vector<bool>* reduced) {
  std::vector<int64_t> axes;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(indices, &axes));
  reduced->assign(rank, false);
  for (int64_t axis : axes) {
    if (axis < -rank || axis >= rank) {
      return errors::InvalidArgument("Invalid reduction dimension (", axis, " for input with ", rank,
                                     " dimension(s)");
    }
    const int64_t d = axis < 0 ? axis + rank : axis;
    if ((*reduced)[d]) {
      return errors::InvalidArgument("Invalid reduction arguments: Axes contains duplicate dimension: ", d);
    }
    (*reduced)[d] = true;
  }
  return Status::OK();
}

Status arg_reduction_axis(const Tensor& dimension, const Shape& input, int* axis) {
  if (dimension.rank() != 0) {
    return errors::InvalidArgument("dim must be a scalar, but received tensor of shape: ", dimension.shape());
  }
  int64_t value = 0;
  switch (dimension.dtype()) {
    case DType::kInt16: value = *dimension.data<int16_t>(); break;
    case DType::kInt32: value = *dimension.data<int32_t>(); break;
    case DType::kInt64: value = static_cast<int32_t>(static_cast<uint32_t>(*dimension.data<int64_t>())); break;
    default: return errors::InvalidArgument("dimension must be int16, int32 or int64");
  }
  GRAPHFN_RETURN_IF_ERROR(normalize_axis(value, input.rank(), axis, "dimension"));
  // TF names the axis as given (-1, not its normalised value).
  if (input.dim(*axis) == 0) return errors::InvalidArgument("Reduction axis ", value, " is empty in shape ", input);
  return Status::OK();
}

namespace {

Status reduction_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  if (!in.known_rank()) return shape_fns::set_checked_output(c, c.input_dtype(0), Shape::unknown_rank());
  std::vector<bool> reduced;
  if (!c.is_eager()) {  // TF's graph-building words for an axis out of range
    std::vector<int64_t> axes;
    GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*c.input_value(1), &axes));
    for (int64_t axis : axes) {
      if (axis < -in.rank() || axis >= in.rank()) {
        return errors::InvalidArgument("Invalid reduction dimension ", axis, " for input with ", in.rank(),
                                       " dimensions.");
      }
    }
  }
  GRAPHFN_RETURN_IF_ERROR(reduction_axes(*c.input_value(1), in.rank(), &reduced));
  const bool keep_dims = c.attrs().get_bool("keep_dims", false);
  Shape out;
  for (int i = 0; i < in.rank(); ++i) {
    if (!reduced[i]) {
      out.add_dim(in.dim(i));
    } else if (keep_dims) {
      out.add_dim(1);
    }
  }
  if (!out.fully_defined()) {  // unknown dims while tracing
    c.set_output(0, c.input_dtype(0), std::move(out));
    return Status::OK();
  }
  return shape_fns::set_checked_output(c, c.input_dtype(0), std::move(out));
}

Status arg_reduction_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  if (!in.known_rank()) return shape_fns::set_checked_output(c, c.type_attr("output_type"), Shape::unknown_rank());
  int axis = 0;
  GRAPHFN_RETURN_IF_ERROR(arg_reduction_axis(*c.input_value(1), in, &axis));
  Shape out = in;
  out.remove_dim(axis);
  return shape_fns::set_checked_output(c, c.type_attr("output_type"), std::move(out));
}

}  // namespace

void register_reduction_ops(OpRegistry& reg) {
  // TF's type lists: Max and Min take no complex types but the quantized ones.
  const std::pair<const char*, const char*> reductions[] = {
      {"Sum", "T: {numbertype}"}, {"Mean", "T: {numbertype}"}, {"Prod", "T: {numbertype}"},
      {"Max", "T: {realnumbertype, quantizedtype}"}, {"Min", "T: {realnumbertype, quantizedtype}"},
      {"EuclideanNorm", "T: {numbertype}"}};
  for (const auto& [name, types] : reductions) {
    reg.op(name).input("input: T").input("reduction_indices: Tidx").output("output: T")
        .attr("keep_dims: bool = false").attr(types)
        .attr("Tidx: {int32, int64} = DT_INT32").needs_value("reduction_indices").shape_fn(reduction_shape, true);
  }
  // Any/All have no T, so their kernels are registered under Tidx's dtypes.
  for (const char* name : {"Any", "All"}) {
    reg.op(name).input("input: bool").input("reduction_indices: Tidx").output("output: bool")
        .attr("keep_dims: bool = false").attr("Tidx: {int32, int64} = DT_INT32")
        .needs_value("reduction_indices").shape_fn(reduction_shape, true);
  }
  // ArgMin does not take the int16 dimensions and outputs ArgMax does.
  reg.op("ArgMax").input("input: T").input("dimension: Tidx").output("output: output_type")
      .attr("T: {realnumbertype, quantizedtype, bool}").attr("Tidx: {int16, int32, int64} = DT_INT32")
      .attr("output_type: {int16, uint16, int32, int64} = DT_INT64").needs_value("dimension").shape_fn(arg_reduction_shape, true);
  reg.op("ArgMin").input("input: T").input("dimension: Tidx").output("output: output_type")
      .attr("T: {realnumbertype, quantizedtype, bool}").attr("Tidx: {int32, int64} = DT_INT32")
      .attr("output_type: {int32, int64} = DT_INT64").needs_value("dimension").shape_fn(arg_reduction_shape, true);
}

}  // namespace graphfn
