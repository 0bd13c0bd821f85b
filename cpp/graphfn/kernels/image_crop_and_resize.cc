// CropAndResize (tf.image.crop_and_resize) and its gradients: each box [y1, x1, y2, x2] (normalized
// coordinates, possibly flipped or outside [0, 1]) of image box_ind[b] is sampled on a crop_h x
// crop_w grid, bilinearly or at the nearest pixel; samples outside the image take
// extrapolation_value. The arithmetic is TF's, in float.
#include <algorithm>
#include <cmath>
#include <string>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// Where output row (or column) i of a crop of `crop` samples spans [lo, hi] of an image of `size`.
float sample_position(int64_t i, int64_t crop, float lo, float hi, int64_t size) {
  const float extent = static_cast<float>(size - 1);
  if (crop > 1) return lo * extent + static_cast<float>(i) * ((hi - lo) * extent / static_cast<float>(crop - 1));
  return 0.5f * (lo + hi) * extent;
}

bool inside(float v, int64_t size) { return v >= 0 && v <= static_cast<float>(size - 1); }

bool is_bilinear(const KernelContext& c) {
  const std::string* method = c.attrs.get_string("method");
  return !method || *method == "bilinear";
}

template <typename T>
struct CropAndResizeKernel {
  static Status compute(KernelContext& c) {
    const Tensor& image = c.input(0);
    const float* boxes = c.input(1).data<float>();
    const int32_t* box_ind = c.input(2).data<int32_t>();
    Tensor& out = c.allocate_output(0);
    const int64_t height = image.dim(1), width = image.dim(2), depth = image.dim(3);
    const int64_t crop_h = out.dim(1), crop_w = out.dim(2);
    const float extrapolation = static_cast<float>(c.attrs.get_float("extrapolation_value", 0.0));
    const bool bilinear = is_bilinear(c);
    float* dst = out.data<float>();
    for (int64_t b = 0; b < out.dim(0); ++b) {
      const float* box = boxes + b * 4;
      const T* img = image.data<T>() + box_ind[b] * height * width * depth;
      auto pixel = [&](int64_t y, int64_t x, int64_t d) { return static_cast<float>(img[(y * width + x) * depth + d]); };
      for (int64_t y = 0; y < crop_h; ++y) {
        const float in_y = sample_position(y, crop_h, box[0], box[2], height);
        for (int64_t x = 0; x < crop_w; ++x) {
          const float in_x = sample_position(x, crop_w, box[1], box[3], width);
          float* o = dst + ((b * crop_h + y) * crop_w + x) * depth;
          if (!inside(in_y, height) || !inside(in_x, width)) {
            std::fill(o, o + depth, extrapolation);
            continue;
          }
          if (!bilinear) {
            const int64_t ny = std::lround(in_y), nx = std::lround(in_x);
            for (int64_t d = 0; d < depth; ++d) o[d] = pixel(ny, nx, d);
            continue;
          }
          const int64_t top = static_cast<int64_t>(std::floor(in_y)), bottom = static_cast<int64_t>(std::ceil(in_y));
          const int64_t left = static_cast<int64_t>(std::floor(in_x)), right = static_cast<int64_t>(std::ceil(in_x));
          const float y_lerp = in_y - static_cast<float>(top), x_lerp = in_x - static_cast<float>(left);
          for (int64_t d = 0; d < depth; ++d) {
            const float t = pixel(top, left, d) + (pixel(top, right, d) - pixel(top, left, d)) * x_lerp;
            const float btm = pixel(bottom, left, d) + (pixel(bottom, right, d) - pixel(bottom, left, d)) * x_lerp;
            o[d] = t + (btm - t) * y_lerp;
          }
        }
      }
    }
    return Status::OK();
  }
};

// d crops / d image: each output gradient goes to the pixels its sample read.
template <typename T>
struct CropAndResizeGradImageKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    const float* boxes = c.input(1).data<float>();
    const int32_t* box_ind = c.input(2).data<int32_t>();
    Tensor& out = c.allocate_output(0);
    T* dst = out.data<T>();
    std::fill(dst, dst + out.num_elements(), T(0));
    const int64_t batch = out.dim(0), height = out.dim(1), width = out.dim(2), depth = out.dim(3);
    const int64_t crop_h = grads.dim(1), crop_w = grads.dim(2);
    const bool bilinear = is_bilinear(c);
    const float* g = grads.data<float>();
    for (int64_t b = 0; b < grads.dim(0); ++b) {
      if (box_ind[b] < 0 || box_ind[b] >= batch) return errors::OutOfRange("box_index has values outside [0, batch_size)");
      const float* box = boxes + b * 4;
      T* img = dst + box_ind[b] * height * width * depth;
      auto add = [&](int64_t y, int64_t x, int64_t d, float v) { img[(y * width + x) * depth + d] += static_cast<T>(v); };
      for (int64_t y = 0; y < crop_h; ++y) {
        const float in_y = sample_position(y, crop_h, box[0], box[2], height);
        for (int64_t x = 0; x < crop_w; ++x) {
          const float in_x = sample_position(x, crop_w, box[1], box[3], width);
          const float* gv = g + ((b * crop_h + y) * crop_w + x) * depth;
          if (!inside(in_y, height) || !inside(in_x, width)) continue;
          if (!bilinear) {
            const int64_t ny = std::lround(in_y), nx = std::lround(in_x);
            for (int64_t d = 0; d < depth; ++d) add(ny, nx, d, gv[d]);
            continue;
          }
          const int64_t top = static_cast<int64_t>(std::floor(in_y)), bottom = static_cast<int64_t>(std::ceil(in_y));
          const int64_t left = static_cast<int64_t>(std::floor(in_x)), right = static_cast<int64_t>(std::ceil(in_x));
          const float y_lerp = in_y - static_cast<float>(top), x_lerp = in_x - static_cast<float>(left);
          for (int64_t d = 0; d < depth; ++d) {
            const float dtop = (1 - y_lerp) * gv[d], dbottom = y_lerp * gv[d];
            add(top, left, d, dtop * (1 - x_lerp));
            add(top, right, d, dtop * x_lerp);
            add(bottom, left, d, dbottom * (1 - x_lerp));
            add(bottom, right, d, dbottom * x_lerp);
          }
        }
      }
    }
    return Status::OK();
  }
};

