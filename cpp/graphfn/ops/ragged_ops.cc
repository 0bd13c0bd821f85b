// RaggedRange (tf.ragged.range): row i is range(starts[i], limits[i], deltas[i]), returned as the
// row splits and the concatenated values of a ragged tensor. starts, limits and deltas are scalars
// or vectors of one length (scalars apply to every row).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status ragged_range_shape(InferenceContext& c) {
  static const char* const kNames[] = {"starts", "limits", "deltas"};
  int64_t rows = 1;  // all scalars: one row
  bool known = true;
  bool size_known = false;
  for (int i = 0; i < 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (!s.known_rank()) {
      known = false;
      continue;
    }
    if (s.rank() > 1) return errors::InvalidArgument(kNames[i], " must be a scalar or vector");
    if (s.rank() == 1) {
      const int64_t d = s.dim(0);
      if (d == Shape::kUnknownDim) {
        known = false;
      } else if (size_known && d != rows) {
        return errors::InvalidArgument("starts, limits, and deltas must have the same shape");
      } else {
        rows = d;
        size_known = true;
      }
    }
  }
  c.set_output(0, c.type_attr("Tsplits"), Shape{known ? rows + 1 : Shape::kUnknownDim});
  c.set_output(1, c.type_attr("T"), Shape{Shape::kUnknownDim});
  return Status::OK();
}

}  // namespace

void register_ragged_ops(OpRegistry& reg) {
  reg.op("RaggedRange").input("starts: T").input("limits: T").input("deltas: T")
      .output("rt_nested_splits: Tsplits").output("rt_dense_values: T")
      .attr("T: {float, double, int32, int64} = DT_INT32").attr("Tsplits: {int32, int64} = DT_INT64")
      .kernel_type_attr("T").shape_fn(ragged_range_shape, true);
}

}  // namespace graphfn
