// Image ops (tf.image): the resize family and its gradients, and the colour-space ops.
// Images are NHWC; resize ops take a 1-D int32 `size` of [new_height, new_width].
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/ops/shape_fns.h"

namespace graphfn {
namespace {

// Eagerly TF's kernels check ranks with their own words; graph building reports the shape
// function's "Shape must be rank" text.
Status check_rank(const InferenceContext& c, int input, int rank, const char* eager_message) {
  const Shape& s = c.input_shape(input);
  if (!s.known_rank() || s.rank() == rank) return Status::OK();
  if (c.is_eager()) return errors::InvalidArgument(eager_message, s.to_string());
  return errors::InvalidArgument("Shape must be rank ", rank, " but is rank ", s.rank());
}

// Reads `size` (input 1): its two values when known, else unknown dims. Checks TF's rules on
// its shape and, when known, that both values are positive.
Status read_resize_size(const InferenceContext& c, int64_t* height, int64_t* width,
                        const std::string& name = "shape_t") {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 1, 1, (name + " must be 1-dimensional").c_str()));
  const Shape& s = c.input_shape(1);
  if (s.known_rank() && s.dim(0) != Shape::kUnknownDim && s.dim(0) != 2) {
    if (c.is_eager()) return errors::InvalidArgument(name, " must have two elements", s.to_string());
    return errors::InvalidArgument("Dimension must be 2 but is ", s.dim(0));
  }
  *height = *width = Shape::kUnknownDim;
  if (const Tensor* v = c.input_value(1)) {
    std::vector<int64_t> hw;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &hw));
    if (hw[0] <= 0 || hw[1] <= 0) return errors::InvalidArgument("output dimensions must be positive");
    *height = hw[0];
    *width = hw[1];
  } else if (const Shape* partial = c.input_shape_value(1)) {
    if (partial->known_rank() && partial->rank() == 2) {
      *height = partial->dim(0);
      *width = partial->dim(1);
    }
  }
  return Status::OK();
}

// What every resize kernel checks before computing (TF's ImageResizerState::ValidateAndCreate).
Status check_resize_run(const InferenceContext& c, bool has_half_pixel_centers) {
  if (!c.is_eager()) return Status::OK();
  const Shape& images = c.input_shape(0);
  if (images.dim(1) == 0 || images.dim(2) == 0) {
    return errors::InvalidArgument("input image must be of non-zero size");
  }
  if (has_half_pixel_centers && c.attrs().get_bool("align_corners", false) &&
      c.attrs().get_bool("half_pixel_centers", false)) {
    return errors::InvalidArgument("If half_pixel_centers is True, align_corners must be False.");
  }
  const int64_t kMaxInt32 = 2147483647;
  if (images.dim(1) > kMaxInt32 || images.dim(2) > kMaxInt32) {
    return errors::InvalidArgument("input sizes must be between 0 and max int32");
  }
  return Status::OK();
}

Status resize_shape(InferenceContext& c, DType out_dtype, bool has_half_pixel_centers) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "input must be 4-dimensional"));
  int64_t height, width;
  GRAPHFN_RETURN_IF_ERROR(read_resize_size(c, &height, &width));
  GRAPHFN_RETURN_IF_ERROR(check_resize_run(c, has_half_pixel_centers));
  const Shape& images = c.input_shape(0);
  if (!images.known_rank()) return shape_fns::set_checked_output(c, out_dtype, Shape({Shape::kUnknownDim, height, width, Shape::kUnknownDim}));
  return shape_fns::set_checked_output(c, out_dtype, Shape({images.dim(0), height, width, images.dim(3)}));
}

Status resize_to_float_shape(InferenceContext& c) { return resize_shape(c, DType::kFloat32, true); }
Status resize_keep_dtype_shape(InferenceContext& c) { return resize_shape(c, c.input_dtype(0), true); }
Status resize_area_shape(InferenceContext& c) { return resize_shape(c, DType::kFloat32, false); }

