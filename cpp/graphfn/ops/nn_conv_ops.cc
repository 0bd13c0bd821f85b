// Convolutions: Conv2D, Conv3D, DepthwiseConv2dNative and their backprop ops (TF's names, attrs
// and CPU kernels' checks and messages, in TF's order). Kernels: kernels/nn_conv.cc. The CPU
// kernels take channels-last data only (NHWC, NDHWC), as TF's do. Like TF 2.21's default x86
// build (whose oneDNN kernels replace the stock ones there), Conv2D's backprops take dilations
// and groups and Conv3D takes dilations; the stock kernels' "not supported" errors are gone.
#include <algorithm>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/nn_window.h"

namespace graphfn {
namespace {

Shape with_rank(const Shape& s, int rank) { return s.known_rank() ? s : unknown_dims(rank); }

// The common attr checks of Conv2D and its backprops (TF's InitConv2DParameters).
Status conv2d_attrs(const OpDef& op, const AttrMap& attrs, WindowGeometry* g, bool* nhwc) {
  std::vector<int64_t> strides, dilations;
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "dilations", &dilations));
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "strides", &strides));
  GRAPHFN_RETURN_IF_ERROR(read_padding(op, attrs, true, &g->padding));
  GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NHWC", "NCHW"}, nhwc));
  if (dilations.size() != 4) return errors::InvalidArgument("Sliding window dilations field must specify 4 dimensions");
  if (strides.size() != 4) return errors::InvalidArgument("Sliding window strides field must specify 4 dimensions");
  const int n = 0, h = *nhwc ? 1 : 2, w = *nhwc ? 2 : 3, ch = *nhwc ? 3 : 1;
  if (strides[n] != 1 || strides[ch] != 1) {
    return errors::Unimplemented("Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  if (strides[h] <= 0 || strides[w] <= 0) return errors::InvalidArgument("Row and column strides should be larger than 0.");
  if (dilations[n] != 1 || dilations[ch] != 1) {
    return errors::Unimplemented("Current implementation does not yet support dilations in the batch and depth dimensions.");
  }
  if (dilations[h] <= 0 || dilations[w] <= 0) return errors::InvalidArgument("Dilated rates should be larger than 0.");
  GRAPHFN_RETURN_IF_ERROR(read_explicit_paddings(attrs, g->padding, 4, g));
  g->spatial = 2;
  g->stride = {strides[h], strides[w], 1};
  g->dilation = {dilations[h], dilations[w], 1};
  return Status::OK();
}

// Conv3D's attr checks (TF's Conv3DOp constructor).
Status conv3d_attrs(const OpDef& op, const AttrMap& attrs, WindowGeometry* g) {
  bool ndhwc = true;
  std::vector<int64_t> strides, dilations;
  GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NDHWC", "NCDHW"}, &ndhwc));
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "strides", &strides));
  GRAPHFN_RETURN_IF_ERROR(read_padding(op, attrs, false, &g->padding));
  if (strides.size() != 5) return errors::InvalidArgument("Sliding window strides field must specify 5 dimensions");
  const int ch = ndhwc ? 4 : 1, s0 = ndhwc ? 1 : 2;
  if (strides[0] != 1 || strides[ch] != 1) {
    return errors::InvalidArgument("Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  if (strides[s0] <= 0 || strides[s0 + 1] <= 0 || strides[s0 + 2] <= 0) {
    return errors::InvalidArgument("Spatial strides should be larger than 0.");
  }
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "dilations", &dilations));
  if (dilations.size() != 5) return errors::InvalidArgument("Sliding window dilations field must specify 5 dimensions");
  if (dilations[0] != 1 || dilations[ch] != 1) {
    return errors::InvalidArgument("Current implementation does not yet support dilations in the batch and depth dimensions.");
  }
  if (dilations[s0] <= 0 || dilations[s0 + 1] <= 0 || dilations[s0 + 2] <= 0) {
    return errors::InvalidArgument("Dilated rates should be larger than 0.");
  }
  if (!ndhwc) return errors::InvalidArgument("CPU implementation of Conv3D currently only supports the NHWC tensor format.");
  // Dilations > 1: TF 2.21's default x86 build runs them (its oneDNN kernels), forward and backprops.
  g->spatial = 3;
  g->stride = {strides[1], strides[2], strides[3]};
  g->dilation = {dilations[1], dilations[2], dilations[3]};
  return Status::OK();
}

