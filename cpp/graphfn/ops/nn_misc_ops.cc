// The fused tf.nn kernels that are not convolutions or pooling: activations (Elu, Selu, Relu6,
// LeakyRelu, Softplus, Softsign and their *Grad ops), BiasAdd/BiasAddGrad, FusedBatchNormV3 and
// its gradient, LRN/LRNGrad and L2Loss. Shape functions carry TF's kernel error texts (eager) and
// its shape-function texts (graph building), so kernels only compute.
#include <string>

#include "graphfn/ir/op_def_text.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Activation gradients take (gradients, features-or-outputs) of one shape.
Status same_shape_pair(InferenceContext& c) {
  const Shape& g = c.input_shape(0);
  const Shape& f = c.input_shape(1);
  if (g.known_rank() && f.known_rank()) {
    if (!c.is_eager() && g.rank() != f.rank()) {
      return errors::InvalidArgument("Shapes must be equal rank, but are ", g.rank(), " and ", f.rank());
    }
    bool differ = g.rank() != f.rank();
    for (int i = 0; !differ && i < g.rank(); ++i) {
      if (g.dim(i) >= 0 && f.dim(i) >= 0 && g.dim(i) != f.dim(i)) {
        if (!c.is_eager()) return shape_fns::dims_must_be_equal(g.dim(i), f.dim(i));
        differ = true;
      }
    }
    if (differ) {
      const std::string& name = c.op().name;
      return errors::InvalidArgument("Inputs to operation ", name, " of type ", name,
                                     " must have the same size and shape.  Input 0: ", g, " != input 1: ", f);
    }
  }
  c.set_output(0, c.input_dtype(0), g.known_rank() ? g : f);
  return Status::OK();
}

