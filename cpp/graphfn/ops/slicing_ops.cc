// Ops that select elements: StridedSlice (Python's t[...]), Slice, GatherV2, SelectV2 and Where.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/strided_slice_spec.h"

namespace graphfn {
namespace {

// Graph building: unknown `strides` or input rank leave the output shape unknown (as in TF); unknown
// `begin`/`end` only make the dims they bound unknown.
Status strided_slice_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_slice_spec_shapes(c.input_shape(1), c.input_shape(2), c.input_shape(3)));
  const Tensor* strides_t = c.input_value(3);
  if (!strides_t || !c.input_shape(0).known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  std::vector<int64_t> begin, end, strides;
  const Tensor* begin_t = c.input_value(1);
  const Tensor* end_t = c.input_value(2);
  if (begin_t) GRAPHFN_RETURN_IF_ERROR(int_values(*begin_t, &begin));
  if (end_t) GRAPHFN_RETURN_IF_ERROR(int_values(*end_t, &end));
  GRAPHFN_RETURN_IF_ERROR(int_values(*strides_t, &strides));
  const AttrMap& a = c.attrs();
  StridedSliceMasks masks{a.get_int("begin_mask", 0), a.get_int("end_mask", 0), a.get_int("ellipsis_mask", 0),
                          a.get_int("new_axis_mask", 0), a.get_int("shrink_axis_mask", 0)};
  StridedSliceResult r;
  GRAPHFN_RETURN_IF_ERROR(compute_strided_slice(c.input_shape(0), begin_t ? &begin : nullptr,
                                                end_t ? &end : nullptr, strides, masks, &r));
  c.set_output(0, c.input_dtype(0), r.output_shape);
  return Status::OK();
}

// The output rank is the input's, or the length of `begin`/`size`; a dim is known when its size
// is (or is -1 with known begin and input dim).
Status slice_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  const Shape& bs = c.input_shape(1);
  const Shape& ss = c.input_shape(2);
  Shape spec;
  const bool spec_ok = merge_shapes(bs, ss, &spec) && (!spec.known_rank() || spec.rank() == 1);
  const int64_t spec_length = static_length(spec);
  if (!spec_ok || (x.known_rank() && spec_length >= 0 && spec_length != x.rank())) {
    return errors::InvalidArgument("Expected begin and size arguments to be 1-D tensors of size ", x.rank(),
                                   ", but got shapes ", bs, " and ", ss, " instead.");
  }
  const int64_t rank = x.known_rank() ? x.rank() : spec_length;
  const Tensor* begin_t = c.input_value(1);
  const Tensor* size_tensor = c.input_value(2);
  if (rank < 0 || !size_tensor) {
    c.set_output(0, c.input_dtype(0), unknown_dims(rank));
    return Status::OK();
  }
  std::vector<int64_t> begin, size;
  if (begin_t) GRAPHFN_RETURN_IF_ERROR(int_values(*begin_t, &begin));
  GRAPHFN_RETURN_IF_ERROR(int_values(*size_tensor, &size));
  std::vector<int64_t> dims(rank);
  for (int d = 0; d < rank; ++d) {
    const int64_t dim = x.known_rank() ? x.dim(d) : Shape::kUnknownDim;
    if (dim < 0 || !begin_t) {  // graph building: checked when the op runs
      dims[d] = size[d] >= 0 ? size[d] : Shape::kUnknownDim;
      continue;
    }
    if (begin[d] < 0 || begin[d] > dim) {
      return errors::InvalidArgument("Expected begin[", d, "] in [0, ", dim, "], but got ", begin[d]);
    }
    const int64_t rest = dim - begin[d];
    const int64_t s = size[d] == -1 ? rest : size[d];
    if (s < 0 || s > rest) return errors::InvalidArgument("Expected size[", d, "] in [0, ", rest, "], but got ", size[d]);
    dims[d] = s;
  }
  c.set_output(0, c.input_dtype(0), Shape(std::move(dims)));
  return Status::OK();
}

