// Kernels of the resize family (ops/image_ops.cc): bilinear, nearest neighbour, bicubic and area
// resizing of NHWC images, and the gradients of the first three. Sampling positions follow TF's
// arithmetic in float (legacy corner alignment, align_corners, or TF 2's half-pixel centres), so
// results agree with TF's to float rounding. The file is compiled without FMA contraction
// (cpp/CMakeLists.txt): TF's kernels round each product, and fused lerps differ in the last bit.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include <Eigen/Core>  // float16/bfloat16 images

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// How many input pixels one output pixel steps over.
float resize_scale(int64_t in_size, int64_t out_size, bool align_corners) {
  return (align_corners && out_size > 1) ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
                                         : static_cast<float>(in_size) / static_cast<float>(out_size);
}

// The input coordinate an output index samples: half-pixel centres shift by half a pixel.
float source_coordinate(int64_t out_index, float scale, bool half_pixel_centers) {
  return half_pixel_centers ? (static_cast<float>(out_index) + 0.5f) * scale - 0.5f
                            : static_cast<float>(out_index) * scale;
}

struct Dims {
  int64_t batch, in_h, in_w, out_h, out_w, channels;
};

Dims dims_of(const Tensor& in, const Tensor& out) {
  return {in.dim(0), in.dim(1), in.dim(2), out.dim(1), out.dim(2), in.dim(3)};
}

// The forward pass's dims for a gradient kernel: its output is the forward input's gradient and
// `grads` the forward output's.
Dims grad_dims_of(const Tensor& grads, const Tensor& input_grad) {
  return {grads.dim(0), input_grad.dim(1), input_grad.dim(2), grads.dim(1), grads.dim(2), grads.dim(3)};
}

// The image a bilinear/bicubic gradient goes into: TF's check of its size, and the batch and
// channel counts the loops take from `grads` (TF reads past its buffers when they differ;
// graphfn refuses them).
Status check_grad_image(const Tensor& grads, const Tensor& image) {
  if (image.dim(1) <= 0 || image.dim(2) <= 0) return errors::InvalidArgument("original dimensions must be positive");
  if (grads.dim(0) != image.dim(0) || grads.dim(3) != image.dim(3)) {
    return errors::InvalidArgument("grads and original_image must have the same batch size and channel count, got ",
                                   grads.shape(), " and ", image.shape());
  }
  return Status::OK();
}

// ---- bilinear -------------------------------------------------------------------------------

struct LinearTap {
  int64_t lower, upper;
  float lerp;
};

std::vector<LinearTap> linear_taps(int64_t out_size, int64_t in_size, float scale, bool half_pixel_centers) {
  std::vector<LinearTap> taps(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    const float in = source_coordinate(i, scale, half_pixel_centers);
    const float in_floor = std::floor(in);
    taps[i].lower = std::max(static_cast<int64_t>(in_floor), int64_t{0});
    taps[i].upper = std::min(static_cast<int64_t>(std::ceil(in)), in_size - 1);
    taps[i].lerp = in - in_floor;
  }
  return taps;
}

template <typename T>
struct ResizeBilinearKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const Dims d = dims_of(in, out);
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = linear_taps(d.out_h, d.in_h, resize_scale(d.in_h, d.out_h, align), half);
    const auto xs = linear_taps(d.out_w, d.in_w, resize_scale(d.in_w, d.out_w, align), half);
    const T* src = in.data<T>();
    float* dst = out.data<float>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      const T* image = src + b * d.in_h * row;
      for (int64_t y = 0; y < d.out_h; ++y) {
        const T* top_row = image + ys[y].lower * row;
        const T* bottom_row = image + ys[y].upper * row;
        for (int64_t x = 0; x < d.out_w; ++x) {
          const int64_t l = xs[x].lower * d.channels, r = xs[x].upper * d.channels;
          for (int64_t ch = 0; ch < d.channels; ++ch) {
            const float tl = static_cast<float>(top_row[l + ch]), tr = static_cast<float>(top_row[r + ch]);
            const float bl = static_cast<float>(bottom_row[l + ch]), br = static_cast<float>(bottom_row[r + ch]);
            const float top = tl + (tr - tl) * xs[x].lerp;
            const float bottom = bl + (br - bl) * xs[x].lerp;
            *dst++ = top + (bottom - top) * ys[y].lerp;
          }
        }
      }
    }
    return Status::OK();
  }
};