// DepthwiseConv2dNative's attr checks (TF's DepthwiseConv2dNativeOp constructor).
Status depthwise_attrs(const OpDef& op, const AttrMap& attrs, WindowGeometry* g, bool* nhwc) {
  std::vector<int64_t> strides, dilations;
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "strides", &strides));
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "dilations", &dilations));
  GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NHWC", "NCHW"}, nhwc));
  GRAPHFN_RETURN_IF_ERROR(read_padding(op, attrs, true, &g->padding));
  if (strides.size() != 4) return errors::InvalidArgument("Sliding window strides field must specify 4 dimensions");
  const int h = *nhwc ? 1 : 2, w = *nhwc ? 2 : 3, ch = *nhwc ? 3 : 1;
  if (strides[0] != 1 || strides[ch] != 1) {
    return errors::InvalidArgument("Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  if (strides[h] != strides[w]) {
    return errors::InvalidArgument("Current implementation only supports equal length strides in the row and column dimensions.");
  }
  GRAPHFN_RETURN_IF_ERROR(read_explicit_paddings(attrs, g->padding, 4, g));
  if (dilations.size() != 4 || dilations[0] != 1 || dilations[1] != 1 || dilations[2] != 1 || dilations[3] != 1) {
    std::string text;
    for (int64_t d : dilations) text += (text.empty() ? "" : " ") + std::to_string(d);
    return errors::Unimplemented("Current kernel implementation does not support dilations, received [", text, "]");
  }
  g->spatial = 2;
  g->stride = {strides[h], strides[w], 1};
  g->dilation = {1, 1, 1};
  return Status::OK();
}

// Reads [batch, spatial..., depth] of a channels-last or channels-first shape into g.
void read_input_dims(const Shape& s, bool channels_last, WindowGeometry* g) {
  const int rank = g->spatial + 2;
  g->batch = s.dim(0);
  g->in_depth = s.dim(channels_last ? rank - 1 : 1);
  for (int i = 0; i < g->spatial; ++i) g->in[i] = s.dim(i + (channels_last ? 1 : 2));
}

Status conv2d_geometry(const Shape& in, const Shape& filter, bool nhwc, WindowGeometry* g) {
  if (in.rank() != 4) return errors::InvalidArgument("convolution input must be 4-dimensional: ", in.to_string());
  if (filter.rank() != 4) return errors::InvalidArgument("convolution filter must be 4-dimensional: ", filter.to_string());
  read_input_dims(in, nhwc, g);
  const int64_t patch_depth = filter.dim(2);
  g->out_depth = filter.dim(3);
  g->window = {filter.dim(0), filter.dim(1), 1};
  if (patch_depth == 0) return errors::InvalidArgument("filter depth must be stricly positive, got ", patch_depth);
  if (patch_depth > 0 && g->in_depth >= 0) {
    if (g->in_depth % patch_depth != 0) {
      return errors::InvalidArgument("input depth must be evenly divisible by filter depth: ", g->in_depth, " vs ",
                                     patch_depth);
    }
    const int64_t groups = g->in_depth / patch_depth;
    if (g->out_depth >= 0 && (groups == 0 || g->out_depth % groups != 0)) {  // (0 output channels: TF gives an empty output)
      return errors::InvalidArgument("output depth must be evenly divisible by number of groups: ", g->out_depth,
                                     " vs ", groups);
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (g->window[i] < 0) g->window[i] = 1;  // unknown: the output dim comes out unknown below
  }
  Status s = windowed_output_sizes(g);
  for (int i = 0; i < 2; ++i) {
    if (filter.dim(i) < 0) g->out[i] = Shape::kUnknownDim;
  }
  return s;
}

Status conv2d_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(conv2d_attrs(c.op(), c.attrs(), &g, &nhwc));
  const Shape in = with_rank(c.input_shape(0), 4), filter = with_rank(c.input_shape(1), 4);
  GRAPHFN_RETURN_IF_ERROR(conv2d_geometry(in, filter, nhwc, &g));
  // TF returns an empty output before it looks at the filter: 0 output channels or images are fine.
  if (filter.num_elements() == 0 && filter.fully_defined() && g.out_depth != 0 && in.dim(0) != 0) {
    return errors::InvalidArgument("filter must not have zero elements (i.e. all dimensions must be non-zero)");
  }
  if (!nhwc) {
    return errors::Unimplemented(
        "The Conv2D op currently only supports the NHWC tensor format on the CPU. The op was given the format: NCHW");
  }
  c.set_output(0, c.input_dtype(0), window_output_shape(g, g.out_depth));
  return Status::OK();
}

