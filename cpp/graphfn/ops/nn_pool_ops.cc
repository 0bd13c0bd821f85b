// Pooling: MaxPool, AvgPool, MaxPool3D, AvgPool3D, their gradients (MaxPoolGrad, AvgPoolGrad,
// MaxPool3DGrad, AvgPool3DGrad) and MaxPoolGradGrad, with TF's attrs and its CPU kernels' checks
// and messages. Kernels: kernels/nn_pool.cc. Channels-last data only, as TF's CPU kernels.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/nn_window.h"

namespace graphfn {
namespace {

struct PoolKind {
  int spatial = 2;
  bool max = true;
  bool explicit_padding = false;  // MaxPool, MaxPoolGrad
};

PoolKind pool_kind(const OpDef& op) {
  PoolKind k;
  const std::string& n = op.name;
  k.spatial = n.find("3D") != std::string::npos ? 3 : 2;
  k.max = n.rfind("Max", 0) == 0;
  k.explicit_padding = n == "MaxPool" || n == "MaxPoolGrad";
  return k;
}

std::string joined(const std::vector<int64_t>& v) {
  std::string text;
  for (int64_t x : v) text += (text.empty() ? "" : ",") + std::to_string(x);
  return text;
}

// The attr checks of TF's pooling kernels' constructors and of PoolParameters that do not need
// the input; `depth_pool` is set for MaxPool's pooling across channels.
Status pool_attrs(const OpDef& op, const AttrMap& attrs, const PoolKind& k, WindowGeometry* g, int64_t* depth_window) {
  const int dims = k.spatial + 2;
  bool channels_last = true;
  std::vector<int64_t> ksize, strides;
  if (k.spatial == 3) {
    GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NDHWC", "NCDHW"}, &channels_last));
  } else if (op.name == "MaxPool") {
    GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NHWC", "NCHW", "NCHW_VECT_C"}, &channels_last));
  } else {
    GRAPHFN_RETURN_IF_ERROR(read_data_format(op, attrs, {"NHWC", "NCHW"}, &channels_last));
  }
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "ksize", &ksize));
  GRAPHFN_RETURN_IF_ERROR(read_int32_list(op, attrs, "strides", &strides));
  GRAPHFN_RETURN_IF_ERROR(read_padding(op, attrs, k.explicit_padding, &g->padding));
  if (!channels_last) {
    if (k.spatial == 3) return errors::InvalidArgument("Default Pooling3DOp only supports NDHWC on device type CPU");
    return errors::InvalidArgument("Default ", k.max ? "MaxPoolingOp" : "AvgPoolingOp",
                                   " only supports NHWC on device type CPU");
  }
  if (static_cast<int>(ksize.size()) != dims) {
    return errors::InvalidArgument("Sliding window ksize field must specify ", dims, " dimensions");
  }
  if (static_cast<int>(strides.size()) != dims) {
    return errors::InvalidArgument("Sliding window stride field must specify ", dims, " dimensions");
  }
  GRAPHFN_RETURN_IF_ERROR(read_explicit_paddings(attrs, g->padding, dims, g));
  if (ksize[0] != 1 || strides[0] != 1) return errors::Unimplemented("Pooling is not yet supported on the batch dimension.");
  if (k.spatial == 3 && (ksize[4] != 1 || strides[4] != 1)) {
    return errors::Unimplemented("Pooling is not yet supported on the depth dimension.");
  }
  for (int64_t w : ksize) {
    if (w > 0) continue;
    if (k.spatial == 3) return errors::InvalidArgument("Sliding window ksize field must have non-negative dimensions");
    if (!k.max) return errors::InvalidArgument("ksize must be a positive int32 value, got:", w);
    return errors::InvalidArgument("Sliding window ksize must be positive. The specified or inferred ksize is: ",
                                   joined(ksize));
  }
  g->spatial = k.spatial;
  for (int i = 0; i < k.spatial; ++i) {
    g->window[i] = ksize[i + 1];
    g->stride[i] = strides[i + 1];
    g->dilation[i] = 1;
  }
  *depth_window = k.spatial == 2 ? ksize[3] : 1;
  if (k.spatial == 2 && (ksize[3] != 1 || strides[3] != 1) && !k.max) {
    return errors::Unimplemented("Non-spatial pooling is not yet supported. Volunteers? :)");
  }
  if (*depth_window != 1) {
    if (ksize[1] != 1 || ksize[2] != 1) {
      return errors::Unimplemented("MaxPooling supports exactly one of pooling across depth or pooling across width/height.");
    }
    if (strides[3] != ksize[3]) {
      return errors::Unimplemented("Depthwise max pooling requires the depth window to equal the depth stride.");
    }
    for (int i = 0; i < 2; ++i) g->stride[i] = 1;  // as TF: the spatial strides are ignored
  }
  return Status::OK();
}

