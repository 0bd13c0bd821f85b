// ScaleAndTranslate (tf.image.resize with antialias, lanczos3/5, gaussian, mitchellcubic) and its
// gradient. Each output pixel is a normalized weighted sum over a span of input pixels, the
// weights a sampling kernel evaluated at the distance to the output's sampling point (widened by
// 1/scale when antialiasing a downscale). Width is resampled first, then height, as TF does.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

constexpr float kPi = 3.14159265358979323846f;

// A sampling kernel: its support radius and its value at distance x >= 0.
struct SamplingKernel {
  float radius;
  float (*value)(float x, float radius);
};

float lanczos(float x, float radius) {
  if (x > radius) return 0.0f;
  if (x <= 1e-3f) return 1.0f;  // sin(x) / x near 0
  const float pix = kPi * x;
  return radius * std::sin(pix) * std::sin(pix / radius) / (pix * pix);
}
float gaussian(float x, float radius) {
  const float sigma = radius / 3.0f;  // the radius is three sigmas
  if (x >= radius) return 0.0f;
  return static_cast<float>(std::exp(-x * x / (2.0 * sigma * sigma)));
}
float box(float x, float) { return x < 0.5f ? 1.0f : x == 0.5f ? 0.5f : 0.0f; }
float triangle(float x, float) { return x < 1.0f ? 1.0f - x : 0.0f; }
float keys_cubic(float x, float) {  // Keys' cubic with a = -0.5
  if (x >= 2.0f) return 0.0f;
  if (x >= 1.0f) return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
  return ((1.5f * x - 2.5f) * x) * x + 1.0f;
}
float mitchell_cubic(float x, float) {  // Mitchell-Netravali, B = C = 1/3
  if (x >= 2.0f) return 0.0f;
  if (x >= 1.0f) return (((-7.0f / 18.0f) * x + 2.0f) * x - 10.0f / 3.0f) * x + 16.0f / 9.0f;
  return (((7.0f / 6.0f) * x - 2.0f) * x) * x + 8.0f / 9.0f;
}

bool kernel_by_name(const std::string& name, SamplingKernel* k) {
  if (name == "lanczos1") *k = {1.0f, lanczos};
  else if (name == "lanczos3") *k = {3.0f, lanczos};
  else if (name == "lanczos5") *k = {5.0f, lanczos};
  else if (name == "gaussian") *k = {1.5f, gaussian};  // sigma 0.5
  else if (name == "box") *k = {1.0f, box};
  else if (name == "triangle") *k = {1.0f, triangle};
  else if (name == "keyscubic") *k = {2.0f, keys_cubic};
  else if (name == "mitchellcubic") *k = {2.0f, mitchell_cubic};
  else return false;
  return true;
}

// For each output index: the first input index of its span and span_size weights (zeros past the
// span's end, all zeros when the sampling point falls outside the input).
struct Spans {
  int64_t span_size = 0;
  std::vector<int64_t> starts;
  std::vector<float> weights;
};

Spans compute_spans(const SamplingKernel& kernel, int64_t out_size, int64_t in_size, float scale, float translate,
                    bool antialias) {
  const float inv_scale = 1.0f / scale;
  const float inv_translate = -inv_scale * translate;
  const float kernel_scale = antialias ? std::max(inv_scale, 1.0f) : 1.0f;
  const float reach = kernel.radius * kernel_scale;
  Spans s;
  s.span_size = static_cast<int64_t>(std::min<double>(2.0 * std::ceil(static_cast<double>(reach)) + 1.0,
                                                      static_cast<double>(in_size)));
  s.starts.assign(out_size, 0);
  s.weights.assign(out_size * s.span_size, 0.0f);
  std::vector<float> w;
  for (int64_t x = 0; x < out_size; ++x) {
    const float sample = (static_cast<float>(x) + 0.5f) * inv_scale + inv_translate;
    if (!(sample >= 0 && sample <= static_cast<float>(in_size))) continue;  // outside: an empty span
    const double lo = std::ceil(static_cast<double>(sample - reach - 0.5f));
    const double hi = std::floor(static_cast<double>(sample + reach - 0.5f));
    const int64_t start = static_cast<int64_t>(std::min<double>(std::max(lo, 0.0), static_cast<double>(in_size - 1)));
    const int64_t end = static_cast<int64_t>(std::min<double>(std::max(hi, 0.0), static_cast<double>(in_size - 1))) + 1;
    w.clear();
    float total = 0.0f;
    for (int64_t src = start; src < std::min(end, start + s.span_size); ++src) {
      const float pos = static_cast<float>(src) + 0.5f - sample;
      const float weight = kernel.value(std::abs(pos / kernel_scale), kernel.radius);
      total += weight;
      w.push_back(weight);
    }
    if (std::abs(total) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float inv_total = 1.0f / total;
      for (size_t k = 0; k < w.size(); ++k) s.weights[x * s.span_size + k] = w[k] * inv_total;
    }
    s.starts[x] = start;
  }
  return s;
}

struct Geometry {
  int64_t batch, in_h, in_w, out_h, out_w, channels;
};