// ResizeBilinearGrad / ResizeBicubicGrad(grads, original_image): the original image's shape.
Status resize_grad_from_image_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "input_grad must be 4-dimensional"));
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 1, 4, "input_image must be 4-dimensional"));
  const Shape& grads = c.input_shape(0);
  const Shape& image = c.input_shape(1);
  if (c.is_eager() && c.attrs().get_bool("align_corners", false) && c.attrs().get_bool("half_pixel_centers", false)) {
    return errors::InvalidArgument("If half_pixel_centers is True, align_corners must be False.");
  }
  // TF takes the batch and channels from the gradient, the spatial size from the image.
  if (grads.known_rank() && image.known_rank()) {
    c.set_output(0, c.input_dtype(1), Shape({grads.dim(0), image.dim(1), image.dim(2), grads.dim(3)}));
    return Status::OK();
  }
  c.set_output(0, c.input_dtype(1), image);
  return Status::OK();
}

// ResizeNearestNeighborGrad(grads, size): grads resized back to `size`.
Status resize_nearest_grad_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "input must be 4-dimensional"));
  int64_t height, width;
  GRAPHFN_RETURN_IF_ERROR(read_resize_size(c, &height, &width));
  if (c.is_eager() && c.attrs().get_bool("align_corners", false) && c.attrs().get_bool("half_pixel_centers", false)) {
    return errors::InvalidArgument("If half_pixel_centers is True, align_corners must be False.");
  }
  const Shape& grads = c.input_shape(0);
  if (!grads.known_rank()) return shape_fns::set_checked_output(c, c.input_dtype(0), Shape({Shape::kUnknownDim, height, width, Shape::kUnknownDim}));
  return shape_fns::set_checked_output(c, c.input_dtype(0), Shape({grads.dim(0), height, width, grads.dim(3)}));
}

// ScaleAndTranslate(images, size, scale, translation): scale and translation are pairs of floats.
Status scale_and_translate_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "input must be 4-dimensional"));
  int64_t height, width;
  GRAPHFN_RETURN_IF_ERROR(read_resize_size(c, &height, &width, "output_shape_t"));
  for (int i = 2; i <= 3; ++i) {
    const Shape& s = c.input_shape(i);
    if (s.known_rank() && s.rank() != 1) {
      if (c.is_eager()) return errors::InvalidArgument("t must be 1-dimensional", s.to_string());
      return errors::InvalidArgument("Shape must be rank 1 but is rank ", s.rank());
    }
    if (s.known_rank() && s.dim(0) != Shape::kUnknownDim && s.dim(0) != 2) {
      if (c.is_eager()) return errors::InvalidArgument("t must have two elements", s.to_string());
      return errors::InvalidArgument("Dimension must be 2 but is ", s.dim(0));
    }
  }
  GRAPHFN_RETURN_IF_ERROR(check_resize_run(c, false));
  const Shape& images = c.input_shape(0);
  if (!images.known_rank()) {
    return shape_fns::set_checked_output(c, DType::kFloat32, Shape({Shape::kUnknownDim, height, width, Shape::kUnknownDim}));
  }
  return shape_fns::set_checked_output(c, DType::kFloat32, Shape({images.dim(0), height, width, images.dim(3)}));
}

// ScaleAndTranslateGrad(grads, original_image, scale, translation): the original image's shape.
Status scale_and_translate_grad_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "grads must be 4-dimensional"));
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 1, 4, "original_image must be 4-dimensional"));
  const Shape& grads = c.input_shape(0);
  const Shape& image = c.input_shape(1);
  if (grads.known_rank() && image.known_rank()) {
    c.set_output(0, c.input_dtype(1), Shape({grads.dim(0), image.dim(1), image.dim(2), grads.dim(3)}));
  } else {
    c.set_output(0, c.input_dtype(1), image);
  }
  return Status::OK();
}

