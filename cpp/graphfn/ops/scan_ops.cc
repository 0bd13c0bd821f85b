// Cumulative sums, products and log-sum-exps along an axis (tf.math.cumsum / cumprod /
// cumulative_logsumexp): Cumsum, Cumprod, CumulativeLogsumexp.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

Status scan_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  const Shape& axis_shape = c.input_shape(1);
  if (axis_shape.known_rank() && axis_shape.rank() != 0) {
    return errors::InvalidArgument("ScanOp: axis must be a scalar, not ", axis_shape);
  }
  const Tensor* axis = c.input_value(1);
  if (axis && x.known_rank()) {
    std::vector<int64_t> v;
    GRAPHFN_RETURN_IF_ERROR(int_values(*axis, &v));
    if (v[0] < -x.rank() || v[0] >= x.rank()) {
      return errors::InvalidArgument("ScanOp: Expected scan axis in the range [", -x.rank(), ", ", x.rank(),
                                     "), but got ", v[0]);
    }
  }
  c.set_output(0, c.input_dtype(0), x);
  return Status::OK();
}

}  // namespace

void register_scan_ops(OpRegistry& reg) {
  for (const char* name : {"Cumsum", "Cumprod"}) {
    reg.op(name).input("x: T").input("axis: Tidx").output("out: T").attr("exclusive: bool = false")
        .attr("reverse: bool = false").attr("T: {numbertype}").attr("Tidx: {int32, int64} = DT_INT32")
        .needs_value("axis").shape_fn(scan_shape, true);
  }
  reg.op("CumulativeLogsumexp").input("x: T").input("axis: Tidx").output("out: T").attr("exclusive: bool = false")
      .attr("reverse: bool = false").attr("T: {bfloat16, half, float, double}").attr("Tidx: {int32, int64} = DT_INT32")
      .needs_value("axis").shape_fn(scan_shape, true);
}

}  // namespace graphfn
