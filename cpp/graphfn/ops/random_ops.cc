// Random ops: RandomUniform, RandomStandardNormal, RandomUniformInt. All are stateful: each call
// draws fresh samples from the Philox stream named by the (seed, seed2) attrs (see
// kernels/random_streams.h); tf.random.* picks those attrs from the global and op seeds.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Input `index` is a shape vector; sets output 0 to that shape with dtype `out_dtype`.
// Checks dims one by one like TF: a negative dim, or a running product past int64, fails.
Status output_from_shape_input(InferenceContext& c, int index, DType out_dtype) {
  const Shape& s = c.input_shape(index);
  if (s.rank() != 1) return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ", s);
  const Tensor* value = c.input_value(index);
  if (!value) {  // graph mode, shape not constant: rank known from the vector's length
    c.set_output(0, out_dtype, s.dim(0) < 0 ? Shape::unknown_rank()
                                            : Shape(std::vector<int64_t>(s.dim(0), Shape::kUnknownDim)));
    return Status::OK();
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*value, &dims));
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    if (__builtin_mul_overflow(n, d, &n)) {
      std::string text;  // not Shape::to_string, which would print later negative dims as "?"
      for (int64_t e : dims) text += (text.empty() ? "" : ",") + std::to_string(e);
      return errors::InvalidArgument("Shape [", text, "] would have more than 2**63 - 1 elements");
    }
  }
  c.set_output(0, out_dtype, Shape(std::move(dims)));
  return Status::OK();
}

Status random_shape(InferenceContext& c) { return output_from_shape_input(c, 0, c.type_attr("dtype")); }

// RandomUniformInt(shape, minval, maxval): the bounds must be scalars; minval < maxval is checked
// by the kernel, and only when the output is non-empty (as TF does).
Status random_uniform_int_shape(InferenceContext& c) {
  const char* names[] = {"minval", "maxval"};
  for (int i = 1; i <= 2; ++i) {
    if (c.input_shape(i).rank() != 0) {
      return errors::InvalidArgument(names[i - 1], " must be 0-D, got shape ", c.input_shape(i));
    }
  }
  return output_from_shape_input(c, 0, c.type_attr("Tout"));
}

}  // namespace

void register_random_ops(OpRegistry& reg) {
  for (const char* name : {"RandomUniform", "RandomStandardNormal"}) {
    reg.op(name).input("shape: T").output("output: dtype")
        .attr("seed: int = 0").attr("seed2: int = 0")
        .attr("dtype: {half, bfloat16, float, double}").attr("T: {int32, int64}")
        .stateful().shape_fn(random_shape);
  }
  reg.op("RandomUniformInt").input("shape: T").input("minval: Tout").input("maxval: Tout")
      .output("output: Tout")
      .attr("seed: int = 0").attr("seed2: int = 0")
      .attr("Tout: {int32, int64}").attr("T: {int32, int64}")
      .stateful().shape_fn(random_uniform_int_shape);
}

}  // namespace graphfn