// CropAndResize(image, boxes [n, 4], box_ind [n], crop_size [2]) -> [n, crop_h, crop_w, depth].
Status crop_and_resize_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "input image must be 4-D"));
  const Shape& boxes = c.input_shape(1);
  const Shape& box_ind = c.input_shape(2);
  if (boxes.known_rank() && boxes.rank() != 2) {
    if (c.is_eager()) return errors::InvalidArgument("boxes must be 2-D, got: ", boxes.to_string());
    return errors::InvalidArgument("Shape must be rank 2 but is rank ", boxes.rank());
  }
  if (box_ind.known_rank() && box_ind.rank() != 1) {
    if (c.is_eager()) return errors::InvalidArgument("box_indices must be rank 1 but is shape ", box_ind.to_string());
    return errors::InvalidArgument("Shape must be rank 1 but is rank ", box_ind.rank());
  }
  int64_t height, width;
  {
    const Shape& s = c.input_shape(3);
    if (s.known_rank() && s.rank() != 1) {
      if (c.is_eager()) return errors::InvalidArgument("crop_size must be 1-D", s.to_string());
      return errors::InvalidArgument("Shape must be rank 1 but is rank ", s.rank());
    }
    if (s.known_rank() && s.dim(0) != Shape::kUnknownDim && s.dim(0) != 2) {
      if (c.is_eager()) return errors::InvalidArgument("crop_size must have two elements", s.to_string());
      return errors::InvalidArgument("Dimension must be 2 but is ", s.dim(0));
    }
    height = width = Shape::kUnknownDim;
    if (const Tensor* v = c.input_value(3)) {
      std::vector<int64_t> hw;
      GRAPHFN_RETURN_IF_ERROR(int_values(*v, &hw));
      if (hw[0] <= 0 || hw[1] <= 0) return errors::InvalidArgument("crop dimensions must be positive");
      height = hw[0];
      width = hw[1];
    }
  }
  const std::string* method = c.attrs().get_string("method");
  if (method && *method != "bilinear" && *method != "nearest") {
    return errors::InvalidArgument("Value for attr 'method' of \"", *method,
                                   "\" is not in the list of allowed values: \"bilinear\", \"nearest\"");
  }
  const Shape& image = c.input_shape(0);
  if (c.is_eager()) {
    if (image.dim(1) <= 0 || image.dim(2) <= 0) return errors::InvalidArgument("image dimensions must be positive");
    if (boxes.dim(1) != 4) return errors::InvalidArgument("boxes must have 4 columns");
    if (box_ind.dim(0) != boxes.dim(0)) return errors::InvalidArgument("box_index has incompatible shape");
    const int32_t* ind = c.input_value(2)->data<int32_t>();
    for (int64_t i = 0; i < box_ind.dim(0); ++i) {
      if (ind[i] < 0 || ind[i] >= image.dim(0)) {
        return errors::OutOfRange("box_index has values outside [0, batch_size)");
      }
    }
  }
  const int64_t n = boxes.known_rank() ? boxes.dim(0) : box_ind.known_rank() ? box_ind.dim(0) : Shape::kUnknownDim;
  const int64_t depth = image.known_rank() ? image.dim(3) : Shape::kUnknownDim;
  return shape_fns::set_checked_output(c, DType::kFloat32, Shape({n, height, width, depth}));
}

// CropAndResizeGradImage(grads, boxes, box_ind, image_size [4]) -> the image's shape, dtype T.
Status crop_and_resize_grad_image_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "grads image must be 4-D"));
  Shape out = Shape({Shape::kUnknownDim, Shape::kUnknownDim, Shape::kUnknownDim, Shape::kUnknownDim});
  if (const Tensor* v = c.input_value(3)) {
    std::vector<int64_t> dims;
    GRAPHFN_RETURN_IF_ERROR(int_values(*v, &dims));
    if (dims.size() != 4) return errors::InvalidArgument("image_size must have 4 elements", c.input_shape(3).to_string());
    for (int64_t d : dims) {
      if (d <= 0) return errors::InvalidArgument("image dimensions must be positive");
    }
    out = Shape(std::move(dims));
  } else if (const Shape* partial = c.input_shape_value(3)) {
    out = *partial;
  }
  return shape_fns::set_checked_output(c, c.type_attr("T"), out);
}

