// Ops that gradients are built from: AddN (summing gradients; tf.add_n), ReluGrad,
// InvertPermutation, ConcatOffset, StopGradient (tf.stop_gradient), BroadcastGradientArgs (the
// axes a broadcasting op's gradient sums over), BroadcastTo (the gradient of a reduction) and
// StridedSliceGrad (the gradient of StridedSlice and Slice: dy placed in zeros).
// UnsortedSegmentSum, the gradient of GatherV2, is with the segment ops (segment_ops.cc).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"
#include "graphfn/ops/strided_slice_spec.h"

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

// The output has the forward input's shape (the `shape` input); dy must have the slice's shape.
Status strided_slice_grad_shape(InferenceContext& c) {
  const DType t = c.type_attr("T");
  const Tensor* shape_t = c.input_value(0);
  const Tensor* begin_t = c.input_value(1);
  const Tensor* end_t = c.input_value(2);
  const Tensor* strides_t = c.input_value(3);
  if (!shape_t) {
    const Shape& s = c.input_shape(0);
    c.set_output(0, t, s.known_rank() && s.rank() == 1 && s.dim(0) >= 0
                           ? Shape(std::vector<int64_t>(s.dim(0), Shape::kUnknownDim))
                           : Shape::unknown_rank());
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(int_values(*shape_t, &dims));
  Shape input(dims);
  int64_t num_elements = 0;
  GRAPHFN_RETURN_IF_ERROR(checked_num_elements(input, &num_elements));
  // As TF, a malformed spec is left to the kernel (an InvalidArgumentError when the node runs).
  const bool spec_ok = check_slice_spec_shapes(c.input_shape(1), c.input_shape(2), c.input_shape(3)).ok();
  if (begin_t && end_t && strides_t && spec_ok) {
    std::vector<int64_t> begin, end, strides;
    GRAPHFN_RETURN_IF_ERROR(int_values(*begin_t, &begin));
    GRAPHFN_RETURN_IF_ERROR(int_values(*end_t, &end));
    GRAPHFN_RETURN_IF_ERROR(int_values(*strides_t, &strides));
    const AttrMap& a = c.attrs();
    StridedSliceMasks masks{a.get_int("begin_mask", 0), a.get_int("end_mask", 0), a.get_int("ellipsis_mask", 0),
                            a.get_int("new_axis_mask", 0), a.get_int("shrink_axis_mask", 0)};
    StridedSliceResult r;
    GRAPHFN_RETURN_IF_ERROR(compute_strided_slice(input, &begin, &end, strides, masks, &r));
    const Shape& dy = c.input_shape(4);
    if (dy.known_rank() && dy.fully_defined() && dy != r.output_shape) {
      return errors::InvalidArgument("shape of dy was ", dy, " instead of ", r.output_shape);
    }
  }
  c.set_output(0, t, std::move(input));
  return Status::OK();
}

// [num_segments] + data.shape[rank(segment_ids):].
// Every input has the same shape (AddN does not broadcast).
Status add_n_shape(InferenceContext& c) {
  Shape out = c.input_shape(0);
  for (int i = 1; i < c.num_inputs(); ++i) {
    const Shape& s = c.input_shape(i);
    if (!s.known_rank() || !out.known_rank() || !s.fully_defined() || !out.fully_defined()) {
      if (!out.known_rank()) out = s;
      continue;
    }
    if (s != out) {
      return errors::InvalidArgument("Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: ",
                                     c.input_shape(0), " != input ", i, ": ", s);
    }
  }
  c.set_output(0, c.input_dtype(0), out);
  return Status::OK();
}

Status relu_grad_shape(InferenceContext& c) {
  const Shape& g = c.input_shape(0);
  const Shape& f = c.input_shape(1);
  if (g.known_rank() && f.known_rank() && g.fully_defined() && f.fully_defined() && g != f) {
    return errors::InvalidArgument("Inputs to operation ReluGrad of type ReluGrad must have the same size and shape.  "
                                   "Input 0: ", g, " != input 1: ", f);
  }
  c.set_output(0, c.input_dtype(0), g.known_rank() ? g : f);
  return Status::OK();
}

Status invert_permutation_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  if (x.known_rank() && x.rank() != 1) return errors::InvalidArgument("invert_permutation expects a 1D vector.");
  c.set_output(0, c.input_dtype(0), x.known_rank() ? x : Shape{Shape::kUnknownDim});
  return Status::OK();
}

// One offset vector per shape: where each input starts along concat_dim in the result.
Status concat_offset_shape(InferenceContext& c) {
  for (int i = 1; i < c.num_inputs(); ++i) c.set_output(i - 1, c.input_dtype(i), c.input_shape(i));
  return Status::OK();
}

}  // namespace

void register_gradient_ops(OpRegistry& reg) {
  // Resources: TensorLists (TF's variant lists), summed element by element (their gradients).
  reg.op("AddN").input("inputs: N * T").output("sum: T").attr("N: int >= 1").attr("T: {numbertype, resource}").commutative()
      .shape_fn(add_n_shape, true);
  reg.op("ReluGrad").input("gradients: T").input("features: T").output("backprops: T").attr("T: {realnumbertype}")
      .shape_fn(relu_grad_shape, true);
  reg.op("InvertPermutation").input("x: T").output("y: T").attr("T: {int32, int64} = DT_INT32")
      .shape_fn(invert_permutation_shape, true);
  reg.op("ConcatOffset").input("concat_dim: int32").input("shape: N * shape_type").output("offset: N * shape_type")
      .attr("N: int >= 2").attr("shape_type: {int32, int64} = DT_INT32").kernel_type_attr("shape_type")
      .shape_fn(concat_offset_shape, true);
  reg.op("StopGradient").input("input: T").output("output: T").attr("T: type").shape_fn(shape_fns::unchanged, true);
  reg.op("BroadcastGradientArgs").input("s0: T").input("s1: T").output("r0: T").output("r1: T")
      .attr("T: {int32, int64} = DT_INT32").shape_fn(broadcast_gradient_args_shape, true);
  reg.op("BroadcastTo").input("input: T").input("shape: Tidx").output("output: T").attr("T: type")
      .attr("Tidx: {int32, int64} = DT_INT32").shape_fn(broadcast_to_shape, true).shape_input("shape");
  reg.op("StridedSliceGrad").input("shape: Index").input("begin: Index").input("end: Index")
      .input("strides: Index").input("dy: T").output("output: T").attr("T: type").attr("Index: {int32, int64}")
      .attr("begin_mask: int = 0").attr("end_mask: int = 0").attr("ellipsis_mask: int = 0")
      .attr("new_axis_mask: int = 0").attr("shrink_axis_mask: int = 0")
      .shape_fn(strided_slice_grad_shape, true).shape_input("shape");
}

}  // namespace graphfn
