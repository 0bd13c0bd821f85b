// Image codec ops (tf.io.decode_jpeg / png / bmp / gif / image, decode_and_crop_jpeg,
// encode_jpeg / png, extract_jpeg_shape), TF 2.21's signatures. The kernels are in kernels/image_codec_kernels.cc.
// The shape functions give TF's graph shapes (decode_png(channels=3): [?, ?, 3]) and TF's
// graph-building errors; eagerly, rank errors are left to the kernels, which word them as TF's do.
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

// While building a graph: TF's WithRank / WithRankAtLeast texts.
Status codec_graph_rank(const InferenceContext& c, int input, int rank, bool at_least = false) {
  const Shape& s = c.input_shape(input);
  if (c.is_eager() || !s.known_rank()) return Status::OK();
  if (at_least ? s.rank() >= rank : s.rank() == rank) return Status::OK();
  return errors::InvalidArgument("Shape must be ", at_least ? "at least " : "", "rank ", rank, " but is rank ",
                                 s.rank());
}

// The attr's value must be one of `allowed` (TF checks such string attrs when the op is made).
Status codec_string_choice(const InferenceContext& c, const char* attr, std::initializer_list<const char*> allowed,
                           const char* fallback) {
  const std::string* value = c.attrs().get_string(attr);
  const std::string v = value ? *value : fallback;
  std::string listed;
  for (const char* a : allowed) {
    if (v == a) return Status::OK();
    listed += std::string(listed.empty() ? "" : ", ") + "\"" + a + "\"";
  }
  return errors::InvalidArgument("Value for attr '", attr, "' of \"", v, "\" is not in the list of allowed values: ",
                                 listed);
}

// [?, ?, channels], channels unknown when 0.
Status codec_channels_dim(const InferenceContext& c, int64_t* dim) {
  const int64_t channels = c.attrs().get_int("channels", 0);
  if (channels < 0 && !c.is_eager()) return errors::InvalidArgument("channels must be non-negative, got ", channels);
  *dim = channels > 0 ? channels : Shape::kUnknownDim;
  return Status::OK();
}

Status decode_image_3d_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 0));
  int64_t channels;
  GRAPHFN_RETURN_IF_ERROR(codec_channels_dim(c, &channels));
  const DType dt = c.op().type_attr_names.empty() ? DType::kUInt8 : c.type_attr("dtype");
  c.set_output(0, dt, Shape{Shape::kUnknownDim, Shape::kUnknownDim, channels});
  return Status::OK();
}

// [crop_height, crop_width, channels] when the crop window is a constant.
Status decode_and_crop_jpeg_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 0));
  int64_t channels;
  GRAPHFN_RETURN_IF_ERROR(codec_channels_dim(c, &channels));
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 1, 1));
  const Shape& window = c.input_shape(1);
  if (!c.is_eager() && window.known_rank() && window.dim(0) != Shape::kUnknownDim && window.dim(0) != 4) {
    return errors::InvalidArgument("Dimension must be 4 but is ", window.dim(0));
  }
  int64_t height = Shape::kUnknownDim, width = Shape::kUnknownDim;
  const Tensor* value = c.input_value(1);
  if (!c.is_eager() && value && value->num_elements() == 4) {
    height = value->data<int32_t>()[2];
    width = value->data<int32_t>()[3];
  }
  c.set_output(0, DType::kUInt8, Shape{height, width, channels});
  return Status::OK();
}

Status decode_gif_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 0));
  c.set_output(0, DType::kUInt8, Shape{Shape::kUnknownDim, Shape::kUnknownDim, Shape::kUnknownDim, 3});
  return Status::OK();
}

// DecodeImage: any rank with expand_animations (an animated GIF is 4-D), else [?, ?, channels].
Status decode_any_image_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 0));
  int64_t channels;
  GRAPHFN_RETURN_IF_ERROR(codec_channels_dim(c, &channels));
  const DType dt = c.type_attr("dtype");
  if (c.attrs().get_bool("expand_animations", true)) {
    c.set_output(0, dt, Shape::unknown_rank());
  } else {
    c.set_output(0, dt, Shape{Shape::kUnknownDim, Shape::kUnknownDim, channels});
  }
  return Status::OK();
}