// The forward output's geometry for an input shape (PoolParameters).
Status pool_geometry(const Shape& in, const PoolKind& k, int64_t depth_window, WindowGeometry* g) {
  const int dims = k.spatial + 2;
  if (in.rank() != dims) {
    if (k.spatial == 3) return errors::InvalidArgument("tensor_in must be 5-dimensional");
    return errors::InvalidArgument("tensor_in_shape must have 2 spatial dimensions. ", in.rank(), " 0");
  }
  g->batch = in.dim(0);
  g->in_depth = in.dim(dims - 1);
  for (int i = 0; i < k.spatial; ++i) g->in[i] = in.dim(i + 1);
  g->out_depth = g->in_depth;
  if (depth_window != 1) {
    if (g->in_depth >= 0 && g->in_depth % depth_window != 0) {
      return errors::Unimplemented("Depthwise max pooling requires the depth window to evenly divide the input depth");
    }
    g->out_depth = g->in_depth < 0 ? Shape::kUnknownDim : g->in_depth / depth_window;
    for (int i = 0; i < 2; ++i) g->out[i] = g->in[i];
    return Status::OK();
  }
  if (g->padding == Padding::kExplicit) {
    const char* names[2][2] = {{"Top", "Bottom"}, {"Left", "Right"}};
    for (int i = 0; i < 2; ++i) {
      if (g->pad_before[i] >= g->window[i]) {
        return errors::InvalidArgument(names[i][0], " padding ", g->pad_before[i],
                                       " needs to be smaller than the window size ", g->window[i]);
      }
      if (g->pad_after[i] >= g->window[i]) {
        return errors::InvalidArgument(names[i][1], " padding ", g->pad_after[i],
                                       " needs to be smaller than the window size ", g->window[i]);
      }
    }
  }
  return windowed_output_sizes(g);
}

Shape rank_or_unknown(const Shape& s, int rank) { return s.known_rank() ? s : unknown_dims(rank); }

Status pool_shape(InferenceContext& c) {
  const PoolKind k = pool_kind(c.op());
  WindowGeometry g;
  int64_t depth_window = 1;
  GRAPHFN_RETURN_IF_ERROR(pool_attrs(c.op(), c.attrs(), k, &g, &depth_window));
  GRAPHFN_RETURN_IF_ERROR(pool_geometry(rank_or_unknown(c.input_shape(0), k.spatial + 2), k, depth_window, &g));
  c.set_output(0, c.input_dtype(0), window_output_shape(g, g.out_depth));
  return Status::OK();
}

Status expect_shape(const char* what, const Shape& expected, const Shape& got) {
  if (!got.known_rank()) return Status::OK();
  bool same = got.rank() == expected.rank();
  for (int i = 0; same && i < got.rank(); ++i) {
    same = got.dim(i) < 0 || expected.dim(i) < 0 || got.dim(i) == expected.dim(i);
  }
  if (same) return Status::OK();
  return errors::InvalidArgument("Expected ", what, " shape to be ", expected.to_string(), ", but got ", got.to_string());
}

Status check_rank(const char* what, const Shape& s, int rank) {
  if (s.known_rank() && s.rank() != rank) return errors::InvalidArgument(what, " must be ", rank, "-dimensional");
  return Status::OK();
}

// MaxPoolGrad, MaxPool3DGrad (orig_input, orig_output, grad) -> orig_input's shape;
// MaxPoolGradGrad (orig_input, orig_output, grad of orig_input's shape) -> orig_output's shape.
Status max_pool_grad_shape(InferenceContext& c) {
  const PoolKind k = pool_kind(c.op());
  const int rank = k.spatial + 2;
  WindowGeometry g;
  int64_t depth_window = 1;
  GRAPHFN_RETURN_IF_ERROR(pool_attrs(c.op(), c.attrs(), k, &g, &depth_window));
  const bool grad_grad = c.op().name == "MaxPoolGradGrad";
  GRAPHFN_RETURN_IF_ERROR(check_rank("tensor_in", c.input_shape(0), rank));
  GRAPHFN_RETURN_IF_ERROR(check_rank("tensor_out", c.input_shape(1), rank));
  GRAPHFN_RETURN_IF_ERROR(check_rank(grad_grad ? "out_grad_backprop" : "out_backprop", c.input_shape(2), rank));
  if (depth_window != 1) return errors::Unimplemented("Depthwise max pooling is not supported by ", c.op().name);
  const Shape in = rank_or_unknown(c.input_shape(0), rank);
  GRAPHFN_RETURN_IF_ERROR(pool_geometry(in, k, depth_window, &g));
  const Shape out = window_output_shape(g, g.out_depth);
  GRAPHFN_RETURN_IF_ERROR(expect_shape("orig_output", out, c.input_shape(1)));
  GRAPHFN_RETURN_IF_ERROR(expect_shape("grad", grad_grad ? in : out, c.input_shape(2)));
  c.set_output(0, c.input_dtype(2), grad_grad ? out : in);
  return Status::OK();
}

