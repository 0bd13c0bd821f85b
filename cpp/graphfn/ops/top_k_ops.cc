// TopKV2 (tf.math.top_k: the k largest entries of each last-axis row, and their indices) and
// InTopKV2 (tf.math.in_top_k: whether each row's target class is among its k largest).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status top_k_shape(InferenceContext& c) {
  const Shape& input = c.input_shape(0);
  const Shape& k_shape = c.input_shape(1);
  if (k_shape.known_rank() && k_shape.rank() != 0) return errors::InvalidArgument("k must be scalar, got shape ", k_shape);
  int64_t k = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(1)) {
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &values));
    k = values[0];
    if (k < 0 && !c.is_eager()) {
      return errors::InvalidArgument("Dimension size, given by scalar input 1, must be non-negative but is ", k);
    }
    if (k < 0) return errors::InvalidArgument("Need k >= 0, got ", k);
  }
  if (!input.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape::unknown_rank());
    c.set_output(1, c.type_attr("index_type"), Shape::unknown_rank());
    return Status::OK();
  }
  // TF's kernel and its graph-building shape function word these two checks differently.
  if (input.rank() < 1) {
    if (!c.is_eager()) return errors::InvalidArgument("Shape must be at least rank 1 but is rank ", input.rank());
    return errors::InvalidArgument("input must be >= 1-D, got shape ", input);
  }
  const int64_t columns = input.dim(input.rank() - 1);
  if (k >= 0 && columns >= 0 && columns < k) {
    if (!c.is_eager()) {
      return errors::InvalidArgument("input must have last dimension >= k = ", k, " but is ", columns);
    }
    return errors::InvalidArgument("input must have at least k columns. Had ", columns, ", needed ", k);
  }
  std::vector<int64_t> dims(input.dims().begin(), input.dims().end());
  dims.back() = k;
  c.set_output(0, c.input_dtype(0), Shape(dims));
  c.set_output(1, c.type_attr("index_type"), Shape(dims));
  return Status::OK();
}

Status in_top_k_shape(InferenceContext& c) {
  const Shape& predictions = c.input_shape(0);
  const Shape& targets = c.input_shape(1);
  const Shape& k = c.input_shape(2);
  if (!c.is_eager()) {  // TF's graph-building words for the ranks
    if (predictions.known_rank() && predictions.rank() != 2) {
      return errors::InvalidArgument("Shape must be rank 2 but is rank ", predictions.rank());
    }
    if (targets.known_rank() && targets.rank() != 1) {
      return errors::InvalidArgument("Shape must be rank 1 but is rank ", targets.rank());
    }
  }
  if (predictions.known_rank() && predictions.rank() != 2) {
    return errors::InvalidArgument("predictions must be 2-dimensional");
  }
  if (targets.known_rank() && targets.rank() != 1) return errors::InvalidArgument("targets must be 1-dimensional");
  if (k.known_rank() && k.rank() != 0) return errors::InvalidArgument("k must be 0-D, got shape ", k);
  int64_t batch = targets.known_rank() ? targets.dim(0) : Shape::kUnknownDim;
  if (predictions.known_rank()) {
    const int64_t rows = predictions.dim(0);
    if (rows >= 0 && batch >= 0 && rows != batch) {
      if (!c.is_eager()) return errors::InvalidArgument("Dimensions must be equal, but are ", rows, " and ", batch);
      return errors::InvalidArgument("First dimension of predictions ", rows, " must match length of targets ", batch);
    }
    if (batch < 0) batch = rows;
  }
  c.set_output(0, DType::kBool, Shape{batch});
  return Status::OK();
}

}  // namespace

void register_top_k_ops(OpRegistry& reg) {
  reg.op("TopKV2").input("input: T").input("k: Tk").output("values: T").output("indices: index_type")
      .attr("sorted: bool = true").attr("T: {realnumbertype}").attr("Tk: {int16, int32, int64} = DT_INT32")
      .attr("index_type: {int16, int32, int64} = DT_INT32").needs_value("k").shape_fn(top_k_shape, true);
  reg.op("InTopKV2").input("predictions: float32").input("targets: T").input("k: T").output("precision: bool")
      .attr("T: {int32, int64} = DT_INT32").shape_fn(in_top_k_shape, true);
}

}  // namespace graphfn