// GraphfnFusedConv2D (passes/activation_fusion.h): Conv2D's output, and a bias of its channels.
Status fused_conv2d_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(conv2d_shape(c));
  const Shape& bias = c.input_shape(2);
  const Shape filter = with_rank(c.input_shape(1), 4);
  if (bias.known_rank() && bias.rank() != 1) {
    return errors::InvalidArgument("GraphfnFusedConv2D: the bias must be a vector, got shape " + bias.to_string());
  }
  if (bias.known_rank() && bias.dim(0) >= 0 && filter.dim(3) >= 0 && bias.dim(0) != filter.dim(3)) {
    return errors::InvalidArgument("GraphfnFusedConv2D: the bias must hold the filter's " +
                                   std::to_string(filter.dim(3)) + " output channels, got shape " + bias.to_string());
  }
  return Status::OK();
}

// The pooling window of GraphfnFusedConv2DMaxPool and GraphfnMaxPoolGradFromTaps: pool_ksize
// [1, kh, kw, 1], at most max_pool_taps::kMaxWindow (127) pixels.
Status read_pool_window(const InferenceContext& c, int64_t* kh, int64_t* kw) {
  const std::vector<int64_t>* k = c.attrs().get_int_list("pool_ksize");
  if (k == nullptr || k->size() != 4 || (*k)[0] != 1 || (*k)[3] != 1 || (*k)[1] < 1 || (*k)[2] < 1 ||
      (*k)[1] * (*k)[2] > 127) {
    return errors::InvalidArgument(c.op().name + ": pool_ksize must be [1, rows, columns, 1] with at most 127 "
                                   "window pixels");
  }
  *kh = (*k)[1];
  *kw = (*k)[2];
  return Status::OK();
}

// GraphfnFusedConv2DMaxPool: GraphfnFusedConv2D's output pooled over tiling windows, and the
// taps (uint8) of the same shape.
Status fused_conv2d_max_pool_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(fused_conv2d_shape(c));
  int64_t kh, kw;
  GRAPHFN_RETURN_IF_ERROR(read_pool_window(c, &kh, &kw));
  Shape pooled = c.output_shape(0);
  if (pooled.known_rank()) {
    if (pooled.dim(1) >= 0) pooled.set_dim(1, pooled.dim(1) / kh);
    if (pooled.dim(2) >= 0) pooled.set_dim(2, pooled.dim(2) / kw);
  }
  c.set_output(0, DType::kFloat32, pooled);
  c.set_output(1, DType::kUInt8, pooled);
  return Status::OK();
}

