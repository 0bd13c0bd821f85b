// Random sampling beyond uniform and normal: TruncatedNormal, RandomShuffle, Multinomial
// (tf.random.categorical), RandomGamma, RandomPoissonV2, and the stateless StatelessMultinomial
// and StatelessRandomBinomial. Stateful ones draw from the op's Philox stream (seed, seed2 attrs)
// like RandomUniform; stateless ones from a stream keyed by their seed input.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// The dims held by a shape-vector input: known values, else unknown dims (or rank).
Status shape_from_vector(InferenceContext& c, int input, Shape* out) {
  const Shape& s = c.input_shape(input);
  if (s.known_rank() && s.rank() != 1) {
    return errors::InvalidArgument("shape must be a vector of {int32,int64}, got shape ", s);
  }
  if (const Tensor* v = c.input_value(input)) {
    std::vector<int64_t> dims;
    GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(*v, &dims));
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
    *out = Shape(std::move(dims));
  } else if (const Shape* partial = c.input_shape_value(input)) {
    *out = *partial;
  } else {
    *out = !s.known_rank() || s.dim(0) < 0 ? Shape::unknown_rank()
                                           : Shape(std::vector<int64_t>(s.dim(0), Shape::kUnknownDim));
  }
  return Status::OK();
}

Status truncated_normal_shape(InferenceContext& c) {
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(shape_from_vector(c, 0, &out));
  return shape_fns::set_checked_output(c, c.type_attr("dtype"), out);
}

// RandomGamma(shape, alpha), RandomPoissonV2(shape, rate): shape + the parameter's shape.
Status shape_then_param(InferenceContext& c, DType dt) {
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(shape_from_vector(c, 0, &out));
  const Shape& param = c.input_shape(1);
  if (!out.known_rank() || !param.known_rank()) {
    c.set_output(0, dt, Shape::unknown_rank());
    return Status::OK();
  }
  for (int i = 0; i < param.rank(); ++i) out.add_dim(param.dim(i));
  return shape_fns::set_checked_output(c, dt, out);
}
Status gamma_shape(InferenceContext& c) { return shape_then_param(c, c.input_dtype(1)); }
Status poisson_shape(InferenceContext& c) { return shape_then_param(c, c.type_attr("dtype")); }

// Multinomial(logits [batch, classes], num_samples) -> [batch, num_samples].
Status multinomial_shape(InferenceContext& c) {
  const Shape& logits = c.input_shape(0);
  if (logits.known_rank() && logits.rank() != 2) {
    if (c.is_eager()) return errors::InvalidArgument("logits should be a matrix, got shape ", logits.to_string());
    return errors::InvalidArgument("Shape must be rank 2 but is rank ", logits.rank());
  }
  const Shape& n = c.input_shape(1);
  if (n.known_rank() && n.rank() != 0) {
    if (c.is_eager()) return errors::InvalidArgument("num_samples should be a scalar, got shape ", n.to_string());
    return errors::InvalidArgument("Shape must be rank 0 but is rank ", n.rank());
  }
  int64_t samples = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(1)) {
    samples = *v->data<int32_t>();
    if (samples < 0) return errors::InvalidArgument("num_samples should be non-negative, got ", samples);
  }
  if (c.is_eager() && logits.dim(0) > 0 && logits.dim(1) == 0 && samples > 0) {
    return errors::InvalidArgument("num_classes should be positive, got 0");
  }
  const int64_t batch = logits.known_rank() ? logits.dim(0) : Shape::kUnknownDim;
  return shape_fns::set_checked_output(c, c.type_attr("output_dtype"), Shape({batch, samples}));
}

Status check_seed(const InferenceContext& c, int input) {
  const Shape& seed = c.input_shape(input);
  if (seed.known_rank() && !(seed.rank() == 1 && (seed.dim(0) == 2 || seed.dim(0) == Shape::kUnknownDim))) {
    return errors::InvalidArgument("seed must have shape [2], not ", seed.to_string());
  }
  return Status::OK();
}

