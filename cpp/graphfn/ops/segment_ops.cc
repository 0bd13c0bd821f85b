// Segment reductions (tf.math.segment_* and unsorted_segment_*): rows of `data` folded into the
// output row their segment id names. Sorted ones take as many rows as the last id + 1; unsorted
// ones take `num_segments` and skip negative ids.
#include <limits>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// TF's checks on a sorted segment op's inputs; output rows = last id + 1 when the ids are known.
Status segment_shape(InferenceContext& c) {
  const Shape& data = c.input_shape(0);
  const Shape& ids = c.input_shape(1);
  const DType t = c.type_attr("T");
  if (data.known_rank() && data.rank() < 1) return errors::InvalidArgument("input must be at least rank 1");
  if (ids.known_rank() && ids.rank() != 1) return errors::InvalidArgument("segment_ids should be a vector.");
  if (!data.known_rank()) {
    c.set_output(0, t, Shape::unknown_rank());
    return Status::OK();
  }
  // (TF finds a size mismatch when the kernel runs, not while building a graph.)
  if (c.is_eager() && ids.dim(0) != data.dim(0)) {
    return errors::InvalidArgument("segment_ids should be the same size as dimension 0 of input.");
  }
  std::vector<int64_t> dims(data.dims().begin(), data.dims().end());
  dims[0] = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(1)) {
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &values));
    const int64_t last = values.empty() ? -1 : values.back();
    dims[0] = last == std::numeric_limits<int64_t>::max() ? last : last + 1;  // saturated: refused below
    if (dims[0] < 0) return errors::InvalidArgument("segment ids must be >= 0");
  }
  return shape_fns::set_checked_output(c, t, Shape(dims));
}

// num_segments rows, then data's dims after those of segment_ids.
Status unsorted_segment_shape(InferenceContext& c) {
  const Shape& data = c.input_shape(0);
  const Shape& ids = c.input_shape(1);
  const DType t = c.type_attr("T");
  if (c.input_shape(2).known_rank() && c.input_shape(2).rank() != 0) {
    return errors::InvalidArgument("num_segments should be a scalar, not shape ", c.input_shape(2));
  }
  if (!data.known_rank() || !ids.known_rank()) {
    c.set_output(0, t, Shape::unknown_rank());
    return Status::OK();
  }
  bool prefix = ids.rank() <= data.rank();
  for (int i = 0; prefix && i < ids.rank(); ++i) {
    prefix = ids.dim(i) < 0 || data.dim(i) < 0 || ids.dim(i) == data.dim(i);
  }
  if (!prefix) {
    if (!c.is_eager() && ids.rank() <= data.rank()) {  // TF's graph-building words
      for (int i = 0; i < ids.rank(); ++i) {
        if (ids.dim(i) >= 0 && data.dim(i) >= 0 && ids.dim(i) != data.dim(i)) {
          return errors::InvalidArgument("Dimensions must be equal, but are ", data.dim(i), " and ", ids.dim(i));
        }
      }
    }
    return errors::InvalidArgument("data.shape = ", data, " does not start with segment_ids.shape = ", ids);
  }
  std::vector<int64_t> dims{Shape::kUnknownDim};
  const Tensor* n = c.input_value(2);
  if (n) {
    std::vector<int64_t> v;
    GRAPHFN_RETURN_IF_ERROR(int_values(*n, &v));
    if (v[0] < 0 && !c.is_eager()) {
      return errors::InvalidArgument("Dimension size, given by scalar input 2, must be non-negative but is ", v[0]);
    }
    if (v[0] < 0) return errors::InvalidArgument("Input num_segments == ", v[0], " must not be negative.");
    dims[0] = v[0];
  }
  for (int i = ids.rank(); i < data.rank(); ++i) dims.push_back(data.dim(i));
  Shape out(dims);
  if (n) {
    int64_t count = 0;
    GRAPHFN_RETURN_IF_ERROR(checked_num_elements(out, &count));
  }
  c.set_output(0, t, std::move(out));
  return Status::OK();
}

}  // namespace

void register_segment_ops(OpRegistry& reg) {
  // TF's type lists: Max/Min take no complex or quantized types.
  const char* kNumber = "T: {numbertype}";
  const char* kReal = "T: {realnumbertype}";
  const std::pair<const char*, const char*> sorted[] = {
      {"SegmentSum", kNumber}, {"SegmentMean", kNumber}, {"SegmentProd", kNumber},
      {"SegmentMax", kReal}, {"SegmentMin", kReal}};
  for (const auto& [name, types] : sorted) {
    reg.op(name).input("data: T").input("segment_ids: Tindices").output("output: T").attr(types)
        .attr("Tindices: {int32, int64}").shape_fn(segment_shape, true);
  }
  const std::pair<const char*, const char*> unsorted[] = {
      {"UnsortedSegmentSum", kNumber}, {"UnsortedSegmentProd", kNumber},
      {"UnsortedSegmentMax", kReal}, {"UnsortedSegmentMin", kReal}};
  for (const auto& [name, types] : unsorted) {
    reg.op(name).input("data: T").input("segment_ids: Tindices").input("num_segments: Tnumsegments")
        .output("output: T").attr(types).attr("Tindices: {int32, int64}")
        .attr("Tnumsegments: {int32, int64} = DT_INT32").shape_fn(unsorted_segment_shape, true);
  }
}

}  // namespace graphfn