// A string attr outside its allowed set: TF's text for attr validation.
Status check_string_attr(const InferenceContext& c, const char* name, std::initializer_list<const char*> allowed,
                         const char* fallback, std::string* value) {
  const std::string* v = c.attrs().get_string(name);
  *value = v ? *v : fallback;
  std::string list;
  for (const char* a : allowed) {
    if (*value == a) return Status::OK();
    list += std::string(list.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return errors::InvalidArgument("Value for attr '", name, "' of \"", *value, "\" is not in the list of allowed values: ",
                                 list, "\n\t; NodeDef: {{node ", c.op().name, "}}; ", summarize_op_def(c.op()));
}

// The channel axis of BiasAdd's value: the last, or 1 for NCHW inputs of rank > 2 (as TF).
int bias_channel_axis(const std::string& format, int rank) { return format == "NCHW" && rank > 2 ? 1 : rank - 1; }

Status bias_add_shape(InferenceContext& c) {
  std::string format;
  GRAPHFN_RETURN_IF_ERROR(check_string_attr(c, "data_format", {"NHWC", "NCHW"}, "NHWC", &format));
  const Shape& v = c.input_shape(0);
  const Shape& b = c.input_shape(1);
  if (v.known_rank() && v.rank() < 2) {
    if (c.is_eager()) return errors::InvalidArgument("Input tensor must be at least 2D: ", v);
    return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", v.rank());
  }
  if (b.known_rank() && b.rank() != 1) {
    if (c.is_eager()) return errors::InvalidArgument("Biases must be 1D: ", b);
    return errors::InvalidArgument("Shape must be rank 1 but is rank ", b.rank());
  }
  Shape out = v;
  if (v.known_rank() && b.known_rank()) {
    const int axis = bias_channel_axis(format, v.rank());
    const int64_t channels = v.dim(axis), n = b.dim(0);
    if (channels >= 0 && n >= 0 && channels != n) {
      if (c.is_eager()) {
        return errors::InvalidArgument("Must provide as many biases as the last dimension of the input tensor: ", b,
                                       " vs. ", v);
      }
      return shape_fns::dims_must_be_equal(channels, n);
    }
    if (channels < 0) out.set_dim(axis, n);
  }
  c.set_output(0, c.input_dtype(0), std::move(out));
  return Status::OK();
}

Status bias_add_grad_shape(InferenceContext& c) {
  std::string format;
  GRAPHFN_RETURN_IF_ERROR(check_string_attr(c, "data_format", {"NHWC", "NCHW"}, "NHWC", &format));
  const Shape& g = c.input_shape(0);
  if (!g.known_rank()) {
    c.set_output(0, c.input_dtype(0), Shape{Shape::kUnknownDim});
    return Status::OK();
  }
  if (g.rank() < 2) {
    if (c.is_eager()) return errors::InvalidArgument("Input tensor must be at least 2D: ", g);
    return errors::InvalidArgument("Shape must be at least rank 2 but is rank ", g.rank());
  }
  c.set_output(0, c.input_dtype(0), Shape{g.dim(bias_channel_axis(format, g.rank()))});
  return Status::OK();
}

// FusedBatchNorm's channel axis for its data_format (4-D NHWC/NCHW, 5-D NDHWC/NCDHW).
int batch_norm_channel_axis(const std::string& format, int rank) {
  return format == "NCHW" || format == "NCDHW" ? 1 : rank - 1;
}

Status check_channel_vector(const InferenceContext& c, int input, const char* what, int64_t channels,
                            const char* prefix = "") {
  const Shape& s = c.input_shape(input);
  if (!s.known_rank()) return Status::OK();
  if (s.rank() != 1) {
    if (c.is_eager()) return errors::InvalidArgument(what, " must be 1-dimensional", s);
    return errors::InvalidArgument("Shape must be rank 1 but is rank ", s.rank());
  }
  if (channels >= 0 && s.dim(0) >= 0 && s.dim(0) != channels) {
    if (c.is_eager()) {
      return errors::InvalidArgument(prefix, what, " must have the same number of elements as the channels of x, got ",
                                     s.dim(0), " and ", channels);
    }
    return shape_fns::dims_must_be_equal(channels, s.dim(0));
  }
  return Status::OK();
}

Status check_batch_norm_input(const InferenceContext& c, const Shape& x, const char* name) {
  if (x.known_rank() && x.rank() != 4 && x.rank() != 5) {
    if (c.is_eager()) return errors::InvalidArgument(name, " must be 4 or 5-dimensional", x);
    return errors::InvalidArgument("Shape must be rank 4 but is rank ", x.rank());
  }
  return Status::OK();
}

const std::initializer_list<const char*> kBatchNormFormats = {"NHWC", "NCHW", "NDHWC", "NCDHW"};

Status fused_batch_norm_shape(InferenceContext& c) {
  std::string format;
  GRAPHFN_RETURN_IF_ERROR(check_string_attr(c, "data_format", kBatchNormFormats, "NHWC", &format));
  const bool training = c.attrs().get_bool("is_training", true);
  const Shape& x = c.input_shape(0);
  GRAPHFN_RETURN_IF_ERROR(check_batch_norm_input(c, x, "input"));
  const int64_t channels = x.known_rank() ? x.dim(batch_norm_channel_axis(format, x.rank())) : Shape::kUnknownDim;
  GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 1, "scale", channels));
  GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 2, "offset", channels));
  // In training the running statistics may be empty (no moving average is kept).
  if (!training) {
    GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 3, "mean", channels, "When is_training=false, "));
    GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 4, "variance", channels, "When is_training=false, "));
  }
  int64_t n = channels;
  for (int i = 1; n < 0 && i <= 2; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() == 1) n = s.dim(0);
  }
  const DType u = c.input_dtype(1);
  // While tracing, an input of unknown rank is taken as 4-D (TF's shape function), and the
  // channel dimension comes from the per-channel inputs when x leaves it unknown.
  Shape y = x.known_rank() ? x : Shape{Shape::kUnknownDim, Shape::kUnknownDim, Shape::kUnknownDim, Shape::kUnknownDim};
  const int axis = batch_norm_channel_axis(format, y.rank());
  if (y.dim(axis) < 0) y.set_dim(axis, n);
  c.set_output(0, c.input_dtype(0), std::move(y));
  for (int i = 1; i <= 4; ++i) c.set_output(i, u, Shape{n});
  // TF's CPU kernel keeps nothing in reserve_space_3: a scalar, of unknown shape while tracing.
  c.set_output(5, u, c.is_eager() ? Shape{} : Shape::unknown_rank());
  return Status::OK();
}