Status stateless_multinomial_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_seed(c, 2));
  return multinomial_shape(c);
}

// StatelessRandomBinomial(shape, seed, counts, probs): counts and probs broadcast to shape.
Status binomial_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_seed(c, 1));
  Shape out;
  GRAPHFN_RETURN_IF_ERROR(shape_from_vector(c, 0, &out));
  if (c.is_eager()) {
    for (int i = 2; i <= 3; ++i) {
      const Shape& p = c.input_shape(i);
      bool ok = p.rank() <= out.rank();
      for (int k = 0; ok && k < p.rank(); ++k) {
        const int64_t d = p.dim(p.rank() - 1 - k);
        ok = d == 1 || d == out.dim(out.rank() - 1 - k);
      }
      if (!ok) {
        return errors::InvalidArgument("Shape passed in must end with broadcasted shape.");
      }
    }
  }
  return shape_fns::set_checked_output(c, c.type_attr("dtype"), out);
}

}  // namespace

void register_random_sampling_ops(OpRegistry& reg) {
  reg.op("TruncatedNormal").input("shape: T").output("output: dtype").attr("seed: int = 0").attr("seed2: int = 0")
      .attr("dtype: {half, bfloat16, float, double}").attr("T: {int32, int64}").stateful()
      .shape_fn(truncated_normal_shape, true).shape_input("shape");
  reg.op("RandomShuffle").input("value: T").output("output: T").attr("seed: int = 0").attr("seed2: int = 0")
      .attr("T: type").stateful().shape_fn(shape_fns::unchanged, true);
  reg.op("Multinomial").input("logits: T").input("num_samples: int32").output("output: output_dtype")
      .attr("seed: int = 0").attr("seed2: int = 0").attr("T: {realnumbertype}")
      .attr("output_dtype: {int32, int64} = DT_INT64").stateful().shape_fn(multinomial_shape, true);
  reg.op("StatelessMultinomial").input("logits: T").input("num_samples: int32").input("seed: Tseed")
      .output("output: output_dtype").attr("T: {realnumbertype}").attr("Tseed: {int32, int64} = DT_INT64")
      .attr("output_dtype: {int32, int64} = DT_INT64").shape_fn(stateless_multinomial_shape, true);
  reg.op("RandomGamma").input("shape: S").input("alpha: T").output("output: T").attr("seed: int = 0")
      .attr("seed2: int = 0").attr("S: {int32, int64}").attr("T: {half, float, double}").stateful()
      .kernel_type_attr("T").shape_fn(gamma_shape, true).shape_input("shape");
  reg.op("RandomPoissonV2").input("shape: S").input("rate: R").output("output: dtype").attr("seed: int = 0")
      .attr("seed2: int = 0").attr("S: {int32, int64}").attr("R: {half, float, double, int32, int64} = DT_DOUBLE")
      .attr("dtype: {half, float, double, int32, int64} = DT_INT64").stateful().kernel_type_attr("dtype")
      .shape_fn(poisson_shape, true).shape_input("shape");
  reg.op("StatelessRandomBinomial").input("shape: S").input("seed: Tseed").input("counts: T").input("probs: T")
      .output("output: dtype").attr("S: {int32, int64}").attr("Tseed: {int32, int64} = DT_INT64")
      .attr("T: {half, float, double, int32, int64} = DT_DOUBLE")
      .attr("dtype: {half, float, double, int32, int64} = DT_INT64").kernel_type_attr("dtype")
      .shape_fn(binomial_shape, true).shape_input("shape");
  // d sample / d alpha of gamma samples (the reparameterization gradient of RandomGamma).
  reg.op("RandomGammaGrad").input("alpha: T").input("sample: T").output("output: T").attr("T: {float, double}")
      .shape_fn(shape_fns::broadcast_binary, true);
  for (const char* name : {"TruncatedNormal", "RandomShuffle", "Multinomial", "StatelessMultinomial",
                           "StatelessRandomBinomial"}) {
    reg.set_not_differentiable(name);
  }
}

}  // namespace graphfn
