// Gradients of the segment reductions (ops/segment_ops.cc), as TF computes them: the output
// gradient gathered back to each data row by its segment id, weighted per op. Segment ids and
// num_segments get none.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::out;
using grad::x;
using Grads = std::vector<GradValue>;

GradValue gather_rows(GradBuilder& b, const GradValue& params, const GradValue& ids) {
  return b.op("GatherV2", {params, ids, b.scalar(DType::kInt32, 0)});
}
GradValue cast(GradBuilder& b, const GradValue& v, DType dt) {
  return b.op("Cast", {v}, grad::attrs({{"DstT", dt}}));
}

Status segment_sum_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = gather_rows(b, dy(in), in.inputs[1]);
  return b.status();
}

// dy / (rows in the segment), gathered.
Status segment_mean_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue counts = b.op("SegmentSum", {b.ones_like(x(in)), in.inputs[1]});
  (*g)[0] = gather_rows(b, b.op("RealDiv", {dy(in), counts}), in.inputs[1]);
  return b.status();
}

// Shared equally by the elements equal to their segment's result.
Status segment_min_max_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& ids = in.inputs[1];
  const GradValue is_selected = b.op("Equal", {x(in), gather_rows(b, out(in), ids)});
  const GradValue num_selected = b.op("SegmentSum", {cast(b, is_selected, b.dtype(dy(in))), ids});
  const GradValue weighted = gather_rows(b, b.op("RealDiv", {dy(in), num_selected}), ids);
  (*g)[0] = b.op("SelectV2", {is_selected, weighted, b.zeros_like(x(in))});
  return b.status();
}

// ids >= 0, shaped to broadcast against the rows gathered by ids (TF's _GatherDropNegatives);
// null when the ranks are unknown.
GradValue non_negative_ids(GradBuilder& b, const GradValue& ids, const GradValue& data) {
  GradValue mask = b.op("GreaterEqual", {ids, b.scalar(b.dtype(ids), 0)});
  const Shape ids_shape = b.static_shape(ids), data_shape = b.static_shape(data);
  if (!ids_shape.known_rank() || !data_shape.known_rank()) return GradValue();  // unknown: callers decide
  const int extra = data_shape.rank() - ids_shape.rank();
  if (extra > 0) {
    const std::vector<GradValue> shape = b.op_n(
        "ConcatV2", {b.shape_of(ids), b.int_vector(std::vector<int64_t>(extra, 1)), b.scalar(DType::kInt32, 0)},
        grad::attrs({{"N", int64_t{2}}}));
    if (!shape.empty()) mask = b.op("Reshape", {mask, shape[0]});
  }
  return mask;
}

// Rows gathered by id, zeros for negative ids (without a mask: ids must not be negative).
GradValue gather_non_negative(GradBuilder& b, const GradValue& params, const GradValue& ids, const GradValue& mask) {
  if (!mask) return gather_rows(b, params, ids);
  const GradValue gathered = gather_rows(b, params, b.op("Maximum", {ids, b.zeros_like(ids)}));
  return b.op("SelectV2", {mask, gathered, b.zeros_like(gathered)});
}

// dy gathered back by segment id (rows of negative ids get zeros).
Status unsorted_segment_sum_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& ids = in.inputs[1];
  (*g)[0] = gather_non_negative(b, dy(in), ids, non_negative_ids(b, ids, x(in)));
  return b.status();
}

Status unsorted_segment_min_max_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& ids = in.inputs[1];
  const GradValue mask = non_negative_ids(b, ids, x(in));
  if (!mask) return errors::Unimplemented("UnsortedSegmentMax/Min gradient needs known ranks");
  const GradValue is_selected =
      b.op("LogicalAnd", {b.op("Equal", {x(in), gather_non_negative(b, out(in), ids, mask)}), mask});
  const GradValue num_selected =
      b.op("UnsortedSegmentSum", {cast(b, is_selected, b.dtype(dy(in))), ids, in.inputs[2]});
  const GradValue weighted = gather_non_negative(b, b.op("RealDiv", {dy(in), num_selected}), ids, mask);
  (*g)[0] = b.op("SelectV2", {is_selected, weighted, b.zeros_like(weighted)});
  return b.status();
}

// The product of the others in the segment: output / x, or (for the one zero of a segment) the
// product of the non-zero elements; segments with two zeros or more get none.
Status prod_grad(GradBuilder& b, const GradInputs& in, Grads* g, bool sorted) {
  const GradValue& data = x(in);
  const GradValue& ids = in.inputs[1];
  auto segment = [&](const char* sorted_op, const char* unsorted_op, const GradValue& v) {
    return sorted ? b.op(sorted_op, {v, ids}) : b.op(unsorted_op, {v, ids, in.inputs[2]});
  };
  const GradValue rows = sorted ? ids : b.op("Maximum", {ids, b.zeros_like(ids)});
  const GradValue is_zero = b.op("Equal", {data, b.scalar(b.dtype(data), 0)});
  const GradValue num_zeros = segment("SegmentSum", "UnsortedSegmentSum", cast(b, is_zero, DType::kInt32));
  const GradValue grad = b.op("SelectV2", {b.op("Greater", {num_zeros, b.scalar(DType::kInt32, 1)}),
                                           b.zeros_like(dy(in)), dy(in)});
  const GradValue non_zero_data = b.op("SelectV2", {is_zero, b.ones_like(data), data});
  const GradValue non_zero_prod = segment("SegmentProd", "UnsortedSegmentProd", non_zero_data);
  const GradValue by_element = b.op("RealDiv", {gather_rows(b, out(in), rows), sorted ? non_zero_data : data});
  const GradValue partial = b.op("SelectV2", {is_zero, gather_rows(b, non_zero_prod, rows), by_element});
  const GradValue gathered =
      sorted ? gather_rows(b, grad, ids) : gather_non_negative(b, grad, ids, non_negative_ids(b, ids, data));
  (*g)[0] = b.op("Mul", {gathered, partial});
  return b.status();
}
Status segment_prod_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return prod_grad(b, in, g, true); }
Status unsorted_segment_prod_grad(GradBuilder& b, const GradInputs& in, Grads* g) { return prod_grad(b, in, g, false); }

}  // namespace

void register_segment_gradients(OpRegistry& reg) {
  reg.set_gradient("SegmentSum", segment_sum_grad);
  reg.set_gradient("SegmentMean", segment_mean_grad);
  reg.set_gradient("SegmentMax", segment_min_max_grad);
  reg.set_gradient("SegmentMin", segment_min_max_grad);
  reg.set_gradient("SegmentProd", segment_prod_grad);
  reg.set_gradient("UnsortedSegmentSum", unsorted_segment_sum_grad);
  reg.set_gradient("UnsortedSegmentMax", unsorted_segment_min_max_grad);
  reg.set_gradient("UnsortedSegmentMin", unsorted_segment_min_max_grad);
  reg.set_gradient("UnsortedSegmentProd", unsorted_segment_prod_grad);
}

}  // namespace graphfn