Status gather_shape(InferenceContext& c) {
  const Shape& params = c.input_shape(0);
  const Shape& indices = c.input_shape(1);
  const int rank = params.rank();
  if (params.known_rank() && rank == 0) return errors::InvalidArgument("params must be at least 1 dimensional");
  const Shape& axis_shape = c.input_shape(2);
  if (axis_shape.known_rank() && !is_legacy_scalar(axis_shape)) {
    return errors::InvalidArgument("axis must be scalar, got shape ", axis_shape);
  }
  const Tensor* axis_t = c.input_value(2);
  if (!params.known_rank() || !indices.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    return Status::OK();
  }
  int64_t axis = axis_t ? first_int(*axis_t) : 0;
  if (axis < -rank || axis >= rank) {
    // The rank the axis needs, in unsigned arithmetic: axis may be INT64_MIN or INT64_MAX.
    const uint64_t needed = axis < 0 ? 0 - static_cast<uint64_t>(axis) : static_cast<uint64_t>(axis) + 1;
    return errors::InvalidArgument("Shape must be at least rank ", needed, " but is rank ", rank);
  }
  if (axis < 0) axis += rank;
  const int index_rank = indices.rank();
  int64_t batch_dims = c.attrs().get_int("batch_dims", 0);
  if (batch_dims < -index_rank || batch_dims > index_rank) {
    return errors::InvalidArgument("Expected batch_dims in the range [", -index_rank, ", ", index_rank,
                                   "], but got ", batch_dims);
  }
  if (batch_dims < 0) batch_dims += index_rank;
  if (!axis_t) {  // the rank is known, but not where the indices' dims go
    c.set_output(0, c.input_dtype(0), unknown_dims(rank - 1 + index_rank - batch_dims));
    return Status::OK();
  }
  if (batch_dims > axis) {
    return errors::InvalidArgument("batch_dims (", batch_dims, ") must be less than or equal to axis (", axis, ").");
  }
  std::vector<int64_t> dims(params.dims().begin(), params.dims().begin() + axis);
  for (int i = 0; i < batch_dims; ++i) {
    const int64_t p = params.dim(i), q = indices.dim(i);
    if (p >= 0 && q >= 0 && p != q) {
      return errors::InvalidArgument("params.shape[", i, "]: ", p, " should be equal to indices.shape[", i, "]: ", q);
    }
  }
  dims.insert(dims.end(), indices.dims().begin() + batch_dims, indices.dims().end());
  dims.insert(dims.end(), params.dims().begin() + axis + 1, params.dims().end());
  Shape out(std::move(dims));
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(0)));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status select_shape(InferenceContext& c) {
  const Shape& cond = c.input_shape(0);
  const Shape& t = c.input_shape(1);
  const Shape& e = c.input_shape(2);
  Shape te, out;
  if (!broadcast_shapes(t, e, &te).ok() || !broadcast_shapes(cond, te, &out).ok()) {
    return errors::InvalidArgument("condition ", cond, ", then ", t, ", and else ", e, " must be broadcastable");
  }
  GRAPHFN_RETURN_IF_ERROR(check_output_size(out, c.input_dtype(1)));
  c.set_output(0, c.input_dtype(1), std::move(out));
  return Status::OK();
}

Status where_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  if (in.known_rank() && in.rank() == 0) return errors::InvalidArgument("WhereOp : Unhandled input dimensions: 0");
  // The row count is known only at run time.
  c.set_output(0, DType::kInt64, Shape{Shape::kUnknownDim, in.known_rank() ? in.rank() : Shape::kUnknownDim});
  return Status::OK();
}

}  // namespace

// The shape functions take partial shapes and unknown (non-constant) value inputs, as TF's do.
void register_slicing_ops(OpRegistry& reg) {
  reg.op("StridedSlice").input("input: T").input("begin: Index").input("end: Index").input("strides: Index")
      .output("output: T").attr("T: type").attr("Index: {int16, int32, int64}")
      .attr("begin_mask: int = 0").attr("end_mask: int = 0").attr("ellipsis_mask: int = 0")
      .attr("new_axis_mask: int = 0").attr("shrink_axis_mask: int = 0").shape_fn(strided_slice_shape, true);
  reg.op("Slice").input("input: T").input("begin: Index").input("size: Index").output("output: T")
      .attr("T: type").attr("Index: {int32, int64}").shape_fn(slice_shape, true);
  reg.op("GatherV2").input("params: Tparams").input("indices: Tindices").input("axis: Taxis")
      .output("output: Tparams").attr("batch_dims: int = 0").attr("Tparams: type")
      .attr("Tindices: {int16, int32, int64}").attr("Taxis: {int32, int64}").shape_fn(gather_shape, true);
  reg.op("SelectV2").input("condition: bool").input("t: T").input("e: T").output("output: T").attr("T: type")
      .shape_fn(select_shape, true);
  reg.op("Where").input("input: T").output("index: int64").attr("T: {numbertype, bool} = DT_BOOL")
      .shape_fn(where_shape, true);
}

}  // namespace graphfn