// AvgPoolGrad, AvgPool3DGrad (orig_input_shape, grad) -> orig_input_shape.
Status avg_pool_grad_shape(InferenceContext& c) {
  const PoolKind k = pool_kind(c.op());
  const int rank = k.spatial + 2;
  WindowGeometry g;
  int64_t depth_window = 1;
  GRAPHFN_RETURN_IF_ERROR(pool_attrs(c.op(), c.attrs(), k, &g, &depth_window));
  const Shape& sizes_shape = c.input_shape(0);
  if (sizes_shape.known_rank() && (sizes_shape.rank() != 1 || (sizes_shape.dim(0) >= 0 && sizes_shape.dim(0) != rank))) {
    return errors::InvalidArgument("orig_input_shape must be 1-dimensional and ", rank, " elements");
  }
  GRAPHFN_RETURN_IF_ERROR(check_rank("out_backprop", c.input_shape(1), rank));
  Shape in = unknown_dims(rank);
  if (const Tensor* v = c.input_value(0)) {
    std::vector<int64_t> dims;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &dims));
    for (int64_t d : dims) {
      if (d < 0) return errors::InvalidArgument("Dimension ", d, " must be >= 0");
    }
    in = Shape(dims);
  } else if (const Shape* partial = c.input_shape_value(0)) {
    if (partial->known_rank() && partial->rank() == rank) in = *partial;
  }
  GRAPHFN_RETURN_IF_ERROR(pool_geometry(in, k, depth_window, &g));
  GRAPHFN_RETURN_IF_ERROR(expect_shape("grad", window_output_shape(g, g.out_depth), c.input_shape(1)));
  c.set_output(0, c.input_dtype(1), in);
  return check_output_size(in, c.input_dtype(1));
}

}  // namespace

Status pool_kernel_geometry(const OpDef& op, const AttrMap& attrs, const Shape& input, WindowGeometry* g) {
  const PoolKind k = pool_kind(op);
  int64_t depth_window = 1;
  GRAPHFN_RETURN_IF_ERROR(pool_attrs(op, attrs, k, g, &depth_window));
  g->window[2] = k.spatial == 2 ? depth_window : g->window[2];  // 2-D: window[2] carries the depth window
  GRAPHFN_RETURN_IF_ERROR(pool_geometry(input, k, depth_window, g));
  return Status::OK();
}

void register_nn_pool_ops(OpRegistry& reg) {
  const char* max_types = "T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = DT_FLOAT";
  const char* grad_types =
      "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64} = DT_FLOAT";
  const char* float_types = "T: {half, bfloat16, float, double}";
  reg.op("MaxPool").input("input: T").output("output: T").attr(max_types).attr("ksize: list(int) >= 4")
      .attr("strides: list(int) >= 4").attr("padding: string").attr("explicit_paddings: list(int) = []")
      .attr("data_format: string = NHWC").shape_fn(pool_shape, true);
  reg.op("MaxPoolGrad").input("orig_input: T").input("orig_output: T").input("grad: T").output("output: T")
      .attr("ksize: list(int) >= 4").attr("strides: list(int) >= 4").attr("padding: string")
      .attr("explicit_paddings: list(int) = []").attr("data_format: string = NHWC").attr(grad_types)
      .shape_fn(max_pool_grad_shape, true);
  reg.op("MaxPoolGradGrad").input("orig_input: T").input("orig_output: T").input("grad: T").output("output: T")
      .attr("ksize: list(int) >= 4").attr("strides: list(int) >= 4").attr("padding: string")
      .attr("data_format: string = NHWC")
      .attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64}")
      .shape_fn(max_pool_grad_shape, true);
  reg.op("AvgPool").input("value: T").output("output: T").attr("ksize: list(int) >= 4")
      .attr("strides: list(int) >= 4").attr("padding: string").attr("data_format: string = NHWC").attr(float_types)
      .shape_fn(pool_shape, true);
  reg.op("AvgPoolGrad").input("orig_input_shape: int32").input("grad: T").output("output: T")
      .attr("ksize: list(int) >= 4").attr("strides: list(int) >= 4").attr("padding: string")
      .attr("data_format: string = NHWC").attr(float_types).needs_value("orig_input_shape")
      .shape_input("orig_input_shape").shape_fn(avg_pool_grad_shape, true);

  auto pool3d = [](OpDefBuilder b) {
    return b.attr("ksize: list(int) >= 5").attr("strides: list(int) >= 5").attr("padding: string")
        .attr("data_format: string = NDHWC");
  };
  pool3d(reg.op("MaxPool3D").input("input: T").output("output: T")).attr("T: {half, bfloat16, float}")
      .shape_fn(pool_shape, true);
  pool3d(reg.op("AvgPool3D").input("input: T").output("output: T")).attr(float_types).shape_fn(pool_shape, true);
  pool3d(reg.op("MaxPool3DGrad").input("orig_input: TInput").input("orig_output: TInput").input("grad: T")
             .output("output: T"))
      .attr("T: {half, bfloat16, float} = DT_FLOAT").attr("TInput: {half, bfloat16, float} = DT_FLOAT")
      .shape_fn(max_pool_grad_shape, true);
  pool3d(reg.op("AvgPool3DGrad").input("orig_input_shape: int32").input("grad: T").output("output: T"))
      .attr(float_types).needs_value("orig_input_shape").shape_input("orig_input_shape")
      .shape_fn(avg_pool_grad_shape, true);
}

}  // namespace graphfn
