// Kernels of the colour ops (ops/image_ops.cc): RGB <-> HSV, and the contrast, saturation and
// hue adjustments, with TF's per-pixel formulas (so values agree with TF's to float rounding).
#include <algorithm>
#include <cmath>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// RGBToHSV: hue in [0, 1) (0 for greys), saturation range / max, value max.
template <typename T>
struct RgbToHsvKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const T* p = in.data<T>();
    T* q = out.data<T>();
    for (int64_t i = 0, n = in.num_elements() / 3; i < n; ++i, p += 3, q += 3) {
      const T r = p[0], g = p[1], b = p[2];
      const T v = std::max(r, std::max(g, b));
      const T range = v - std::min(r, std::min(g, b));
      const T s = v > T(0) ? range / v : T(0);
      const T norm = (T(1) / range) * (T(1) / T(6));
      T h = r == v ? norm * (g - b) : g == v ? norm * (b - r) + T(2) / T(6) : norm * (r - g) + T(4) / T(6);
      if (!(range > T(0))) h = T(0);
      if (h < T(0)) h += T(1);
      q[0] = h;
      q[1] = s;
      q[2] = v;
    }
    return Status::OK();
  }
};

// HSVToRGB: each channel is a clamped piecewise-linear function of the hue, scaled by s and v.
template <typename T>
struct HsvToRgbKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    Tensor& out = c.allocate_output(0);
    const T* p = in.data<T>();
    T* q = out.data<T>();
    auto clamp01 = [](T x) { return std::min(std::max(x, T(0)), T(1)); };
    for (int64_t i = 0, n = in.num_elements() / 3; i < n; ++i, p += 3, q += 3) {
      const T h6 = p[0] * T(6), s = p[1], v = p[2];
      const T dr = clamp01(std::abs(h6 - T(3)) - T(1));
      const T dg = clamp01(-std::abs(h6 - T(2)) + T(2));
      const T db = clamp01(-std::abs(h6 - T(4)) + T(2));
      const T one_minus_s = T(1) - s;
      q[0] = (one_minus_s + s * dr) * v;
      q[1] = (one_minus_s + s * dg) * v;
      q[2] = (one_minus_s + s * db) * v;
    }
    return Status::OK();
  }
};

// AdjustContrastv2: each channel of each image moves away from (factor > 1) or towards its mean
// over the image's pixels. Images are [..., height, width, channels].
template <typename T>
struct AdjustContrastKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const float factor = *c.input(1).data<float>();
    Tensor& out = c.allocate_output(0);
    const int rank = in.rank();
    const int64_t channels = in.dim(rank - 1);
    const int64_t pixels = in.dim(rank - 2) * in.dim(rank - 3);
    const int64_t images = pixels * channels == 0 ? 0 : in.num_elements() / (pixels * channels);
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    std::vector<double> mean(channels);
    for (int64_t b = 0; b < images; ++b) {
      const T* image = src + b * pixels * channels;
      T* result = dst + b * pixels * channels;
      std::fill(mean.begin(), mean.end(), 0.0);
      for (int64_t i = 0; i < pixels; ++i) {
        for (int64_t ch = 0; ch < channels; ++ch) mean[ch] += image[i * channels + ch];
      }
      for (double& m : mean) m /= static_cast<double>(pixels);
      for (int64_t i = 0; i < pixels; ++i) {
        for (int64_t ch = 0; ch < channels; ++ch) {
          const float m = static_cast<float>(mean[ch]);
          result[i * channels + ch] = static_cast<T>((image[i * channels + ch] - m) * factor + m);
        }
      }
    }
    return Status::OK();
  }
};

// The HSV helpers of TF's AdjustSaturation kernel (hue in [0, 1)).
void rgb_to_hsv(float r, float g, float b, float* h, float* s, float* v) {
  const float vv = std::max(r, std::max(g, b));
  const float range = vv - std::min(r, std::min(g, b));
  *s = vv > 0 ? range / vv : 0;
  const float norm = 1.0f / (6.0f * range);
  float hh = r == vv ? norm * (g - b) : g == vv ? norm * (b - r) + 2.0f / 6.0f : norm * (r - g) + 4.0f / 6.0f;
  if (!(range > 0.0f)) hh = 0;
  if (hh < 0.0f) hh += 1;
  *h = hh;
  *v = vv;
}