// GraphfnMaxPoolGradFromTaps: the gradient of an input of [batch, input_rows, input_columns,
// channels] from the taps and the gradient of the pooled values, both [batch, input_rows / kh,
// input_columns / kw, channels] (batch and channels from them: unknown while tracing a Keras step).
Status max_pool_grad_from_taps_shape(InferenceContext& c) {
  int64_t kh, kw;
  GRAPHFN_RETURN_IF_ERROR(read_pool_window(c, &kh, &kw));
  const int64_t rows = c.attrs().get_int("input_rows", -1), columns = c.attrs().get_int("input_columns", -1);
  if (rows < 0 || columns < 0) {
    return errors::InvalidArgument(c.op().name + ": input_rows and input_columns must be >= 0");
  }
  const Shape expected({-1, rows / kh, columns / kw, -1});
  Shape pooled = expected;
  for (int i = 0; i < 2; ++i) {
    const Shape& s = c.input_shape(i);
    bool compatible = !s.known_rank() || s.rank() == 4;
    for (int d = 0; compatible && s.known_rank() && d < 4; ++d) {
      compatible = s.dim(d) < 0 || pooled.dim(d) < 0 || s.dim(d) == pooled.dim(d);
    }
    for (int d = 0; compatible && s.known_rank() && d < 4; ++d) {
      if (s.dim(d) >= 0) pooled.set_dim(d, s.dim(d));
    }
    if (!compatible) {
      return errors::InvalidArgument(c.op().name + ": " + (i == 0 ? "taps" : "grad") + " must have shape " +
                                     pooled.to_string() + " (" + expected.to_string() + " from the attrs), got " +
                                     s.to_string());
    }
  }
  c.set_output(0, c.input_dtype(1), Shape({pooled.dim(0), rows, columns, pooled.dim(3)}));
  return Status::OK();
}

// The sizes input of a backprop op (input_sizes / filter_sizes): its value, or what tracing knows
// (`rank` unknown dims when not even its length is known).
Shape sizes_input(const InferenceContext& c, int i, int rank) {
  if (const Tensor* v = c.input_value(i)) {
    std::vector<int64_t> dims;
    if (int_values(*v, &dims).ok()) return Shape(dims);
  }
  const Shape* partial = c.input_shape_value(i);
  return partial && partial->known_rank() ? *partial : unknown_dims(rank);
}

// TF's check of a sizes input's values (unknown ones pass while tracing).
Status check_sizes_nonnegative(const Shape& sizes) {
  for (int64_t d : sizes.dims()) {
    if (d < Shape::kUnknownDim) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
  }
  return Status::OK();
}

Status check_sizes_rank(const Shape& sizes, const char* what, int rank) {
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != rank) {
    return errors::InvalidArgument(what, " requires input_sizes to contain ", rank, " values or 2 values, but got: ",
                                   sizes.rank());
  }
  return Status::OK();
}

// out_backprop must have the forward op's output shape.
Status check_out_backprop(const WindowGeometry& g, const Shape& out_backprop, const char* who) {
  if (!out_backprop.known_rank() || out_backprop.rank() != g.spatial + 2) {
    if (out_backprop.known_rank()) {
      return errors::InvalidArgument(who, ": out_backprop must be ", g.spatial + 2, "-dimensional");
    }
    return Status::OK();
  }
  const int64_t batch = out_backprop.dim(0);
  if (batch >= 0 && g.batch >= 0 && batch != g.batch) {
    return errors::InvalidArgument(who, ": input and out_backprop must have the same batch size. Input batch: ",
                                   g.batch, ", outbackprop batch: ", batch, ", batch_dim: 0");
  }
  for (int i = 0; i < g.spatial; ++i) {
    const int64_t actual = out_backprop.dim(i + 1);
    if (actual >= 0 && g.out[i] >= 0 && actual != g.out[i]) {
      return errors::InvalidArgument(who, ": Size of out_backprop doesn't match computed: actual = ", actual,
                                     ", computed = ", g.out[i], " spatial_dim: ", i + 1, " input: ", g.in[i],
                                     " filter: ", g.window[i], " output: ", actual, " stride: ", g.stride[i],
                                     " dilation: ", g.dilation[i]);
    }
  }
  const int64_t depth = out_backprop.dim(g.spatial + 1);
  if (depth >= 0 && g.out_depth >= 0 && depth != g.out_depth) {
    return errors::InvalidArgument(who, ": filter and out_backprop must have the same out_depth");
  }
  return Status::OK();
}

