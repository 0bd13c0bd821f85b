// Softmax family: Softmax, LogSoftmax (over the last dimension) and the fused losses
// SparseSoftmaxCrossEntropyWithLogits / SoftmaxCrossEntropyWithLogits, which also output the
// gradient with respect to the logits (backprop), as TF's kernels do.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status log_softmax_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (s.known_rank() && s.rank() < 1) return errors::InvalidArgument("logits must have >= 1 dimension, got ", s);
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

// TF's float32 CPU Softmax (its oneDNN kernel) takes ranks 1..5 and reports others as Aborted;
// its Eigen kernel of the other dtypes takes any rank >= 1, as LogSoftmax.
Status softmax_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (c.input_dtype(0) == DType::kFloat32 && s.known_rank() && (s.rank() < 1 || s.rank() > 5)) {
    return Status(Code::kAborted, "Input dims must be <= 5 and >=1");
  }
  return log_softmax_shape(c);
}

Status sparse_xent_shape(InferenceContext& c) {
  const Shape& f = c.input_shape(0);
  const Shape& l = c.input_shape(1);
  if (f.known_rank() && f.rank() != 2) return errors::InvalidArgument("logits must be 2-D, but got shape ", f);
  if (l.known_rank() && l.rank() != 1) return errors::InvalidArgument("labels must be 1-D, but got shape ", l);
  if (f.known_rank() && l.known_rank() && f.dim(0) >= 0 && l.dim(0) >= 0 && f.dim(0) != l.dim(0)) {
    return errors::InvalidArgument("logits and labels must have the same first dimension, got logits shape ", f,
                                   " and labels shape ", l);
  }
  const DType t = c.input_dtype(0);
  c.set_output(0, t, Shape{f.known_rank() ? f.dim(0) : Shape::kUnknownDim});
  c.set_output(1, t, f.known_rank() ? f : Shape{Shape::kUnknownDim, Shape::kUnknownDim});
  return Status::OK();
}

// Labels broadcast to the logits' [batch, classes].
Status xent_shape(InferenceContext& c) {
  const Shape& f = c.input_shape(0);
  const Shape& l = c.input_shape(1);
  const DType t = c.input_dtype(0);
  if (!f.known_rank() || !l.known_rank()) {
    c.set_output(0, t, Shape{Shape::kUnknownDim});
    c.set_output(1, t, Shape{Shape::kUnknownDim, Shape::kUnknownDim});
    return Status::OK();
  }
  Shape b;
  if (!broadcast_shapes(f, l, &b).ok() || (b.fully_defined() && f.fully_defined() && b != f)) {
    return errors::InvalidArgument("logits and labels must be broadcastable: logits_size=", f, " labels_size=", l);
  }
  if (f.rank() != 2 || l.rank() > 2) {
    return errors::InvalidArgument("logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional");
  }
  c.set_output(0, t, Shape{f.dim(0)});
  c.set_output(1, t, f);
  return Status::OK();
}

}  // namespace

void register_nn_ops(OpRegistry& reg) {
  reg.op("Softmax").input("logits: T").output("softmax: T").attr("T: {half, bfloat16, float, double}").shape_fn(softmax_shape, true);
  reg.op("LogSoftmax").input("logits: T").output("logsoftmax: T").attr("T: {half, bfloat16, float, double}")
      .shape_fn(log_softmax_shape, true);
  reg.op("SparseSoftmaxCrossEntropyWithLogits").input("features: T").input("labels: Tlabels")
      .output("loss: T").output("backprop: T").attr("T: {half, bfloat16, float, double}").attr("Tlabels: {int32, int64} = DT_INT64")
      .shape_fn(sparse_xent_shape, true);
  reg.op("SoftmaxCrossEntropyWithLogits").input("features: T").input("labels: T")
      .output("loss: T").output("backprop: T").attr("T: {half, bfloat16, float, double}").shape_fn(xent_shape, true);
}

}  // namespace graphfn
