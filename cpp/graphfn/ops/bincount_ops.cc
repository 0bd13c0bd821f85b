// The bincount family (tf.math.bincount, tf.sparse.bincount): counts (or weight sums) of each
// value in [0, size). Bincount (the first form) counts over all of arr; DenseBincount over a
// vector or each row of a matrix; SparseBincount over a SparseTensor's values (per row of dim 0
// when it has rank 2 or more); RaggedBincount per row of a ragged tensor.
#include <algorithm>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status dense_bincount_shape(InferenceContext& c) {
  const Shape& input = c.input_shape(0);
  const Shape& size = c.input_shape(1);
  const Shape& weights = c.input_shape(2);
  const DType t = c.type_attr("T");
  if (size.known_rank() && size.rank() != 0) return errors::InvalidArgument("Shape must be rank 0 but is rank ", size.rank());
  if (input.known_rank() && input.rank() > 2) {
    return errors::InvalidArgument("Shape must be at most rank 2 but is rank ", input.rank());
  }
  if (input.known_rank() && weights.known_rank() && input.fully_defined() && weights.fully_defined() &&
      weights.num_elements() != 0 && weights != input) {
    return errors::InvalidArgument("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
                                   "acts as all weights equal to 1. Received ", weights);
  }
  int64_t bins = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(1)) {
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &values));
    bins = values[0];
    if (bins < 0) return errors::InvalidArgument("size (", bins, ") must be non-negative");
  }
  if (!input.known_rank()) {
    c.set_output(0, t, Shape::unknown_rank());
    return Status::OK();
  }
  // (TF keeps the row count only when the size is known too.)
  const int64_t rows = bins >= 0 ? input.dim(0) : Shape::kUnknownDim;
  return shape_fns::set_checked_output(c, t, input.rank() == 2 ? Shape{rows, bins} : Shape{bins});
}

// `size`: a scalar with a known non-negative value, or kUnknownDim.
Status bincount_size(InferenceContext& c, int input, int64_t* bins) {
  const Shape& size = c.input_shape(input);
  if (size.known_rank() && size.rank() != 0) return errors::InvalidArgument("Shape must be rank 0 but is rank ", size.rank());
  *bins = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(input)) {
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &values));
    *bins = values[0];
    if (*bins < 0) return errors::InvalidArgument("size (", *bins, ") must be non-negative");
  }
  return Status::OK();
}

Status bincount_shape(InferenceContext& c) {
  int64_t bins = Shape::kUnknownDim;
  GRAPHFN_RETURN_IF_ERROR(bincount_size(c, 1, &bins));
  return shape_fns::set_checked_output(c, c.type_attr("T"), Shape{bins});
}

// [size] for a rank-1 dense_shape, [dense_shape[0], size] otherwise.
Status sparse_bincount_shape(InferenceContext& c) {
  const Shape& indices = c.input_shape(0);
  const Shape& values = c.input_shape(1);
  if (indices.known_rank() && indices.rank() != 2) {
    return errors::InvalidArgument("Sparse indices must be rank 2 but is rank ", indices.rank());
  }
  if (values.known_rank() && values.rank() != 1) {
    return errors::InvalidArgument("Sparse values must be rank 1 but is rank ", values.rank());
  }
  int64_t bins = Shape::kUnknownDim;
  GRAPHFN_RETURN_IF_ERROR(bincount_size(c, 3, &bins));
  const DType t = c.type_attr("T");
  const Tensor* dense_shape = c.input_value(2);
  if (!dense_shape) {
    c.set_output(0, t, Shape::unknown_rank());
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(int_values(*dense_shape, &dims));
  return shape_fns::set_checked_output(c, t, dims.size() <= 1 ? Shape{bins} : Shape{dims[0], bins});
}

// [len(splits) - 1, size] when it runs; TF infers no shape while building a graph.
Status ragged_bincount_shape(InferenceContext& c) {
  int64_t bins = Shape::kUnknownDim;
  GRAPHFN_RETURN_IF_ERROR(bincount_size(c, 2, &bins));
  const Shape& splits = c.input_shape(0);
  if (!c.is_eager()) {
    c.set_output(0, c.type_attr("T"), Shape::unknown_rank());
    return Status::OK();
  }
  const int64_t rows = std::max<int64_t>(splits.num_elements() - 1, 0);
  return shape_fns::set_checked_output(c, c.type_attr("T"), Shape{rows, bins});
}

}  // namespace

void register_bincount_ops(OpRegistry& reg) {
  reg.op("DenseBincount").input("input: Tidx").input("size: Tidx").input("weights: T").output("output: T")
      .attr("Tidx: {int32, int64}").attr("T: {int32, int64, float, double}").attr("binary_output: bool = false")
      .kernel_type_attr("T").shape_fn(dense_bincount_shape, true);
  reg.op("Bincount").input("arr: int32").input("size: int32").input("weights: T").output("bins: T")
      .attr("T: {int32, int64, float, double}").shape_fn(bincount_shape, true);
  reg.op("SparseBincount").input("indices: int64").input("values: Tidx").input("dense_shape: int64")
      .input("size: Tidx").input("weights: T").output("output: T").attr("Tidx: {int32, int64}")
      .attr("T: {int32, int64, float, double}").attr("binary_output: bool = false").kernel_type_attr("T")
      .shape_fn(sparse_bincount_shape, true);
  reg.op("RaggedBincount").input("splits: int64").input("values: Tidx").input("size: Tidx").input("weights: T")
      .output("output: T").attr("Tidx: {int32, int64}").attr("T: {int32, int64, float, double}")
      .attr("binary_output: bool = false").kernel_type_attr("T").shape_fn(ragged_bincount_shape, true);
}

}  // namespace graphfn