Status conv2d_backprop_input_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(conv2d_attrs(c.op(), c.attrs(), &g, &nhwc));
  const Shape filter = with_rank(c.input_shape(1), 4), out_backprop = with_rank(c.input_shape(2), 4);
  Shape sizes = sizes_input(c, 0, 4);
  if (sizes.known_rank() && sizes.rank() == 2) {  // spatial sizes only: batch and depth from the others
    sizes = nhwc ? Shape{out_backprop.dim(0), sizes.dim(0), sizes.dim(1), filter.dim(2)}
                 : Shape{out_backprop.dim(0), filter.dim(2), sizes.dim(0), sizes.dim(1)};
  }
  GRAPHFN_RETURN_IF_ERROR(check_sizes_rank(sizes, "Conv2DBackpropInput", 4));
  if (!nhwc) return errors::InvalidArgument("Conv2DCustomBackpropInputOp only supports NHWC.");
  if (filter.known_rank() && filter.rank() != 4) return errors::InvalidArgument("filter must be 4-dimensional");
  GRAPHFN_RETURN_IF_ERROR(conv2d_geometry(sizes, filter, nhwc, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "Conv2DCustomBackpropInput"));
  // While tracing, TF's shape function takes the batch from out_backprop, not input_sizes.
  if (!c.is_eager()) sizes = Shape{out_backprop.dim(0), sizes.dim(1), sizes.dim(2), sizes.dim(3)};
  c.set_output(0, c.input_dtype(1), sizes);
  return check_output_size(sizes, c.input_dtype(1));
}

Status conv2d_backprop_filter_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(conv2d_attrs(c.op(), c.attrs(), &g, &nhwc));
  const Shape in = with_rank(c.input_shape(0), 4), out_backprop = with_rank(c.input_shape(2), 4);
  Shape sizes = sizes_input(c, 1, 4);
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != 4) {
    return errors::InvalidArgument("Conv2DCustomBackpropFilter: filter_sizes input must be 1-dim, not ", sizes.rank());
  }
  if (!nhwc) return errors::InvalidArgument("Conv2DCustomBackpropFilterOp only supports NHWC.");
  GRAPHFN_RETURN_IF_ERROR(conv2d_geometry(in, sizes, nhwc, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "Conv2DCustomBackpropFilter"));
  c.set_output(0, c.input_dtype(0), sizes);
  return check_output_size(sizes, c.input_dtype(0));
}

Status conv3d_geometry(const Shape& in, const Shape& filter, WindowGeometry* g) {
  if (in.rank() != 5) return errors::InvalidArgument("input must be 5-dimensional");
  if (filter.rank() != 5) return errors::InvalidArgument("filter must be 5-dimensional");
  read_input_dims(in, true, g);
  g->out_depth = filter.dim(4);
  g->window = {filter.dim(0), filter.dim(1), filter.dim(2)};
  if (filter.fully_defined() && filter.num_elements() == 0) {
    return errors::InvalidArgument("filter must not have zero elements (i.e. all dimensions must be non-zero)");
  }
  const int64_t filter_depth = filter.dim(3);
  if (g->in_depth >= 0 && filter_depth > 0 && g->in_depth % filter_depth != 0) {
    return errors::InvalidArgument("Input depth must be evenly divisible by filter depth: ", g->in_depth, " vs ",
                                   filter_depth);
  }
  if (g->in_depth >= 0 && filter_depth >= 0 && g->in_depth != filter_depth) {
    return errors::InvalidArgument("Number of channels in filter (", filter_depth,
                                   ") must match last dimension of input (", g->in_depth, ")");
  }
  for (int i = 0; i < 3; ++i) {
    if (g->window[i] < 0) g->window[i] = 1;
  }
  Status s = windowed_output_sizes(g);
  for (int i = 0; i < 3; ++i) {
    if (filter.dim(i) < 0) g->out[i] = Shape::kUnknownDim;
  }
  return s;
}