// ResizeBilinearGrad(grads, original_image): each gradient goes back to the four pixels its
// output sampled, weighted as in the forward pass. float16/bfloat16 images accumulate in float
// and are rounded once at the end, as TF's kernel computes them.
template <typename T>
struct ResizeBilinearGradKernel {
  using A = std::conditional_t<std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>, float, T>;

  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    GRAPHFN_RETURN_IF_ERROR(check_grad_image(grads, c.input(1)));
    Tensor& out = c.allocate_output(0);
    const Dims d = grad_dims_of(grads, out);
    std::vector<A> wide;
    A* dst = nullptr;
    if constexpr (std::is_same_v<A, T>) {
      dst = out.data<T>();
    } else {
      wide.resize(static_cast<size_t>(out.num_elements()));
      dst = wide.data();
    }
    std::fill(dst, dst + out.num_elements(), A(0));
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = linear_taps(d.out_h, d.in_h, resize_scale(d.in_h, d.out_h, align), half);
    const auto xs = linear_taps(d.out_w, d.in_w, resize_scale(d.in_w, d.out_w, align), half);
    const float* g = grads.data<float>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      A* image = dst + b * d.in_h * row;
      for (int64_t y = 0; y < d.out_h; ++y) {
        A* top_row = image + ys[y].lower * row;
        A* bottom_row = image + ys[y].upper * row;
        const float dy = ys[y].lerp, inv_dy = 1.0f - dy;
        for (int64_t x = 0; x < d.out_w; ++x) {
          const int64_t l = xs[x].lower * d.channels, r = xs[x].upper * d.channels;
          const float dx = xs[x].lerp, inv_dx = 1.0f - dx;
          for (int64_t ch = 0; ch < d.channels; ++ch) {
            const float v = *g++;
            top_row[l + ch] += static_cast<A>(v * inv_dy * inv_dx);
            top_row[r + ch] += static_cast<A>(v * inv_dy * dx);
            bottom_row[l + ch] += static_cast<A>(v * dy * inv_dx);
            bottom_row[r + ch] += static_cast<A>(v * dy * dx);
          }
        }
      }
    }
    if constexpr (!std::is_same_v<A, T>) {
      T* narrow = out.data<T>();
      for (int64_t i = 0; i < out.num_elements(); ++i) narrow[i] = static_cast<T>(wide[i]);
    }
    return Status::OK();
  }
};

// ---- nearest neighbour ----------------------------------------------------------------------

std::vector<int64_t> nearest_taps(int64_t out_size, int64_t in_size, bool align, bool half) {
  const float scale = resize_scale(in_size, out_size, align);
  std::vector<int64_t> taps(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    // Nearest-neighbour sampling shifts by half a pixel but does not subtract it back.
    const float in = half ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
    int64_t index = std::min(static_cast<int64_t>(align ? std::round(in) : std::floor(in)), in_size - 1);
    if (half) index = std::max(index, int64_t{0});
    taps[i] = index;
  }
  return taps;
}

template <typename T>
struct ResizeNearestKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const Dims d = dims_of(in, out);
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = nearest_taps(d.out_h, d.in_h, align, half);
    const auto xs = nearest_taps(d.out_w, d.in_w, align, half);
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      for (int64_t y = 0; y < d.out_h; ++y) {
        const T* in_row = src + (b * d.in_h + ys[y]) * row;
        for (int64_t x = 0; x < d.out_w; ++x) {
          dst = std::copy(in_row + xs[x] * d.channels, in_row + (xs[x] + 1) * d.channels, dst);
        }
      }
    }
    return Status::OK();
  }
};

// ResizeNearestNeighborGrad(grads, size): sums each gradient into the pixel it was copied from.
template <typename T>
struct ResizeNearestGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    Tensor& out = c.allocate_output(0);
    const Dims d = grad_dims_of(grads, out);
    T* dst = out.data<T>();
    std::fill(dst, dst + out.num_elements(), T(0));
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = nearest_taps(d.out_h, d.in_h, align, half);
    const auto xs = nearest_taps(d.out_w, d.in_w, align, half);
    const T* g = grads.data<T>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      for (int64_t y = 0; y < d.out_h; ++y) {
        T* in_row = dst + (b * d.in_h + ys[y]) * row;
        for (int64_t x = 0; x < d.out_w; ++x) {
          T* pixel = in_row + xs[x] * d.channels;
          for (int64_t ch = 0; ch < d.channels; ++ch) pixel[ch] += *g++;
        }
      }
    }
    return Status::OK();
  }
};

// ---- bicubic ---------------------------------------------------------------------------------

