// Gradients of the resize ops (ops/image_ops.cc), as TF's: the *Grad ops scatter each output
// gradient back to the pixels the forward pass sampled. `size` gets no gradient.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using grad::x;
using Grads = std::vector<GradValue>;

AttrMap sampling_attrs(const GradInputs& in) {
  return grad::attrs({{"align_corners", in.attr_bool("align_corners")},
                      {"half_pixel_centers", in.attr_bool("half_pixel_centers")}});
}

bool is_float_image(GradBuilder& b, const GradValue& v) {
  const DType dt = b.dtype(v);
  return dt == DType::kFloat32 || dt == DType::kFloat64;
}

// Integer images have no gradient (TF returns None for them).
Status resize_bilinear_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (is_float_image(b, x(in))) (*g)[0] = b.op("ResizeBilinearGrad", {dy(in), x(in)}, sampling_attrs(in));
  return b.status();
}

Status resize_bicubic_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (is_float_image(b, x(in))) (*g)[0] = b.op("ResizeBicubicGrad", {dy(in), x(in)}, sampling_attrs(in));
  return b.status();
}

// The original height and width are the images' shape[1:3].
Status resize_nearest_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue hw = b.op("Slice", {b.shape_of(x(in)), b.int_vector({1}), b.int_vector({2})});
  (*g)[0] = b.op("ResizeNearestNeighborGrad", {dy(in), hw}, sampling_attrs(in));
  return b.status();
}

// Only the images get a gradient (not size, scale or translation), as in TF.
Status scale_and_translate_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  if (b.dtype(x(in)) != DType::kFloat32) return b.status();
  const std::string* kernel = in.attrs ? in.attrs->get_string("kernel_type") : nullptr;
  (*g)[0] = b.op("ScaleAndTranslateGrad", {dy(in), x(in), in.inputs[2], in.inputs[3]},
                 grad::attrs({{"kernel_type", kernel ? *kernel : std::string("lanczos3")},
                              {"antialias", in.attr_bool("antialias")}}));
  return b.status();
}

// The image gets a gradient when it is float; the boxes always do; box_ind and crop_size never.
Status crop_and_resize_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const std::string* method = in.attrs ? in.attrs->get_string("method") : nullptr;
  if (is_float_image(b, x(in))) {
    (*g)[0] = b.op("CropAndResizeGradImage", {dy(in), in.inputs[1], in.inputs[2], b.shape_of(x(in))},
                   grad::attrs({{"T", b.dtype(x(in))}, {"method", method ? *method : std::string("bilinear")}}));
  }
  (*g)[1] = b.op("CropAndResizeGradBoxes", {dy(in), x(in), in.inputs[1], in.inputs[2]});
  return b.status();
}

}  // namespace

void register_image_gradients(OpRegistry& reg) {
  reg.set_gradient("ResizeBilinear", resize_bilinear_grad);
  reg.set_gradient("ResizeBicubic", resize_bicubic_grad);
  reg.set_gradient("ResizeNearestNeighbor", resize_nearest_grad);
  reg.set_gradient("ScaleAndTranslate", scale_and_translate_grad);
  reg.set_gradient("CropAndResize", crop_and_resize_grad);
  reg.set_not_differentiable("HSVToRGB");  // as TF declares them
  reg.set_not_differentiable("ResizeBilinearGrad");
}

}  // namespace graphfn
