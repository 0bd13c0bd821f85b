// ClipByValue: element-wise clip to [clip_value_min, clip_value_max].
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

// The bounds are scalars or have the input's shape (tf.clip_by_value handles broadcasting
// bounds itself, with Minimum/Maximum).
Status clip_shape(InferenceContext& c) {
  const Shape& t = c.input_shape(0);
  const Shape& lo = c.input_shape(1);
  const Shape& hi = c.input_shape(2);
  const bool lo_ok = lo.rank() == 0 || lo == t;
  const bool hi_ok = hi.rank() == 0 || hi == t;
  if (!lo_ok || !hi_ok) {
    return errors::InvalidArgument(
        "clip_value_min and clip_value_max must be either of the same shape as input, or a scalar. ",
        "input shape: ", t, "clip_value_min shape: ", lo, "clip_value_max shape: ", hi);
  }
  c.set_output(0, c.input_dtype(0), t);
  return Status::OK();
}

}  // namespace

void register_clip_ops(OpRegistry& reg) {
  reg.op("ClipByValue").input("t: T").input("clip_value_min: T").input("clip_value_max: T")
      .output("output: T").attr("T: {numbertype}").shape_fn(clip_shape);
}

}  // namespace graphfn