Status conv3d_shape(InferenceContext& c) {
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv3d_attrs(c.op(), c.attrs(), &g));
  GRAPHFN_RETURN_IF_ERROR(conv3d_geometry(with_rank(c.input_shape(0), 5), with_rank(c.input_shape(1), 5), &g));
  c.set_output(0, c.input_dtype(0), window_output_shape(g, g.out_depth));
  return Status::OK();
}

Status conv3d_backprop_input_shape(InferenceContext& c) {
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv3d_attrs(c.op(), c.attrs(), &g));
  const Shape filter = with_rank(c.input_shape(1), 5), out_backprop = with_rank(c.input_shape(2), 5);
  Shape sizes = sizes_input(c, 0, 5);
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != 5) return errors::InvalidArgument("input_sizes must be 5-dimensional, got ", sizes.rank());
  GRAPHFN_RETURN_IF_ERROR(conv3d_geometry(sizes, filter, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "Conv3DBackpropInputOp"));
  c.set_output(0, c.input_dtype(1), sizes);
  return check_output_size(sizes, c.input_dtype(1));
}

Status conv3d_backprop_filter_shape(InferenceContext& c) {
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv3d_attrs(c.op(), c.attrs(), &g));
  const Shape in = with_rank(c.input_shape(0), 5), out_backprop = with_rank(c.input_shape(2), 5);
  Shape sizes = sizes_input(c, 1, 5);
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != 5) return errors::InvalidArgument("filter_sizes must be 5-dimensional, got ", sizes.rank());
  GRAPHFN_RETURN_IF_ERROR(conv3d_geometry(in, sizes, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "Conv3DBackpropFilterOp"));
  c.set_output(0, c.input_dtype(0), sizes);
  return check_output_size(sizes, c.input_dtype(0));
}

Status depthwise_geometry(const Shape& in, const Shape& filter, bool nhwc, WindowGeometry* g) {
  if (in.rank() != 4) return errors::InvalidArgument("input must be 4-dimensional", in.to_string());
  if (filter.rank() != 4) return errors::InvalidArgument("filter must be 4-dimensional: ", filter.to_string());
  read_input_dims(in, nhwc, g);
  if (g->in_depth >= 0 && filter.dim(2) >= 0 && g->in_depth != filter.dim(2)) {
    return errors::InvalidArgument("input and filter must have the same depth: ", g->in_depth, " vs ", filter.dim(2));
  }
  g->out_depth = g->in_depth >= 0 && filter.dim(3) >= 0 ? g->in_depth * filter.dim(3) : Shape::kUnknownDim;
  g->window = {filter.dim(0) < 0 ? 1 : filter.dim(0), filter.dim(1) < 0 ? 1 : filter.dim(1), 1};
  Status s = windowed_output_sizes(g);
  for (int i = 0; i < 2; ++i) {
    if (filter.dim(i) < 0) g->out[i] = Shape::kUnknownDim;
  }
  return s;
}

Status depthwise_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(depthwise_attrs(c.op(), c.attrs(), &g, &nhwc));
  GRAPHFN_RETURN_IF_ERROR(depthwise_geometry(with_rank(c.input_shape(0), 4), with_rank(c.input_shape(1), 4), nhwc, &g));
  if (!nhwc) return errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format");
  c.set_output(0, c.input_dtype(0), window_output_shape(g, g.out_depth));
  return Status::OK();
}