// d crops / d boxes (bilinear sampling): how each sample moves with the box's edges.
template <typename T>
struct CropAndResizeGradBoxesKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    const Tensor& image = c.input(1);
    const float* boxes = c.input(2).data<float>();
    const int32_t* box_ind = c.input(3).data<int32_t>();
    Tensor& out = c.allocate_output(0);
    float* dst = out.data<float>();
    std::fill(dst, dst + out.num_elements(), 0.0f);
    const int64_t batch = image.dim(0), height = image.dim(1), width = image.dim(2), depth = image.dim(3);
    const int64_t crop_h = grads.dim(1), crop_w = grads.dim(2);
    const float* g = grads.data<float>();
    for (int64_t b = 0; b < grads.dim(0); ++b) {
      if (box_ind[b] < 0 || box_ind[b] >= batch) return errors::OutOfRange("box_index has values outside [0, batch_size)");
      const float* box = boxes + b * 4;
      float* gb = dst + b * 4;
      const T* img = image.data<T>() + box_ind[b] * height * width * depth;
      auto pixel = [&](int64_t y, int64_t x, int64_t d) { return static_cast<float>(img[(y * width + x) * depth + d]); };
      const float h_ratio = crop_h > 1 ? static_cast<float>(height - 1) / static_cast<float>(crop_h - 1) : 0.0f;
      const float w_ratio = crop_w > 1 ? static_cast<float>(width - 1) / static_cast<float>(crop_w - 1) : 0.0f;
      for (int64_t y = 0; y < crop_h; ++y) {
        const float in_y = sample_position(y, crop_h, box[0], box[2], height);
        for (int64_t x = 0; x < crop_w; ++x) {
          const float in_x = sample_position(x, crop_w, box[1], box[3], width);
          if (!inside(in_y, height) || !inside(in_x, width)) continue;
          const int64_t top = static_cast<int64_t>(std::floor(in_y)), bottom = static_cast<int64_t>(std::ceil(in_y));
          const int64_t left = static_cast<int64_t>(std::floor(in_x)), right = static_cast<int64_t>(std::ceil(in_x));
          const float y_lerp = in_y - static_cast<float>(top), x_lerp = in_x - static_cast<float>(left);
          const float* gv = g + ((b * crop_h + y) * crop_w + x) * depth;
          for (int64_t d = 0; d < depth; ++d) {
            const float tl = pixel(top, left, d), tr = pixel(top, right, d);
            const float bl = pixel(bottom, left, d), br = pixel(bottom, right, d);
            // d sample / d in_y and d sample / d in_x, times the output gradient.
            const float dy = gv[d] * ((1 - x_lerp) * (bl - tl) + x_lerp * (br - tr));
            const float dx = gv[d] * ((1 - y_lerp) * (tr - tl) + y_lerp * (br - bl));
            if (crop_h > 1) {
              gb[0] += dy * (static_cast<float>(height - 1) - static_cast<float>(y) * h_ratio);
              gb[2] += dy * (static_cast<float>(y) * h_ratio);
            } else {
              gb[0] += dy * 0.5f * static_cast<float>(height - 1);
              gb[2] += dy * 0.5f * static_cast<float>(height - 1);
            }
            if (crop_w > 1) {
              gb[1] += dx * (static_cast<float>(width - 1) - static_cast<float>(x) * w_ratio);
              gb[3] += dx * (static_cast<float>(x) * w_ratio);
            } else {
              gb[1] += dx * 0.5f * static_cast<float>(width - 1);
              gb[3] += dx * 0.5f * static_cast<float>(width - 1);
            }
          }
        }
      }
    }
    return Status::OK();
  }
};

using ImageTypes = TypeList<int8_t, uint8_t, int16_t, int32_t, int64_t, float, double>;

}  // namespace

void register_image_crop_and_resize_kernels(OpRegistry& reg) {
  register_kernels<CropAndResizeKernel>(reg, "CropAndResize", ImageTypes{});
  register_kernels<CropAndResizeGradImageKernel>(reg, "CropAndResizeGradImage", TypeList<float, double>{});
  register_kernels<CropAndResizeGradBoxesKernel>(reg, "CropAndResizeGradBoxes", ImageTypes{});
}

}  // namespace graphfn