Status fused_batch_norm_grad_shape(InferenceContext& c) {
  std::string format;
  GRAPHFN_RETURN_IF_ERROR(check_string_attr(c, "data_format", kBatchNormFormats, "NHWC", &format));
  const Shape& dy = c.input_shape(0);
  const Shape& x = c.input_shape(1);
  GRAPHFN_RETURN_IF_ERROR(check_batch_norm_input(c, dy, "y_backprop"));
  GRAPHFN_RETURN_IF_ERROR(check_batch_norm_input(c, x, "x"));
  if (dy.known_rank() && x.known_rank()) {
    bool same = dy.rank() == x.rank();
    for (int i = 0; same && i < x.rank(); ++i) same = dy.dim(i) < 0 || x.dim(i) < 0 || dy.dim(i) == x.dim(i);
    if (!same) {
      if (c.is_eager()) {
        return errors::InvalidArgument("x and y_backprop must have same shape, but x has shape ", x,
                                       " and y_backprop has shape ", dy);
      }
      return errors::InvalidArgument("Shapes must be equal rank, but are ", dy.rank(), " and ", x.rank());
    }
  }
  const Shape& known = x.known_rank() ? x : dy;
  const int64_t channels =
      known.known_rank() ? known.dim(batch_norm_channel_axis(format, known.rank())) : Shape::kUnknownDim;
  GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 2, "scale", channels));
  GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 3, "reserve_space_1", channels));
  GRAPHFN_RETURN_IF_ERROR(check_channel_vector(c, 4, "reserve_space_2", channels));
  const DType u = c.input_dtype(3);
  c.set_output(0, c.input_dtype(0), known.known_rank() ? known : Shape::unknown_rank());
  c.set_output(1, u, Shape{channels});
  c.set_output(2, u, Shape{channels});
  c.set_output(3, u, Shape{0});
  c.set_output(4, u, Shape{0});
  return Status::OK();
}

Status lrn_depth_radius(const InferenceContext& c) {
  const int64_t r = c.attrs().get_int("depth_radius", 5);
  if (r < 0 || r > 0x7fffffff) {
    return errors::InvalidArgument("depth_radius = ", r, " larger than int max");
  }
  return Status::OK();
}

Status lrn_shape(InferenceContext& c) {
  const Shape& x = c.input_shape(0);
  if (x.known_rank() && x.rank() != 4) {
    if (c.is_eager()) return errors::InvalidArgument("in must be 4-dimensional");
    return errors::InvalidArgument("Shape must be rank 4 but is rank ", x.rank());
  }
  GRAPHFN_RETURN_IF_ERROR(lrn_depth_radius(c));
  c.set_output(0, c.input_dtype(0), x.known_rank() ? x : Shape::unknown_rank());
  return Status::OK();
}

Status lrn_grad_shape(InferenceContext& c) {
  for (int i = 0; i < 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() != 4) {
      if (c.is_eager()) return errors::InvalidArgument("Input grads, input image, and out image should be 4-D");
      return errors::InvalidArgument("Shape must be rank 4 but is rank ", s.rank());
    }
  }
  const Shape& g = c.input_shape(0);
  for (int i = 1; i < 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (g.fully_defined() && s.fully_defined() && g != s) {
      if (c.is_eager()) return errors::InvalidArgument("input_grads, input_image, and out_image should have the same shape");
      return errors::InvalidArgument("Shapes must be equal rank, but are ", g.rank(), " and ", s.rank());
    }
  }
  GRAPHFN_RETURN_IF_ERROR(lrn_depth_radius(c));
  c.set_output(0, c.input_dtype(0), g.known_rank() ? g : Shape::unknown_rank());
  return Status::OK();
}

Status scalar_output(InferenceContext& c) {
  c.set_output(0, c.input_dtype(0), Shape{});
  return Status::OK();
}

}  // namespace

