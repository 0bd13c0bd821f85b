// Ops that gradients are built from: StopGradient (tf.stop_gradient), BroadcastGradientArgs (the
// axes a broadcasting op's gradient sums over) and BroadcastTo (the gradient of a reduction).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

Status broadcast_gradient_args_shape(InferenceContext& c) {
  for (int i = 0; i < 2; ++i) {
    if (c.input_shape(i).known_rank() && c.input_shape(i).rank() != 1) {
      return errors::InvalidArgument("In[", i, "] must be a vector.", c.input_shape(i).to_string());
    }
  }
  const DType t = c.type_attr("T");
  c.set_output(0, t, Shape{Shape::kUnknownDim});
  c.set_output(1, t, Shape{Shape::kUnknownDim});
  return Status::OK();
}

Status broadcast_to_shape(InferenceContext& c) {
  const Tensor* shape_value = c.input_value(1);
  const DType t = c.type_attr("T");
  if (!shape_value) {
    const Shape& s = c.input_shape(1);
    c.set_output(0, t, s.known_rank() && s.rank() == 1 && s.dim(0) >= 0
                           ? Shape(std::vector<int64_t>(s.dim(0), Shape::kUnknownDim))
                           : Shape::unknown_rank());
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*shape_value, &dims));
  for (int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
  }
  Shape target(dims);
  const Shape& in = c.input_shape(0);
  Shape out;
  if (in.known_rank()) {
    // Only the input may broadcast: the result must be exactly `target`.
    if (!broadcast_shapes(in, target, &out).ok() || out != target) {
      return errors::InvalidArgument("Incompatible shapes: ", in.to_string(), " vs. ", target.to_string());
    }
  }
  c.set_output(0, t, std::move(target));
  return Status::OK();
}

}  // namespace

void register_gradient_ops(OpRegistry& reg) {
  reg.op("StopGradient").input("input: T").output("output: T").attr("T: type").shape_fn(shape_fns::unchanged, true);
  reg.op("BroadcastGradientArgs").input("s0: T").input("s1: T").output("r0: T").output("r1: T")
      .attr("T: {int32, int64} = DT_INT32").shape_fn(broadcast_gradient_args_shape, true);
  reg.op("BroadcastTo").input("input: T").input("shape: Tidx").output("output: T").attr("T: type")
      .attr("Tidx: {int32, int64} = DT_INT32").shape_fn(broadcast_to_shape, true).shape_input("shape");
}

}  // namespace graphfn
