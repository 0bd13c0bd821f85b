#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace shape_fns {

Status unchanged(InferenceContext& c) {
  c.set_output(0, c.input_dtype(0), c.input_shape(0));
  return Status::OK();
}

Status broadcast_binary(InferenceContext& c) {
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(broadcast_shapes(c.input_shape(0), c.input_shape(1), &out));
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status broadcast_binary_to_bool(InferenceContext& c) {
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(broadcast_shapes(c.input_shape(0), c.input_shape(1), &out));
  c.set_output(0, DType::kBool, std::move(out));
  return Status::OK();
}

}  // namespace shape_fns
}  // namespace graphfn
