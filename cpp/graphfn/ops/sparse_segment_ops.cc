// Sparse segment reductions (tf.sparse.segment_sum/mean/sqrt_n): the rows of `data` picked by
// `indices` folded into the output row of their (sorted) segment id; the WithNumSegments forms
// take the output's row count. Their gradient ops scatter the output gradient back to the picked
// rows: SparseSegment*Grad densely ([output_dim0, ...]), the *GradV2 forms as the values of the
// sorted unique indices. Signatures and dtype lists are TF 2.21's.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

Status require_rank(const Shape& s, int rank) {
  if (s.known_rank() && s.rank() != rank) {
    return errors::InvalidArgument("Shape must be rank ", rank, " but is rank ", s.rank());
  }
  return Status::OK();
}

// A scalar int input's value when known, else Shape::kUnknownDim.
Status known_scalar(InferenceContext& c, int input, int64_t* value) {
  *value = Shape::kUnknownDim;
  if (const Tensor* t = c.input_value(input)) {
    std::vector<int64_t> v;
    GRAPHFN_RETURN_IF_ERROR(int_values(*t, &v));
    if (v.size() == 1) *value = v[0];
  }
  return Status::OK();
}

// data's dims with dim 0 replaced by `rows`.
Shape rows_of(const Shape& data, int64_t rows) {
  std::vector<int64_t> dims(data.dims().begin(), data.dims().end());
  dims[0] = rows;
  return Shape(dims);
}

// Graph building: TF's rank checks. Running, the kernel checks (with its own words) and sizes
// the output, so only a partial shape is given here.
Status sparse_segment_shape(InferenceContext& c, bool with_num_segments) {
  const Shape& data = c.input_shape(0);
  const DType t = c.type_attr("T");
  if (!c.is_eager()) {
    GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(1), 1));
    GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(2), 1));
    if (with_num_segments) GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(3), 0));
    if (data.known_rank() && data.rank() < 1) {
      return errors::InvalidArgument("Shape must be at least rank 1 but is rank ", data.rank());
    }
  }
  if (!data.known_rank() || data.rank() < 1) {
    c.set_output(0, t, Shape::unknown_rank());
    return Status::OK();
  }
  int64_t rows = Shape::kUnknownDim;
  if (with_num_segments && !c.is_eager()) {
    GRAPHFN_RETURN_IF_ERROR(known_scalar(c, 3, &rows));
    if (rows < 0) rows = Shape::kUnknownDim;  // the kernel refuses it
  }
  c.set_output(0, t, rows_of(data, rows));
  return Status::OK();
}
Status sparse_segment_plain_shape(InferenceContext& c) { return sparse_segment_shape(c, false); }
Status sparse_segment_num_segments_shape(InferenceContext& c) { return sparse_segment_shape(c, true); }

// [output_dim0] + grad.shape[1:] (V1); V2: [?] + grad.shape[1:] and the unique indices [?].
Status sparse_segment_grad_shape(InferenceContext& c, bool v2) {
  const Shape& grad = c.input_shape(0);
  const DType t = c.type_attr("T");
  if (!c.is_eager()) {
    GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(1), 1));
    GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(2), 1));
    GRAPHFN_RETURN_IF_ERROR(require_rank(c.input_shape(3), 0));
    if (grad.known_rank() && grad.rank() < 1) {
      return errors::InvalidArgument("Shape must be at least rank 1 but is rank ", grad.rank());
    }
  }
  int64_t rows = Shape::kUnknownDim;
  if (!v2 && !c.is_eager()) {
    GRAPHFN_RETURN_IF_ERROR(known_scalar(c, 3, &rows));
    if (rows < 0) rows = Shape::kUnknownDim;
  }
  c.set_output(0, t, grad.known_rank() && grad.rank() >= 1 ? rows_of(grad, rows) : Shape::unknown_rank());
  if (v2) c.set_output(1, c.type_attr("Tidx"), Shape{Shape::kUnknownDim});
  return Status::OK();
}
Status sparse_segment_grad_v1_shape(InferenceContext& c) { return sparse_segment_grad_shape(c, false); }
Status sparse_segment_grad_v2_shape(InferenceContext& c) { return sparse_segment_grad_shape(c, true); }

}  // namespace

void register_sparse_segment_ops(OpRegistry& reg) {
  const char* kSumTypes = "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}";
  const char* kFloatTypes = "T: {bfloat16, half, float, double}";
  const std::pair<const char*, const char*> forward[] = {
      {"SparseSegmentSum", kSumTypes}, {"SparseSegmentMean", kFloatTypes}, {"SparseSegmentSqrtN", kFloatTypes}};
  for (const auto& [name, types] : forward) {
    reg.op(name).input("data: T").input("indices: Tidx").input("segment_ids: Tsegmentids").output("output: T")
        .attr(types).attr("Tidx: {int32, int64} = DT_INT32").attr("Tsegmentids: {int32, int64} = DT_INT32")
        .attr("sparse_gradient: bool = false").shape_fn(sparse_segment_plain_shape, true);
    reg.op(std::string(name) + "WithNumSegments").input("data: T").input("indices: Tidx")
        .input("segment_ids: Tsegmentids").input("num_segments: Tnumsegments").output("output: T").attr(types)
        .attr("Tidx: {int32, int64} = DT_INT32").attr("Tnumsegments: {int32, int64} = DT_INT32")
        .attr("Tsegmentids: {int32, int64} = DT_INT32").attr("sparse_gradient: bool = false")
        .shape_fn(sparse_segment_num_segments_shape, true);
  }
  for (const char* name : {"SparseSegmentSumGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"}) {
    reg.op(name).input("grad: T").input("indices: Tidx").input("segment_ids: Tsegmentids")
        .input("output_dim0: int32").output("output: T").attr(kFloatTypes).attr("Tidx: {int32, int64} = DT_INT32")
        .attr("Tsegmentids: {int32, int64} = DT_INT32").shape_fn(sparse_segment_grad_v1_shape, true);
    reg.op(std::string(name) + "V2").input("grad: T").input("indices: Tidx").input("segment_ids: Tsegmentids")
        .input("dense_output_dim0: int32").output("output: T").output("sorted_unique_indices: Tidx").attr(kFloatTypes)
        .attr("Tidx: {int32, int64} = DT_INT32").attr("Tsegmentids: {int32, int64} = DT_INT32")
        .shape_fn(sparse_segment_grad_v2_shape, true);
  }
}

}  // namespace graphfn