void hsv_to_rgb(float h, float s, float v, float* r, float* g, float* b) {
  const float chroma = s * v;
  const float m = v - chroma;
  const float dh = h * 6;
  const int sector = std::isfinite(dh) ? static_cast<int>(std::max(std::min(dh, 7.0f), -1.0f)) : -1;
  float mod2 = std::fmod(dh, 2.0f);
  if (mod2 <= 0) mod2 += 2.0f;
  if (mod2 >= 2.0f) mod2 -= 2.0f;
  const float x = chroma * (1 - std::abs(mod2 - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (sector) {
    case 0: rr = chroma; gg = x; break;
    case 1: rr = x; gg = chroma; break;
    case 2: gg = chroma; bb = x; break;
    case 3: gg = x; bb = chroma; break;
    case 4: rr = x; bb = chroma; break;
    case 5: rr = chroma; bb = x; break;
    default: break;
  }
  *r = rr + m;
  *g = gg + m;
  *b = bb + m;
}

template <typename T>
struct AdjustSaturationKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const float scale = *c.input(1).data<float>();
    Tensor& out = c.allocate_output(0);
    const T* p = in.data<T>();
    T* q = out.data<T>();
    for (int64_t i = 0, n = in.num_elements() / 3; i < n; ++i, p += 3, q += 3) {
      float h, s, v, r, g, b;
      rgb_to_hsv(p[0], p[1], p[2], &h, &s, &v);
      s = std::min(1.0f, std::max(0.0f, s * scale));
      hsv_to_rgb(h, s, v, &r, &g, &b);
      q[0] = r;
      q[1] = g;
      q[2] = b;
    }
    return Status::OK();
  }
};

// TF's AdjustHue works on a hue in [0, 6) split into the six sectors between primary and
// secondary colours, plus the largest and smallest channel.
void rgb_to_hue_range(float r, float g, float b, float* h, float* lo, float* hi) {
  float mid;
  int sector;
  if (r < g) {
    if (b < r) {
      *hi = g, mid = r, *lo = b, sector = 1;
    } else if (b > g) {
      *hi = b, mid = g, *lo = r, sector = 3;
    } else {
      *hi = g, mid = b, *lo = r, sector = 2;
    }
  } else {
    if (b < g) {
      *hi = r, mid = g, *lo = b, sector = 0;
    } else if (b > r) {
      *hi = b, mid = r, *lo = g, sector = 4;
    } else {
      *hi = r, mid = b, *lo = g, sector = 5;
    }
  }
  if (*hi == *lo) {
    *h = 0;
    return;
  }
  const float ratio = (mid - *lo) / (*hi - *lo);
  *h = static_cast<float>(sector) + (sector % 2 == 0 ? ratio : 1 - ratio);
}

void hue_range_to_rgb(float h, float lo, float hi, float* r, float* g, float* b) {
  const int sector = std::isfinite(h) ? static_cast<int>(std::max(std::min(h, 6.0f), 0.0f)) : 5;
  float ratio = h - static_cast<float>(sector);
  if (sector % 2 != 0) ratio = 1 - ratio;
  const float mid = lo + ratio * (hi - lo);
  switch (sector) {
    case 0: *r = hi, *g = mid, *b = lo; break;
    case 1: *r = mid, *g = hi, *b = lo; break;
    case 2: *r = lo, *g = hi, *b = mid; break;
    case 3: *r = lo, *g = mid, *b = hi; break;
    case 4: *r = mid, *g = lo, *b = hi; break;
    default: *r = hi, *g = lo, *b = mid; break;
  }
}

template <typename T>
struct AdjustHueKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    const float delta = *c.input(1).data<float>() * 6.0f;
    Tensor& out = c.allocate_output(0);
    const T* p = in.data<T>();
    T* q = out.data<T>();
    for (int64_t i = 0, n = in.num_elements() / 3; i < n; ++i, p += 3, q += 3) {
      float h, lo, hi, r, g, b;
      rgb_to_hue_range(p[0], p[1], p[2], &h, &lo, &hi);
      h += delta;
      // Back into [0, 6): usually one step; fmod only for far-off (or infinite) deltas.
      if (h < -6.0f || h >= 12.0f) h = std::fmod(h, 6.0f);
      if (h < 0) h += 6.0f;
      if (h >= 6.0f) h -= 6.0f;
      hue_range_to_rgb(h, lo, hi, &r, &g, &b);
      q[0] = r;
      q[1] = g;
      q[2] = b;
    }
    return Status::OK();
  }
};

}  // namespace

void register_image_color_kernels(OpRegistry& reg) {
  register_kernels<RgbToHsvKernel>(reg, "RGBToHSV", TypeList<float, double>{});
  register_kernels<HsvToRgbKernel>(reg, "HSVToRGB", TypeList<float, double>{});
  register_kernels<AdjustContrastKernel>(reg, "AdjustContrastv2", TypeList<float>{});
  register_kernels<AdjustSaturationKernel>(reg, "AdjustSaturation", TypeList<float>{});
  register_kernels<AdjustHueKernel>(reg, "AdjustHue", TypeList<float>{});
}

}  // namespace graphfn