Status depthwise_backprop_input_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(depthwise_attrs(c.op(), c.attrs(), &g, &nhwc));
  const Shape filter = with_rank(c.input_shape(1), 4), out_backprop = with_rank(c.input_shape(2), 4);
  Shape sizes = sizes_input(c, 0, 4);
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != 4) {
    return errors::InvalidArgument("DepthwiseConv2DBackpropInput: input_sizes input must be 1-dim, not ", sizes.rank());
  }
  if (!nhwc) return errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format");
  GRAPHFN_RETURN_IF_ERROR(depthwise_geometry(sizes, filter, nhwc, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "DepthwiseConv2DBackpropInput"));
  c.set_output(0, c.input_dtype(1), sizes);
  return check_output_size(sizes, c.input_dtype(1));
}

Status depthwise_backprop_filter_shape(InferenceContext& c) {
  WindowGeometry g;
  bool nhwc = true;
  GRAPHFN_RETURN_IF_ERROR(depthwise_attrs(c.op(), c.attrs(), &g, &nhwc));
  const Shape in = with_rank(c.input_shape(0), 4), out_backprop = with_rank(c.input_shape(2), 4);
  Shape sizes = sizes_input(c, 1, 4);
  GRAPHFN_RETURN_IF_ERROR(check_sizes_nonnegative(sizes));
  if (sizes.rank() != 4) {
    return errors::InvalidArgument("DepthwiseConv2DBackpropFilter: filter_sizes input must be 1-dim, not ", sizes.rank());
  }
  if (!nhwc) return errors::Unimplemented("Depthwise convolution on CPU is only supported for NHWC format");
  GRAPHFN_RETURN_IF_ERROR(depthwise_geometry(in, sizes, nhwc, &g));
  GRAPHFN_RETURN_IF_ERROR(check_out_backprop(g, out_backprop, "DepthwiseConv2DBackpropFilter"));
  c.set_output(0, c.input_dtype(0), sizes);
  return check_output_size(sizes, c.input_dtype(0));
}

}  // namespace

Status conv_kernel_geometry(const OpDef& op, const AttrMap& attrs, const Shape& input, const Shape& filter,
                            WindowGeometry* g) {
  bool channels_last = true;
  if (op.name.rfind("Conv3D", 0) == 0) {
    GRAPHFN_RETURN_IF_ERROR(conv3d_attrs(op, attrs, g));
    return conv3d_geometry(input, filter, g);
  }
  if (op.name.rfind("Depthwise", 0) == 0) {
    GRAPHFN_RETURN_IF_ERROR(depthwise_attrs(op, attrs, g, &channels_last));
    return depthwise_geometry(input, filter, true, g);
  }
  GRAPHFN_RETURN_IF_ERROR(conv2d_attrs(op, attrs, g, &channels_last));
  return conv2d_geometry(input, filter, true, g);
}