// CropAndResizeGradBoxes(grads, image, boxes, box_ind) -> [n, 4] float.
Status crop_and_resize_grad_boxes_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 0, 4, "grads image must be 4-D"));
  GRAPHFN_RETURN_IF_ERROR(check_rank(c, 1, 4, "input image must be 4-D"));
  c.set_output(0, DType::kFloat32, c.input_shape(2));
  return Status::OK();
}

// RGBToHSV, HSVToRGB: the last dimension holds 3 channels.
Status three_channel_shape(InferenceContext& c) {
  const Shape& s = c.input_shape(0);
  if (s.known_rank() && s.rank() < 1) {
    if (c.is_eager()) return errors::InvalidArgument("input must be at least 1D", s.to_string());
    return errors::InvalidArgument("Shape must be at least rank 1 but is rank 0");
  }
  if (s.known_rank() && s.dim(s.rank() - 1) != Shape::kUnknownDim && s.dim(s.rank() - 1) != 3) {
    if (c.is_eager()) return errors::FailedPrecondition("input must have 3 channels but input only has ", s.dim(s.rank() - 1), " channels.");
    return errors::InvalidArgument("Dimension must be 3 but is ", s.dim(s.rank() - 1));
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

// AdjustContrastv2 / AdjustSaturation / AdjustHue(images, scalar): images of rank >= 3.
Status adjust_shape(InferenceContext& c, const char* scalar_name, bool needs_three_channels) {
  const Shape& s = c.input_shape(0);
  const Shape& factor = c.input_shape(1);
  if (s.known_rank() && s.rank() < 3) {
    if (c.is_eager()) return errors::InvalidArgument("input must be at least 3-D, got shape", s.to_string());
    return errors::InvalidArgument("Shape must be at least rank 3 but is rank ", s.rank());
  }
  if (factor.known_rank() && factor.rank() != 0) {
    if (c.is_eager()) return errors::InvalidArgument(scalar_name, " must be scalar: ", factor.to_string());
    return errors::InvalidArgument("Shape must be rank 0 but is rank ", factor.rank());
  }
  if (needs_three_channels && c.is_eager() && s.dim(s.rank() - 1) != 3) {
    return errors::InvalidArgument("input must have 3 channels but instead has ", s.dim(s.rank() - 1), " channels.");
  }
  c.set_output(0, c.input_dtype(0), s);
  return Status::OK();
}

Status adjust_contrast_shape(InferenceContext& c) { return adjust_shape(c, "contrast_factor", false); }
Status adjust_saturation_shape(InferenceContext& c) { return adjust_shape(c, "scale", true); }
Status adjust_hue_shape(InferenceContext& c) { return adjust_shape(c, "delta", true); }

}  // namespace

void register_image_ops(OpRegistry& reg) {
  const char* kResizeTypes = "T: {int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16}";
  reg.op("ResizeBilinear").input("images: T").input("size: int32").output("resized_images: float32")
      .attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double, bfloat16}")
      .attr("align_corners: bool = false").attr("half_pixel_centers: bool = false")
      .shape_fn(resize_to_float_shape, true).shape_input("size");
  reg.op("ResizeNearestNeighbor").input("images: T").input("size: int32").output("resized_images: T")
      .attr(kResizeTypes).attr("align_corners: bool = false").attr("half_pixel_centers: bool = false")
      .shape_fn(resize_keep_dtype_shape, true).shape_input("size");
  reg.op("ResizeBicubic").input("images: T").input("size: int32").output("resized_images: float32")
      .attr(kResizeTypes).attr("align_corners: bool = false").attr("half_pixel_centers: bool = false")
      .shape_fn(resize_to_float_shape, true).shape_input("size");
  reg.op("ResizeArea").input("images: T").input("size: int32").output("resized_images: float32")
      .attr(kResizeTypes).attr("align_corners: bool = false").shape_fn(resize_area_shape, true).shape_input("size");
  reg.op("ResizeBilinearGrad").input("grads: float32").input("original_image: T").output("output: T")
      .attr("T: {float, bfloat16, half, double}").attr("align_corners: bool = false")
      .attr("half_pixel_centers: bool = false").shape_fn(resize_grad_from_image_shape, true);
  reg.op("ResizeBicubicGrad").input("grads: float32").input("original_image: T").output("output: T")
      .attr("T: {float, double}").attr("align_corners: bool = false")
      .attr("half_pixel_centers: bool = false").shape_fn(resize_grad_from_image_shape, true);
  reg.op("ResizeNearestNeighborGrad").input("grads: T").input("size: int32").output("output: T")
      .attr("T: {uint8, int8, int32, half, float, double, bfloat16}").attr("align_corners: bool = false")
      .attr("half_pixel_centers: bool = false").shape_fn(resize_nearest_grad_shape, true).shape_input("size");

  reg.op("ScaleAndTranslate").input("images: T").input("size: int32").input("scale: float32")
      .input("translation: float32").output("resized_images: float32")
      .attr("T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}")
      .attr("kernel_type: string = lanczos3").attr("antialias: bool = true")
      .shape_fn(scale_and_translate_shape, true).shape_input("size");
  reg.op("ScaleAndTranslateGrad").input("grads: T").input("original_image: T").input("scale: float32")
      .input("translation: float32").output("output: T").attr("T: {float}")
      .attr("kernel_type: string = lanczos3").attr("antialias: bool = true")
      .shape_fn(scale_and_translate_grad_shape, true);

  reg.op("CropAndResize").input("image: T").input("boxes: float32").input("box_ind: int32")
      .input("crop_size: int32").output("crops: float32")
      .attr("T: {uint8, uint16, int8, int16, int32, int64, half, bfloat16, float, double}")
      .attr("method: string = bilinear").attr("extrapolation_value: float = 0")
      .shape_fn(crop_and_resize_shape, true).shape_input("crop_size");
  reg.op("CropAndResizeGradImage").input("grads: float32").input("boxes: float32").input("box_ind: int32")
      .input("image_size: int32").output("output: T").attr("T: {float, bfloat16, half, double}")
      .attr("method: string = bilinear").shape_fn(crop_and_resize_grad_image_shape, true).shape_input("image_size");
  reg.op("CropAndResizeGradBoxes").input("grads: float32").input("image: T").input("boxes: float32")
      .input("box_ind: int32").output("output: float32")
      .attr("T: {uint8, uint16, int8, int16, int32, int64, half, float, double}")
      .attr("method: string = bilinear").shape_fn(crop_and_resize_grad_boxes_shape, true);

  reg.op("RGBToHSV").input("images: T").output("output: T").attr("T: {half, bfloat16, float, double} = DT_FLOAT")
      .shape_fn(three_channel_shape, true);
  reg.op("HSVToRGB").input("images: T").output("output: T").attr("T: {half, bfloat16, float, double} = DT_FLOAT")
      .shape_fn(three_channel_shape, true);
  reg.op("AdjustContrastv2").input("images: T").input("contrast_factor: float32").output("output: T")
      .attr("T: {half, float} = DT_FLOAT").shape_fn(adjust_contrast_shape, true);
  reg.op("AdjustSaturation").input("images: T").input("scale: float32").output("output: T")
      .attr("T: {half, float} = DT_FLOAT").shape_fn(adjust_saturation_shape, true);
  reg.op("AdjustHue").input("images: T").input("delta: float32").output("output: T")
      .attr("T: {half, float} = DT_FLOAT").shape_fn(adjust_hue_shape, true);
}

}  // namespace graphfn