Status encode_jpeg_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_string_choice(c, "format", {"", "grayscale", "rgb"}, ""));
  GRAPHFN_RETURN_IF_ERROR(codec_string_choice(c, "density_unit", {"in", "cm"}, "in"));
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 3));
  c.set_output(0, DType::kString, Shape());
  return Status::OK();
}

Status encode_jpeg_variable_quality_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 3));
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 1, 0));
  c.set_output(0, DType::kString, Shape());
  return Status::OK();
}

// One PNG per image: the batch dimensions in front of [height, width, channels].
Status encode_png_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 3, /*at_least=*/true));
  const Shape& image = c.input_shape(0);
  Shape out = Shape::unknown_rank();
  if (image.known_rank() && image.rank() >= 3) {
    out = Shape();
    for (int i = 0; i + 3 < image.rank(); ++i) out.add_dim(image.dim(i));
  }
  c.set_output(0, DType::kString, out);
  return Status::OK();
}

Status extract_jpeg_shape_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(codec_graph_rank(c, 0, 0));
  c.set_output(0, c.type_attr("output_type"), Shape{3});
  return Status::OK();
}

}  // namespace

void register_image_codec_ops(OpRegistry& reg) {
  reg.op("DecodeJpeg").input("contents: string").output("image: uint8").attr("channels: int = 0")
      .attr("ratio: int = 1").attr("fancy_upscaling: bool = true").attr("try_recover_truncated: bool = false")
      .attr("acceptable_fraction: float = 1").attr("dct_method: string = ''")
      .shape_fn(decode_image_3d_shape, true);
  reg.op("DecodeAndCropJpeg").input("contents: string").input("crop_window: int32").output("image: uint8")
      .attr("channels: int = 0").attr("ratio: int = 1").attr("fancy_upscaling: bool = true")
      .attr("try_recover_truncated: bool = false").attr("acceptable_fraction: float = 1")
      .attr("dct_method: string = ''").shape_fn(decode_and_crop_jpeg_shape, true);
  reg.op("DecodePng").input("contents: string").output("image: dtype").attr("channels: int = 0")
      .attr("dtype: {uint8, uint16} = DT_UINT8").kernel_type_attr("dtype").shape_fn(decode_image_3d_shape, true);
  reg.op("DecodeBmp").input("contents: string").output("image: uint8").attr("channels: int = 0")
      .shape_fn(decode_image_3d_shape, true);
  reg.op("DecodeGif").input("contents: string").output("image: uint8").shape_fn(decode_gif_shape, true);
  reg.op("DecodeImage").input("contents: string").output("image: dtype").attr("channels: int = 0")
      .attr("dtype: {uint8, uint16, float} = DT_UINT8").attr("expand_animations: bool = true")
      .kernel_type_attr("dtype").shape_fn(decode_any_image_shape, true);
  reg.op("EncodeJpeg").input("image: uint8").output("contents: string").attr("format: string = ''")
      .attr("quality: int = 95").attr("progressive: bool = false").attr("optimize_size: bool = false")
      .attr("chroma_downsampling: bool = true").attr("density_unit: string = 'in'").attr("x_density: int = 300")
      .attr("y_density: int = 300").attr("xmp_metadata: string = ''").shape_fn(encode_jpeg_shape, true);
  reg.op("EncodeJpegVariableQuality").input("images: uint8").input("quality: int32").output("contents: string")
      .shape_fn(encode_jpeg_variable_quality_shape, true);
  reg.op("EncodePng").input("image: T").output("contents: string").attr("compression: int = -1")
      .attr("T: {uint8, uint16} = DT_UINT8").shape_fn(encode_png_shape, true);
  reg.op("ExtractJpegShape").input("contents: string").output("image_shape: output_type")
      .attr("output_type: {int32, int64} = DT_INT32").kernel_type_attr("output_type")
      .shape_fn(extract_jpeg_shape_shape, true);
}

}  // namespace graphfn