// TF samples the cubic kernel from a table of 1024 steps per pixel, so weights are quantized to
// 1/1024 of a pixel; the table is rebuilt here the same way for the same values.
constexpr int kCubicTableSize = 1 << 10;

struct CubicTable {
  float coeffs[(kCubicTableSize + 1) * 2];
  explicit CubicTable(double a) {
    for (int i = 0; i <= kCubicTableSize; ++i) {
      float x = static_cast<float>(i * 1.0 / kCubicTableSize);
      coeffs[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
      x += 1.0f;
      coeffs[i * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
    }
  }
};

const float* cubic_table(bool keys) {
  static const CubicTable keys_table(-0.5);    // Keys' kernel: TF 2's half-pixel resizing
  static const CubicTable legacy_table(-0.75);  // TF 1's kernel
  return keys ? keys_table.coeffs : legacy_table.coeffs;
}

struct CubicTaps {
  int64_t index[4];
  float weight[4];
};

int64_t clamp_index(int64_t v, int64_t limit) { return std::min(limit - 1, std::max(int64_t{0}, v)); }

std::vector<CubicTaps> cubic_taps(int64_t out_size, int64_t in_size, bool align, bool half) {
  const float scale = resize_scale(in_size, out_size, align);
  const float* table = cubic_table(half);
  std::vector<CubicTaps> taps(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    CubicTaps& t = taps[i];
    const float in = source_coordinate(i, scale, half);
    const int64_t base = static_cast<int64_t>(std::floor(in));
    const int64_t offset = std::lrint((in - static_cast<float>(base)) * kCubicTableSize);
    const float w[4] = {table[offset * 2 + 1], table[offset * 2], table[(kCubicTableSize - offset) * 2],
                        table[(kCubicTableSize - offset) * 2 + 1]};
    float sum = 0.0f;
    for (int k = 0; k < 4; ++k) {
      t.index[k] = clamp_index(base - 1 + k, in_size);
      // Keys' kernel drops taps outside the image and renormalizes; the legacy one repeats edges.
      t.weight[k] = (!half || t.index[k] == base - 1 + k) ? w[k] : 0.0f;
      sum += t.weight[k];
    }
    if (half && std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inv = 1.0f / sum;
      for (float& wk : t.weight) wk *= inv;
    }
  }
  return taps;
}

template <typename T>
struct ResizeBicubicKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const Dims d = dims_of(in, out);
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = cubic_taps(d.out_h, d.in_h, align, half);
    const auto xs = cubic_taps(d.out_w, d.in_w, align, half);
    const T* src = in.data<T>();
    float* dst = out.data<float>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      const T* image = src + b * d.in_h * row;
      for (int64_t y = 0; y < d.out_h; ++y) {
        for (int64_t x = 0; x < d.out_w; ++x) {
          for (int64_t ch = 0; ch < d.channels; ++ch) {
            float rows[4];
            for (int k = 0; k < 4; ++k) {
              const T* r = image + ys[y].index[k] * row + ch;
              rows[k] = static_cast<float>(r[xs[x].index[0] * d.channels]) * xs[x].weight[0] +
                        static_cast<float>(r[xs[x].index[1] * d.channels]) * xs[x].weight[1] +
                        static_cast<float>(r[xs[x].index[2] * d.channels]) * xs[x].weight[2] +
                        static_cast<float>(r[xs[x].index[3] * d.channels]) * xs[x].weight[3];
            }
            *dst++ = rows[0] * ys[y].weight[0] + rows[1] * ys[y].weight[1] + rows[2] * ys[y].weight[2] +
                     rows[3] * ys[y].weight[3];
          }
        }
      }
    }
    return Status::OK();
  }
};

template <typename T>
struct ResizeBicubicGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    GRAPHFN_RETURN_IF_ERROR(check_grad_image(grads, c.input(1)));
    Tensor& out = c.allocate_output(0);
    const Dims d = grad_dims_of(grads, out);
    T* dst = out.data<T>();
    std::fill(dst, dst + out.num_elements(), T(0));
    const bool align = c.attrs.get_bool("align_corners", false);
    const bool half = c.attrs.get_bool("half_pixel_centers", false);
    const auto ys = cubic_taps(d.out_h, d.in_h, align, half);
    const auto xs = cubic_taps(d.out_w, d.in_w, align, half);
    const float* g = grads.data<float>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      T* image = dst + b * d.in_h * row;
      for (int64_t y = 0; y < d.out_h; ++y) {
        for (int64_t x = 0; x < d.out_w; ++x) {
          for (int64_t ch = 0; ch < d.channels; ++ch) {
            const float v = *g++;
            for (int i = 0; i < 4; ++i) {
              for (int j = 0; j < 4; ++j) {
                image[ys[y].index[i] * row + xs[x].index[j] * d.channels + ch] +=
                    static_cast<T>(v * ys[y].weight[i] * xs[x].weight[j]);
              }
            }
          }
        }
      }
    }
    return Status::OK();
  }
};