void register_nn_misc_ops(OpRegistry& reg) {
  const char* kFloats = "T: {half, bfloat16, float, double}";
  for (const char* name : {"Elu", "Selu", "Softplus", "Softsign"}) {
    reg.op(name).input("features: T").output("activations: T").attr(kFloats).shape_fn(shape_fns::unchanged, true);
  }
  reg.op("EluGrad").input("gradients: T").input("outputs: T").output("backprops: T").attr(kFloats)
      .shape_fn(same_shape_pair, true);
  reg.op("SeluGrad").input("gradients: T").input("outputs: T").output("backprops: T").attr(kFloats)
      .shape_fn(same_shape_pair, true);
  for (const char* name : {"SoftplusGrad", "SoftsignGrad"}) {
    reg.op(name).input("gradients: T").input("features: T").output("backprops: T").attr(kFloats)
        .shape_fn(same_shape_pair, true);
  }
  reg.op("Relu6").input("features: T").output("activations: T").attr("T: {realnumbertype}")
      .shape_fn(shape_fns::unchanged, true);
  reg.op("Relu6Grad").input("gradients: T").input("features: T").output("backprops: T").attr("T: {realnumbertype}")
      .shape_fn(same_shape_pair, true);
  reg.op("LeakyRelu").input("features: T").output("activations: T").attr("alpha: float = 0.2")
      .attr("T: {half, bfloat16, float, double} = DT_FLOAT").shape_fn(shape_fns::unchanged, true);
  reg.op("LeakyReluGrad").input("gradients: T").input("features: T").output("backprops: T")
      .attr("alpha: float = 0.2").attr("T: {half, bfloat16, float, double} = DT_FLOAT").shape_fn(same_shape_pair, true);

  reg.op("BiasAdd").input("value: T").input("bias: T").output("output: T").attr("T: {numbertype}")
      .attr("data_format: string = NHWC").shape_fn(bias_add_shape, true);
  reg.op("BiasAddGrad").input("out_backprop: T").output("output: T").attr("T: {numbertype}")
      .attr("data_format: string = NHWC").shape_fn(bias_add_grad_shape, true);

  reg.op("FusedBatchNormV3").input("x: T").input("scale: U").input("offset: U").input("mean: U")
      .input("variance: U").output("y: T").output("batch_mean: U").output("batch_variance: U")
      .output("reserve_space_1: U").output("reserve_space_2: U").output("reserve_space_3: U")
      .attr("T: {half, bfloat16, float}").attr("U: {bfloat16, float}").attr("epsilon: float = 0.0001")
      .attr("exponential_avg_factor: float = 1").attr("data_format: string = NHWC").attr("is_training: bool = true")
      .shape_fn(fused_batch_norm_shape, true);
  reg.op("FusedBatchNormGradV3").input("y_backprop: T").input("x: T").input("scale: float32")
      .input("reserve_space_1: U").input("reserve_space_2: U").input("reserve_space_3: U").output("x_backprop: T")
      .output("scale_backprop: U").output("offset_backprop: U").output("reserve_space_4: U")
      .output("reserve_space_5: U").attr("T: {half, bfloat16, float}").attr("U: {float}")
      .attr("epsilon: float = 0.0001").attr("data_format: string = NHWC").attr("is_training: bool = true")
      .shape_fn(fused_batch_norm_grad_shape, true);

  reg.op("LRN").input("input: T").output("output: T").attr("depth_radius: int = 5").attr("bias: float = 1")
      .attr("alpha: float = 1").attr("beta: float = 0.5").attr("T: {half, bfloat16, float} = DT_FLOAT")
      .shape_fn(lrn_shape, true);
  reg.op("LRNGrad").input("input_grads: T").input("input_image: T").input("output_image: T").output("output: T")
      .attr("depth_radius: int = 5").attr("bias: float = 1").attr("alpha: float = 1").attr("beta: float = 0.5")
      .attr("T: {half, bfloat16, float} = DT_FLOAT").shape_fn(lrn_grad_shape, true);

  reg.op("L2Loss").input("t: T").output("output: T").attr(kFloats).shape_fn(scalar_output, true);
}

}  // namespace graphfn
