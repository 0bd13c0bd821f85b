// Stateless random ops (tf.random.stateless_*): the output is a pure function of the shape and
// a seed of two integers, so the same seed gives the same samples on every call and in every
// graph. TF's op names and signatures; the bits differ from TF's (see docs/ops.md).
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Output 0 has the shape held by input 0, a vector of int32/int64 dims.
Status output_from_shape_vector(InferenceContext& c, DType out_dtype) {
  const Shape& s = c.input_shape(0);
  if (s.known_rank() && s.rank() != 1) {
    return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ", s);
  }
  const Tensor* value = c.input_value(0);
  if (!value) {
    if (const Shape* partial = c.input_shape_value(0)) {
      c.set_output(0, out_dtype, *partial);
    } else {
      c.set_output(0, out_dtype, !s.known_rank() || s.dim(0) < 0
                                     ? Shape::unknown_rank()
                                     : Shape(std::vector<int64_t>(s.dim(0), Shape::kUnknownDim)));
    }
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*value, &dims));
  for (int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
  }
  return shape_fns::set_checked_output(c, out_dtype, Shape(std::move(dims)));
}

Status check_seed(const InferenceContext& c) {
  const Shape& seed = c.input_shape(1);
  if (seed.known_rank() && !(seed.rank() == 1 && (seed.dim(0) == 2 || seed.dim(0) == Shape::kUnknownDim))) {
    return errors::InvalidArgument("seed must have shape [2], not ", seed.to_string());
  }
  return Status::OK();
}

Status stateless_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_seed(c));
  return output_from_shape_vector(c, c.type_attr("dtype"));
}

// StatelessRandomUniformInt(shape, seed, minval, maxval): scalar bounds.
Status stateless_int_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_seed(c));
  const char* names[] = {"minval", "maxval"};
  for (int i = 2; i <= 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() != 0) {
      if (c.is_eager()) return errors::InvalidArgument(names[i - 2], " must be 0-D, got shape ", s.to_string());
      return errors::InvalidArgument("Shape must be rank 0 but is rank ", s.rank());
    }
  }
  return output_from_shape_vector(c, c.type_attr("dtype"));
}

}  // namespace

void register_stateless_random_ops(OpRegistry& reg) {
  for (const char* name : {"StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal"}) {
    reg.op(name).input("shape: T").input("seed: Tseed").output("output: dtype")
        .attr("dtype: {half, bfloat16, float, double} = DT_FLOAT").attr("T: {int32, int64} = DT_INT32")
        .attr("Tseed: {int32, int64} = DT_INT64").shape_fn(stateless_shape, true).shape_input("shape");
  }
  reg.op("StatelessRandomUniformInt").input("shape: T").input("seed: Tseed").input("minval: dtype")
      .input("maxval: dtype").output("output: dtype").attr("dtype: {int32, int64}")
      .attr("T: {int32, int64}").attr("Tseed: {int32, int64} = DT_INT64").shape_fn(stateless_int_shape, true).shape_input("shape");
  reg.op("StatelessRandomUniformFullInt").input("shape: T").input("seed: Tseed").output("output: dtype")
      .attr("dtype: {int32, int64, uint32, uint64} = DT_UINT64").attr("T: {int32, int64} = DT_INT32")
      .attr("Tseed: {int32, int64, uint32, uint64} = DT_INT64").shape_fn(stateless_shape, true).shape_input("shape");
  // Samples do not depend on anything differentiable (TF declares them NotDifferentiable).
  for (const char* name : {"StatelessRandomUniform", "StatelessRandomNormal", "StatelessTruncatedNormal",
                           "StatelessRandomUniformInt", "StatelessRandomUniformFullInt"}) {
    reg.set_not_differentiable(name);
  }
}

}  // namespace graphfn