// ---- area ------------------------------------------------------------------------------------

// The input cells an output cell covers, with the covered fraction of each (in input pixels).
struct AreaSpan {
  std::vector<int64_t> index;
  std::vector<float> weight;
};

std::vector<AreaSpan> area_spans(int64_t out_size, int64_t in_size, float scale) {
  std::vector<AreaSpan> spans(out_size);
  for (int64_t i = 0; i < out_size; ++i) {
    const float start = static_cast<float>(i) * scale;
    const float end = static_cast<float>(i + 1) * scale;
    const int64_t first = static_cast<int64_t>(std::floor(start));
    const int64_t last = static_cast<int64_t>(std::ceil(end));
    for (int64_t v = first; v < last; ++v) {
      const float fv = static_cast<float>(v);
      float w;
      if (fv < start) {
        w = fv + 1 > end ? scale : fv + 1 - start;
      } else {
        w = fv + 1 > end ? end - fv : 1.0f;
      }
      spans[i].index.push_back(std::min(v, in_size - 1));
      spans[i].weight.push_back(w);
    }
  }
  return spans;
}

template <typename T>
struct ResizeAreaKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const Dims d = dims_of(in, out);
    const bool align = c.attrs.get_bool("align_corners", false);
    const float height_scale = resize_scale(d.in_h, d.out_h, align);
    const float width_scale = resize_scale(d.in_w, d.out_w, align);
    const auto ys = area_spans(d.out_h, d.in_h, height_scale);
    const auto xs = area_spans(d.out_w, d.in_w, width_scale);
    const float norm = 1.0f / (height_scale * width_scale);
    const T* src = in.data<T>();
    float* dst = out.data<float>();
    const int64_t row = d.in_w * d.channels;
    for (int64_t b = 0; b < d.batch; ++b) {
      const T* image = src + b * d.in_h * row;
      for (int64_t y = 0; y < d.out_h; ++y) {
        for (int64_t x = 0; x < d.out_w; ++x) {
          for (int64_t ch = 0; ch < d.channels; ++ch) {
            float sum_y = 0.0f;
            for (size_t i = 0; i < ys[y].index.size(); ++i) {
              const T* r = image + ys[y].index[i] * row + ch;
              float sum_x = 0.0f;
              for (size_t j = 0; j < xs[x].index.size(); ++j) {
                sum_x += static_cast<float>(r[xs[x].index[j] * d.channels]) * xs[x].weight[j];
              }
              sum_y += sum_x * ys[y].weight[i];
            }
            *dst++ = sum_y * norm;
          }
        }
      }
    }
    return Status::OK();
  }
};

using ImageTypes = TypeList<int8_t, uint8_t, int16_t, int32_t, int64_t, float, double>;

}  // namespace

void register_image_resize_kernels(OpRegistry& reg) {
  // Bilinear resizing (and its gradient, accumulated in T as TF's kernel does) also takes the
  // reduced-precision floats and uint16, as TF 2.21's CPU kernels do.
  register_kernels<ResizeBilinearKernel>(reg, "ResizeBilinear", Concat<ImageTypes, HalfTypes, TypeList<uint16_t>>{});
  register_kernels<ResizeNearestKernel>(reg, "ResizeNearestNeighbor", ImageTypes{});
  register_kernels<ResizeBicubicKernel>(reg, "ResizeBicubic", ImageTypes{});
  register_kernels<ResizeAreaKernel>(reg, "ResizeArea", ImageTypes{});
  register_kernels<ResizeBilinearGradKernel>(reg, "ResizeBilinearGrad", Concat<TypeList<float, double>, HalfTypes>{});
  register_kernels<ResizeBicubicGradKernel>(reg, "ResizeBicubicGrad", TypeList<float, double>{});
  register_kernels<ResizeNearestGradKernel>(reg, "ResizeNearestNeighborGrad", TypeList<uint8_t, int8_t, int32_t, float, double>{});
}

}  // namespace graphfn
