// DenseBincount (tf.math.bincount): counts (or weight sums) of each value in [0, size), for a
// vector or for each row of a matrix.
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
  return shape_fns::set_checked_output(c, t, input.rank() == 2 ? Shape{input.dim(0), bins} : Shape{bins});
}

}  // namespace

void register_bincount_ops(OpRegistry& reg) {
  reg.op("DenseBincount").input("input: Tidx").input("size: Tidx").input("weights: T").output("output: T")
      .attr("Tidx: {int32, int64}").attr("T: {int32, int64, float, double}").attr("binary_output: bool = false")
      .kernel_type_attr("T").needs_value("size").shape_fn(dense_bincount_shape, true);
}

}  // namespace graphfn