Status read_spans(KernelContext& c, const Geometry& g, Spans* rows, Spans* cols) {
  SamplingKernel kernel;
  const std::string* attr = c.attrs.get_string("kernel_type");
  const std::string type = attr ? *attr : "lanczos3";
  if (!kernel_by_name(type, &kernel)) return errors::InvalidArgument("Unrecognized kernel type: ", type);
  const float* scale = c.input(2).data<float>();
  const float* translate = c.input(3).data<float>();
  if (!(scale[0] > 0 && scale[1] > 0)) return errors::InvalidArgument("Scale must be greater than zero.");
  const bool antialias = c.attrs.get_bool("antialias", true);
  *rows = compute_spans(kernel, g.out_h, g.in_h, scale[0], translate[0], antialias);
  *cols = compute_spans(kernel, g.out_w, g.in_w, scale[1], translate[1], antialias);
  return Status::OK();
}

template <typename T>
struct ScaleAndTranslateKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const Geometry g = {in.dim(0), in.dim(1), in.dim(2), c.output_shapes[0].dim(1), c.output_shapes[0].dim(2),
                        in.dim(3)};
    Spans rows, cols;
    GRAPHFN_RETURN_IF_ERROR(read_spans(c, g, &rows, &cols));
    Tensor& out = c.allocate_output(0);
    std::vector<float> mid(g.in_h * g.out_w * g.channels);
    const T* src = in.data<T>();
    float* dst = out.data<float>();
    for (int64_t b = 0; b < g.batch; ++b) {
      const T* image = src + b * g.in_h * g.in_w * g.channels;
      std::fill(mid.begin(), mid.end(), 0.0f);
      for (int64_t y = 0; y < g.in_h; ++y) {
        for (int64_t x = 0; x < g.out_w; ++x) {
          float* o = &mid[(y * g.out_w + x) * g.channels];
          const int64_t n = std::min(cols.starts[x] + cols.span_size, g.in_w) - cols.starts[x];
          const T* p = image + (y * g.in_w + cols.starts[x]) * g.channels;
          for (int64_t k = 0; k < n; ++k, p += g.channels) {
            const float w = cols.weights[x * cols.span_size + k];
            for (int64_t ch = 0; ch < g.channels; ++ch) o[ch] += w * static_cast<float>(p[ch]);
          }
        }
      }
      const int64_t row = g.out_w * g.channels;
      float* result = dst + b * g.out_h * row;
      std::fill(result, result + g.out_h * row, 0.0f);
      for (int64_t y = 0; y < g.out_h; ++y) {
        const int64_t n = std::min(rows.starts[y] + rows.span_size, g.in_h) - rows.starts[y];
        for (int64_t k = 0; k < n; ++k) {
          const float w = rows.weights[y * rows.span_size + k];
          const float* p = &mid[(rows.starts[y] + k) * row];
          for (int64_t i = 0; i < row; ++i) result[y * row + i] += w * p[i];
        }
      }
    }
    return Status::OK();
  }
};

// ScaleAndTranslateGrad(grads, original_image, scale, translation): the transpose of the forward
// map, scattering each output gradient back over the spans it was gathered from.
struct ScaleAndTranslateGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grads = c.input(0);
    const Tensor& image = c.input(1);
    const Geometry g = {grads.dim(0), image.dim(1), image.dim(2), grads.dim(1), grads.dim(2), grads.dim(3)};
    Spans rows, cols;
    GRAPHFN_RETURN_IF_ERROR(read_spans(c, g, &rows, &cols));
    Tensor& out = c.allocate_output(0);
    float* dst = out.data<float>();
    std::fill(dst, dst + out.num_elements(), 0.0f);
    const float* src = grads.data<float>();
    const int64_t row = g.out_w * g.channels;
    std::vector<float> mid(g.in_h * row);
    for (int64_t b = 0; b < g.batch; ++b) {
      const float* gb = src + b * g.out_h * row;
      std::fill(mid.begin(), mid.end(), 0.0f);
      for (int64_t y = 0; y < g.out_h; ++y) {
        const int64_t n = std::min(rows.starts[y] + rows.span_size, g.in_h) - rows.starts[y];
        for (int64_t k = 0; k < n; ++k) {
          const float w = rows.weights[y * rows.span_size + k];
          float* m = &mid[(rows.starts[y] + k) * row];
          for (int64_t i = 0; i < row; ++i) m[i] += w * gb[y * row + i];
        }
      }
      float* result = dst + b * g.in_h * g.in_w * g.channels;
      for (int64_t y = 0; y < g.in_h; ++y) {
        for (int64_t x = 0; x < g.out_w; ++x) {
          const float* m = &mid[(y * g.out_w + x) * g.channels];
          const int64_t n = std::min(cols.starts[x] + cols.span_size, g.in_w) - cols.starts[x];
          float* p = result + (y * g.in_w + cols.starts[x]) * g.channels;
          for (int64_t k = 0; k < n; ++k, p += g.channels) {
            const float w = cols.weights[x * cols.span_size + k];
            for (int64_t ch = 0; ch < g.channels; ++ch) p[ch] += w * m[ch];
          }
        }
      }
    }
    return Status::OK();
  }
};

using ImageTypes = TypeList<int8_t, uint8_t, int16_t, int32_t, int64_t, float, double>;

}  // namespace

void register_image_scale_translate_kernels(OpRegistry& reg) {
  register_kernels<ScaleAndTranslateKernel>(reg, "ScaleAndTranslate", ImageTypes{});
  reg.set_kernel("ScaleAndTranslateGrad", DType::kFloat32, &ScaleAndTranslateGradKernel::compute);
}

}  // namespace graphfn
