// Sorting and sets: StableSort (graphfn's own op behind tf.sort and tf.argsort, where TF's Python
// sorts with TopKV2), Unique, UniqueWithCounts, LowerBound/UpperBound (tf.searchsorted) and
// HistogramFixedWidth.
#include <iomanip>
#include <sstream>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// Sorts along the last axis: values and their original positions.
Status stable_sort_shape(InferenceContext& c) {
  const Shape& in = c.input_shape(0);
  if (in.known_rank() && in.rank() < 1) return errors::InvalidArgument("input must be at least 1-D, got shape ", in);
  c.set_output(0, c.input_dtype(0), in);
  c.set_output(1, c.type_attr("index_type"), in);
  return Status::OK();
}

Status unique_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  if (x.known_rank() && x.rank() != 1) return errors::InvalidArgument("unique expects a 1D vector.");
  const DType idx = c.type_attr("out_idx");
  c.set_output(0, c.input_dtype(0), Shape{Shape::kUnknownDim});
  c.set_output(1, idx, x.known_rank() ? x : Shape{Shape::kUnknownDim});
  if (c.op().outputs.size() == 3) c.set_output(2, idx, Shape{Shape::kUnknownDim});
  return Status::OK();
}

Status bound_shape(InferenceContext& c) {
  const Shape& sorted = c.input_shape(0);
  const Shape& values = c.input_shape(1);
  for (const Shape* s : {&sorted, &values}) {
    if (s->known_rank() && s->rank() != 2) return errors::InvalidArgument("Shape must be rank 2 but is rank ", s->rank());
  }
  if (c.is_eager() && sorted.dim(0) != values.dim(0)) {
    return errors::InvalidArgument("Leading dim_size of both tensors must match.");
  }
  c.set_output(0, c.type_attr("out_type"), values);
  return Status::OK();
}

Status histogram_shape(InferenceContext& c) {
  const Shape& range = c.input_shape(1);
  const Shape& nbins = c.input_shape(2);
  if (range.known_rank() && (range.rank() != 1 || (range.dim(0) >= 0 && range.dim(0) != 2))) {
    return errors::InvalidArgument("value_range should be a vector of 2 elements.");
  }
  if (nbins.known_rank() && nbins.rank() != 0) {
    return errors::InvalidArgument("nbins should be a scalar, got shape ", nbins);
  }
  const Tensor* range_t = c.input_value(1);
  if (range_t && range_t->num_elements() == 2) {  // TF checks the range before nbins
    bool ordered = true;
    std::string text;
    visit_dtype(range_t->dtype(), TypeList<int32_t, int64_t, float, double>{}, [&](auto tag) {
      using T = decltype(tag);
      const T lo = range_t->data<T>()[0], hi = range_t->data<T>()[1];
      ordered = lo < hi;
      std::ostringstream s;
      s << std::setprecision(6) << "[" << lo << ", " << hi << "]";
      text = s.str();
    });
    if (!ordered) {
      return errors::InvalidArgument("value_range should satisfy value_range[0] < value_range[1], but got '", text,
                                     "'");
    }
  }
  int64_t n = Shape::kUnknownDim;
  if (const Tensor* t = c.input_value(2)) {
    n = first_int(*t);
    if (n <= 0) return errors::InvalidArgument("nbins should be a positive number, but got '", n, "'");
  }
  GRAPHFN_RETURN_IF_ERROR(check_output_size(Shape{n}, c.type_attr("dtype")));
  c.set_output(0, c.type_attr("dtype"), Shape{n});
  return Status::OK();
}

}  // namespace

void register_sort_ops(OpRegistry& reg) {
  reg.op("StableSort").input("input: T").output("values: T").output("indices: index_type")
      .attr("T: {realnumbertype}").attr("index_type: {int32, int64} = DT_INT32").attr("descending: bool = false")
      .shape_fn(stable_sort_shape, true);
  reg.op("Unique").input("x: T").output("y: T").output("idx: out_idx").attr("T: type")
      .attr("out_idx: {int32, int64} = DT_INT32").shape_fn(unique_shape, true);
  reg.op("UniqueWithCounts").input("x: T").output("y: T").output("idx: out_idx").output("count: out_idx")
      .attr("T: type").attr("out_idx: {int32, int64} = DT_INT32").shape_fn(unique_shape, true);
  for (const char* name : {"LowerBound", "UpperBound"}) {
    reg.op(name).input("sorted_inputs: T").input("values: T").output("output: out_type").attr("T: type")
        .attr("out_type: {int32, int64} = DT_INT32").shape_fn(bound_shape, true);
  }
  reg.op("HistogramFixedWidth").input("values: T").input("value_range: T").input("nbins: int32")
      .output("out: dtype").attr("T: {int32, int64, float, double}").attr("dtype: {int32, int64} = DT_INT32")
      .shape_fn(histogram_shape, true);
}

}  // namespace graphfn