void register_nn_conv_ops(OpRegistry& reg) {
  const char* conv2d_types = "T: {half, bfloat16, float, double, int32}";
  const char* float_types = "T: {half, bfloat16, float, double}";
  auto conv2d_attrs_of = [](OpDefBuilder b) {
    return b.attr("strides: list(int)").attr("use_cudnn_on_gpu: bool = true").attr("padding: string")
        .attr("explicit_paddings: list(int) = []").attr("data_format: string = NHWC")
        .attr("dilations: list(int) = [1, 1, 1, 1]");
  };
  conv2d_attrs_of(reg.op("Conv2D").input("input: T").input("filter: T").output("output: T").attr(conv2d_types))
      .shape_fn(conv2d_shape, true);
  // Conv2D + BiasAdd (+ Relu) in one node: made only by passes/activation_fusion.h in the graphs
  // plans run, never traced.
  conv2d_attrs_of(reg.op("GraphfnFusedConv2D").input("input: T").input("filter: T").input("bias: T")
                      .output("output: T").attr("T: {float}").attr("activation: string = ''"))
      .shape_fn(fused_conv2d_shape, true);
  conv2d_attrs_of(reg.op("GraphfnFusedConv2DMaxPool").input("input: T").input("filter: T").input("bias: T")
                      .output("output: T").output("taps: uint8").attr("T: {float}").attr("activation: string = ''")
                      .attr("pool_ksize: list(int)"))
      .shape_fn(fused_conv2d_max_pool_shape, true);
  reg.op("GraphfnMaxPoolGradFromTaps").input("taps: uint8").input("grad: T").output("output: T").attr("T: {float}")
      .attr("input_rows: int").attr("input_columns: int").attr("pool_ksize: list(int)")
      .attr("relu_grad: bool = false")
      .shape_fn(max_pool_grad_from_taps_shape, true);
  // The fusions are made in plans, after differentiation: no gradient is ever asked of them.
  for (const char* fused : {"GraphfnFusedConv2D", "GraphfnFusedConv2DMaxPool", "GraphfnMaxPoolGradFromTaps"}) {
    reg.set_not_differentiable(fused);
  }
  conv2d_attrs_of(reg.op("Conv2DBackpropInput").input("input_sizes: int32").input("filter: T")
                      .input("out_backprop: T").output("output: T").attr(conv2d_types))
      .needs_value("input_sizes").shape_input("input_sizes").shape_fn(conv2d_backprop_input_shape, true);
  conv2d_attrs_of(reg.op("Conv2DBackpropFilter").input("input: T").input("filter_sizes: int32")
                      .input("out_backprop: T").output("output: T").attr(float_types))
      .needs_value("filter_sizes").shape_input("filter_sizes").shape_fn(conv2d_backprop_filter_shape, true);

  auto conv3d_attrs_of = [](OpDefBuilder b) {
    return b.attr("strides: list(int) >= 5").attr("padding: string").attr("data_format: string = NDHWC")
        .attr("dilations: list(int) = [1, 1, 1, 1, 1]");
  };
  conv3d_attrs_of(reg.op("Conv3D").input("input: T").input("filter: T").output("output: T").attr(float_types))
      .shape_fn(conv3d_shape, true);
  conv3d_attrs_of(reg.op("Conv3DBackpropInputV2").input("input_sizes: Tshape").input("filter: T")
                      .input("out_backprop: T").output("output: T").attr(float_types))
      .attr("Tshape: {int32, int64} = DT_INT32").needs_value("input_sizes").shape_input("input_sizes")
      .shape_fn(conv3d_backprop_input_shape, true);
  conv3d_attrs_of(reg.op("Conv3DBackpropFilterV2").input("input: T").input("filter_sizes: int32")
                      .input("out_backprop: T").output("output: T").attr(float_types))
      .needs_value("filter_sizes").shape_input("filter_sizes").shape_fn(conv3d_backprop_filter_shape, true);

  auto depthwise_attrs_of = [](OpDefBuilder b) {
    return b.attr("strides: list(int)").attr("padding: string").attr("explicit_paddings: list(int) = []")
        .attr("data_format: string = NHWC").attr("dilations: list(int) = [1, 1, 1, 1]");
  };
  depthwise_attrs_of(reg.op("DepthwiseConv2dNative").input("input: T").input("filter: T").output("output: T")
                         .attr(float_types))
      .shape_fn(depthwise_shape, true);
  depthwise_attrs_of(reg.op("DepthwiseConv2dNativeBackpropInput").input("input_sizes: int32").input("filter: T")
                         .input("out_backprop: T").output("output: T").attr(float_types))
      .needs_value("input_sizes").shape_input("input_sizes").shape_fn(depthwise_backprop_input_shape, true);
  depthwise_attrs_of(reg.op("DepthwiseConv2dNativeBackpropFilter").input("input: T").input("filter_sizes: int32")
                         .input("out_backprop: T").output("output: T").attr(float_types))
      .needs_value("filter_sizes").shape_input("filter_sizes").shape_fn(depthwise_backprop_filter_shape, true);
}

}  // namespace graphfn
