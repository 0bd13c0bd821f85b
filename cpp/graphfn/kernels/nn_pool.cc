// Kernels of ops/nn_pool_ops.cc: 2-D and 3-D max and average pooling over channels-last data,
// one output pixel at a time with the channels as the inner (vectorised) loop, rows split
// across the shared pool. Gradients scatter into the input's gradient image by image, so
// threads never share a pixel. As TF's CPU kernels:
//  - max pooling starts from the type's lowest value (so -inf inputs give -FLT_MAX);
//  - MaxPoolGrad and MaxPoolGradGrad route through the first maximum in window order (a
//    strictly greater value replaces it; MaxPoolGrad starts from the window's first pixel, so
//    a window of -inf or NaN routes there, MaxPoolGradGrad from the lowest value); MaxPool3DGrad gives every tied maximum the gradient;
//  - average pooling divides by the number of window positions inside the input.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <limits>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/activation_fusion_attrs.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/max_pool_taps.h"
#include "graphfn/kernels/parallel_loops.h"
#include "graphfn/kernels/relu_grad.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace {

// Rows of output pixels handed to one shard at least (a row is one pixel's channels).
constexpr int64_t kPoolRowsPerShard = 64;

WindowLoops pool_loops(const KernelContext& c, const Shape& input, Status* status) {
  WindowGeometry g;
  *status = pool_kernel_geometry(c.op, c.attrs, input, &g);
  const int64_t depth_window = g.spatial == 2 ? g.window[2] : 1;
  WindowLoops L(g, g.in_depth);
  L.group_out = depth_window;  // MaxPool across channels: channels per output channel
  return L;
}

// MaxPool with ksize over the channels: out[..., k] = max(in[..., k * w .. k * w + w)).
template <typename T>
void max_pool_depth(const T* in, T* out, int64_t pixels, int64_t out_depth, int64_t w) {
  parallel_for(pixels, kPoolRowsPerShard, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      for (int64_t k = 0; k < out_depth; ++k) {
        const T* x = in + (p * out_depth + k) * w;
        T best = std::numeric_limits<T>::lowest();
        for (int64_t j = 0; j < w; ++j) best = best < x[j] ? x[j] : best;
        out[p * out_depth + k] = best;
      }
    }
  });
}

// Windows that tile the input without overlap and lie inside it (strides equal to the window,
// no padding before, out * window <= in, e.g. 2x2 stride 2 VALID): every input pixel is in at
// most one window.
bool windows_tile(const WindowLoops& L) {
  for (int i = 0; i < 3; ++i) {
    if (L.stride[i] != L.window[i] || L.pad[i] != 0 || L.out[i] * L.window[i] > L.in[i]) return false;
  }
  return L.window_size <= (int64_t{1} << 20);
}

// Calls fn(output row m, window pixels, count) for the output rows of images [i0, i1) when the
// windows tile the input: the window's input pixels are listed from running coordinates, with
// no division per row (a generic walk divided three times per row, which cost more than the
// work on 32 channels).
template <typename Fn>
void for_tiled_windows(const WindowLoops& L, int64_t i0, int64_t i1, int64_t* pixels, Fn&& fn) {
  int64_t m = i0 * L.out_pixels;
  for (int64_t image = i0; image < i1; ++image) {
    const int64_t base = image * L.in_pixels;
    for (int64_t o0 = 0; o0 < L.out[0]; ++o0) {
      for (int64_t o1 = 0; o1 < L.out[1]; ++o1) {
        for (int64_t o2 = 0; o2 < L.out[2]; ++o2, ++m) {
          int32_t t = 0;
          for (int64_t f0 = 0; f0 < L.window[0]; ++f0) {
            const int64_t row0 = (o0 * L.window[0] + f0) * L.in[1];
            for (int64_t f1 = 0; f1 < L.window[1]; ++f1) {
              const int64_t row1 = base + (row0 + o1 * L.window[1] + f1) * L.in[2] + o2 * L.window[2];
              for (int64_t f2 = 0; f2 < L.window[2]; ++f2) pixels[t++] = row1 + f2;
            }
          }
          fn(m, pixels, t);
        }
      }
    }
  }
}

template <typename T>
struct MaxPoolKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    Status s;
    const WindowLoops L = pool_loops(c, input.shape(), &s);
    GRAPHFN_RETURN_IF_ERROR(s);
    Tensor& output = c.allocate_output(0);
    if (output.num_elements() == 0) return Status::OK();
    const T* in = input.data<T>();
    T* out = output.data<T>();
    if (L.group_out != 1) {
      max_pool_depth(in, out, L.batch * L.in_pixels, L.in_depth / L.group_out, L.group_out);
      return Status::OK();
    }
    const int64_t ch = L.in_depth;
    if (windows_tile(L)) {  // image by image, windows listed without divisions
      const int64_t min_images = std::max<int64_t>(1, kPoolRowsPerShard / std::max<int64_t>(L.out_pixels, 1));
      parallel_for(L.batch, min_images, [&](int64_t i0, int64_t i1) {
        std::vector<int64_t> pixels(static_cast<size_t>(L.window_size));
        for_tiled_windows(L, i0, i1, pixels.data(), [&](int64_t m, const int64_t* px, int32_t t) {
          T* __restrict o = out + m * ch;
          if (t == 4) {  // 2x2 windows: one pass, the four pixels' pointers in registers
            const T* __restrict x0 = in + px[0] * ch;
            const T* __restrict x1 = in + px[1] * ch;
            const T* __restrict x2 = in + px[2] * ch;
            const T* __restrict x3 = in + px[3] * ch;
            for (int64_t k = 0; k < ch; ++k) {
              T best = std::numeric_limits<T>::lowest();
              best = best < x0[k] ? x0[k] : best;
              best = best < x1[k] ? x1[k] : best;
              best = best < x2[k] ? x2[k] : best;
              o[k] = best < x3[k] ? x3[k] : best;
            }
            return;
          }
          std::fill(o, o + ch, std::numeric_limits<T>::lowest());
          for (int32_t i = 0; i < t; ++i) {
            const T* __restrict x = in + px[i] * ch;
            for (int64_t k = 0; k < ch; ++k) o[k] = o[k] < x[k] ? x[k] : o[k];
          }
        });
      });
      return Status::OK();
    }
    parallel_for(L.batch * L.out_pixels, kPoolRowsPerShard, [&](int64_t m0, int64_t m1) {
      for (int64_t m = m0; m < m1; ++m) {
        T* o = out + m * ch;
        std::fill(o, o + ch, std::numeric_limits<T>::lowest());
        L.for_window_inside(m, [&](int64_t pixel) {
          const T* x = in + pixel * ch;
          for (int64_t k = 0; k < ch; ++k) o[k] = o[k] < x[k] ? x[k] : o[k];
        });
      }
    });
    return Status::OK();
  }
};

// For output row m, each channel's first maximum as the input pixel holding it. TF's MaxPoolGrad
// starts from the window's first pixel (a window of -inf or NaN routes there); its
// MaxPoolGradGrad starts from the lowest value (-1 when nothing exceeds it). Branch-free
// selects, so the channel loop vectorises.
template <typename T>
void first_max_pixels(const WindowLoops& L, const T* in, int64_t m, T* best, int64_t* at, bool from_first_pixel) {
  const int64_t ch = L.in_depth;
  std::fill(best, best + ch, std::numeric_limits<T>::lowest());
  std::fill(at, at + ch, int64_t{-1});
  L.for_window_inside(m, [&](int64_t pixel) {
    const T* x = in + pixel * ch;
    for (int64_t k = 0; k < ch; ++k) {
      const bool greater = (from_first_pixel && at[k] < 0) || best[k] < x[k];
      at[k] = greater ? pixel : at[k];
      best[k] = greater ? x[k] : best[k];
    }
  });
}

// max_pool_grad_tiled_row for float with whole 8-channel vectors: the same first maximum, kept
// in registers. (GCC turned the loop below into a
// compare, a test and a branch per vector, taken on random data: a tenth of a convnet step.)
template <bool kReluGrad>
inline void max_pool_grad_tiled_row_float(int64_t ch, const float* in, const float* gm, const int64_t* pixels,
                                          int32_t t, float* d) {
  typedef float FloatVec __attribute__((vector_size(32)));
  typedef int32_t IntVec __attribute__((vector_size(32)));
  for (int64_t k = 0; k < ch; k += 8) {
    FloatVec best;
    std::memcpy(&best, in + pixels[0] * ch + k, sizeof(best));
    IntVec tap = IntVec{};
    for (int32_t i = 1; i < t; ++i) {
      FloatVec x;
      std::memcpy(&x, in + pixels[i] * ch + k, sizeof(x));
      const IntVec greater = best < x;
      tap = greater ? IntVec{} + i : tap;
      best = greater ? x : best;
    }
    FloatVec g;
    std::memcpy(&g, gm + k, sizeof(g));
    for (int32_t i = 0; i < t; ++i) {
      FloatVec v = tap == i ? g : FloatVec{};
      if constexpr (kReluGrad) {
        FloatVec x;
        std::memcpy(&x, in + pixels[i] * ch + k, sizeof(x));
        v = v * (x > 0.0f ? FloatVec{} + 1.0f : FloatVec{});
      }
      std::memcpy(d + pixels[i] * ch + k, &v, sizeof(v));
    }
  }
}

// The same for windows of 4 pixels (2x2, the common pooling), the pixels' offsets and values in
// registers. In the loop above GCC reloads pixels[i] after every store (a memcpy store may alias
// anything), and those reloads waited on the stores: 3-5x slower on a convnet's 6 MB activations.
template <bool kReluGrad>
inline void max_pool_grad_4_taps_float(int64_t ch, const float* in, const float* gm, const int64_t* pixels, float* d) {
  typedef float FloatVec __attribute__((vector_size(32), aligned(4)));
  typedef int32_t IntVec __attribute__((vector_size(32)));
  const int64_t o0 = pixels[0] * ch, o1 = pixels[1] * ch, o2 = pixels[2] * ch, o3 = pixels[3] * ch;
  const FloatVec zero = FloatVec{}, one = zero + 1.0f;
  for (int64_t k = 0; k < ch; k += 8) {
    const FloatVec x0 = *reinterpret_cast<const FloatVec*>(in + o0 + k);
    const FloatVec x1 = *reinterpret_cast<const FloatVec*>(in + o1 + k);
    const FloatVec x2 = *reinterpret_cast<const FloatVec*>(in + o2 + k);
    const FloatVec x3 = *reinterpret_cast<const FloatVec*>(in + o3 + k);
    FloatVec best = x0;
    IntVec tap = IntVec{};
    IntVec greater = best < x1;
    tap = greater ? IntVec{} + 1 : tap;
    best = greater ? x1 : best;
    greater = best < x2;
    tap = greater ? IntVec{} + 2 : tap;
    best = greater ? x2 : best;
    greater = best < x3;
    tap = greater ? IntVec{} + 3 : tap;
    const FloatVec g = *reinterpret_cast<const FloatVec*>(gm + k);
    FloatVec v0 = tap == 0 ? g : zero, v1 = tap == 1 ? g : zero, v2 = tap == 2 ? g : zero, v3 = tap == 3 ? g : zero;
    if constexpr (kReluGrad) {
      v0 = v0 * (x0 > zero ? one : zero);
      v1 = v1 * (x1 > zero ? one : zero);
      v2 = v2 * (x2 > zero ? one : zero);
      v3 = v3 * (x3 > zero ? one : zero);
    }
    *reinterpret_cast<FloatVec*>(d + o0 + k) = v0;
    *reinterpret_cast<FloatVec*>(d + o1 + k) = v1;
    *reinterpret_cast<FloatVec*>(d + o2 + k) = v2;
    *reinterpret_cast<FloatVec*>(d + o3 + k) = v3;
  }
}

// MaxPoolGrad of one output row for tiling windows: each channel's first maximum as a tap number
// (32-bit, so the select vectorises with float data), then every window pixel written once
// (the gradient at its maximum, zero elsewhere) instead of zero-filled and scattered into.
// With kReluGrad, also the ReluGrad of activation_fusion_attrs.h.
template <typename T, bool kReluGrad>
void max_pool_grad_tiled_row(int64_t ch, const T* in, const T* gm, const int64_t* pixels, int32_t t, T* best,
                             int32_t* tap, T* d) {
  if constexpr (std::is_same_v<T, float>) {
    if (ch % 8 == 0 && t == 4) return max_pool_grad_4_taps_float<kReluGrad>(ch, in, gm, pixels, d);
    if (ch % 8 == 0) return max_pool_grad_tiled_row_float<kReluGrad>(ch, in, gm, pixels, t, d);
  }
  // The window's first pixel, then each strictly greater value (TF's routing: a window of -inf
  // or NaN, or one starting with NaN, sends the gradient to its first pixel).
  std::copy(in + pixels[0] * ch, in + pixels[0] * ch + ch, best);
  std::fill(tap, tap + ch, int32_t{0});
  // Restrict-qualified copies: the buffers never overlap, and saying so lets the loops vectorise.
  T* __restrict b = best;
  int32_t* __restrict tp = tap;
  for (int32_t i = 1; i < t; ++i) {
    const T* __restrict x = in + pixels[i] * ch;
    for (int64_t k = 0; k < ch; ++k) {
      const bool greater = b[k] < x[k];
      tp[k] = greater ? i : tp[k];
      b[k] = greater ? x[k] : b[k];
    }
  }
  for (int32_t i = 0; i < t; ++i) {
    T* __restrict dxp = d + pixels[i] * ch;
    const T* __restrict gr = gm;
    for (int64_t k = 0; k < ch; ++k) dxp[k] = tp[k] == i ? gr[k] : T(0);
    if constexpr (kReluGrad) relu_grad(dxp, in + pixels[i] * ch, dxp, ch);
  }
}

// MaxPoolGrad (2-D: first maximum) and MaxPool3DGrad (3-D: every tied maximum).
template <typename T>
struct MaxPoolGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    const Tensor& output = c.input(1);
    const Tensor& grad = c.input(2);
    Status s;
    const WindowLoops L = pool_loops(c, input.shape(), &s);
    GRAPHFN_RETURN_IF_ERROR(s);
    Tensor& dx = c.allocate_output(0);
    T* d = dx.data<T>();
    if (grad.num_elements() == 0 || dx.num_elements() == 0) {
      std::fill(d, d + dx.num_elements(), T(0));
      return Status::OK();
    }
    const bool all_ties = c.op.name == "MaxPool3DGrad";
    const bool fused_relu_grad = c.attrs.get_bool(kMaxPoolGradReluAttr, false);
    const T* in = input.data<T>();
    const T* out = output.data<T>();
    const T* g = grad.data<T>();
    const int64_t ch = L.in_depth;
    const bool tiled = !all_ties && windows_tile(L);
    // Tiling windows cover the input exactly when the output times the window spans it.
    const bool covered = tiled && L.out[0] * L.window[0] == L.in[0] && L.out[1] * L.window[1] == L.in[1] &&
                         L.out[2] * L.window[2] == L.in[2];
    parallel_for(L.batch, 1, [&](int64_t i0, int64_t i1) {
      std::vector<T> best(static_cast<size_t>(ch));
      std::vector<int64_t> at(static_cast<size_t>(ch));
      if (!covered) std::fill(d + i0 * L.in_pixels * ch, d + i1 * L.in_pixels * ch, T(0));  // this shard's images
      std::vector<int32_t> tap(tiled ? static_cast<size_t>(ch) : 0);
      std::vector<int64_t> pixels(tiled ? static_cast<size_t>(L.window_size) : 0);
      if (tiled) {
        for_tiled_windows(L, i0, i1, pixels.data(), [&](int64_t m, const int64_t* px, int32_t t) {
          if (fused_relu_grad) {
            max_pool_grad_tiled_row<T, true>(ch, in, g + m * ch, px, t, best.data(), tap.data(), d);
          } else {
            max_pool_grad_tiled_row<T, false>(ch, in, g + m * ch, px, t, best.data(), tap.data(), d);
          }
        });
        // Pixels outside every window (not covered) were zeroed: the product keeps them zero.
        return;
      }
      for (int64_t m = i0 * L.out_pixels; m < i1 * L.out_pixels; ++m) {
        const T* gm = g + m * ch;
        if (all_ties) {
          const T* om = out + m * ch;
          L.for_window_inside(m, [&](int64_t pixel) {
            const T* x = in + pixel * ch;
            T* dxp = d + pixel * ch;
            for (int64_t k = 0; k < ch; ++k) dxp[k] += x[k] == om[k] ? gm[k] : T(0);
          });
          continue;
        }
        first_max_pixels(L, in, m, best.data(), at.data(), true);
        for (int64_t k = 0; k < ch; ++k) {
          if (at[k] >= 0) d[at[k] * ch + k] += gm[k];
        }
      }
      if (fused_relu_grad) {  // this shard's images, once every window has added to them
        const int64_t begin = i0 * L.in_pixels * ch, end = i1 * L.in_pixels * ch;
        relu_grad(d + begin, in + begin, d + begin, end - begin);
      }
    });
    return Status::OK();
  }
};

// MaxPoolGradGrad: each output pixel takes grad at its window's first maximum.
template <typename T>
struct MaxPoolGradGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    const Tensor& grad = c.input(2);
    Status s;
    const WindowLoops L = pool_loops(c, input.shape(), &s);
    GRAPHFN_RETURN_IF_ERROR(s);
    Tensor& result = c.allocate_output(0);
    if (result.num_elements() == 0) return Status::OK();
    const T* in = input.data<T>();
    const T* g = grad.data<T>();
    T* r = result.data<T>();
    const int64_t ch = L.in_depth;
    parallel_for(L.batch * L.out_pixels, kPoolRowsPerShard, [&](int64_t m0, int64_t m1) {
      std::vector<T> best(static_cast<size_t>(ch));
      std::vector<int64_t> at(static_cast<size_t>(ch));
      for (int64_t m = m0; m < m1; ++m) {
        first_max_pixels(L, in, m, best.data(), at.data(), false);
        for (int64_t k = 0; k < ch; ++k) r[m * ch + k] = at[k] >= 0 ? g[at[k] * ch + k] : T(0);
      }
    });
    return Status::OK();
  }
};

template <typename T>
struct AvgPoolKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    Status s;
    const WindowLoops L = pool_loops(c, input.shape(), &s);
    GRAPHFN_RETURN_IF_ERROR(s);
    Tensor& output = c.allocate_output(0);
    if (output.num_elements() == 0) return Status::OK();
    const T* in = input.data<T>();
    T* out = output.data<T>();
    const int64_t ch = L.in_depth;
    parallel_for(L.batch * L.out_pixels, kPoolRowsPerShard, [&](int64_t m0, int64_t m1) {
      for (int64_t m = m0; m < m1; ++m) {
        T* o = out + m * ch;
        std::fill(o, o + ch, T(0));
        int64_t count = 0;
        L.for_window_inside(m, [&](int64_t pixel) {
          ++count;
          const T* x = in + pixel * ch;
          for (int64_t k = 0; k < ch; ++k) o[k] += x[k];
        });
        const T scale = T(1) / static_cast<T>(std::max<int64_t>(count, 1));
        for (int64_t k = 0; k < ch; ++k) o[k] *= scale;
      }
    });
    return Status::OK();
  }
};

// AvgPoolGrad, AvgPool3DGrad: input(0) is the forward input's shape, input(1) the gradient.
template <typename T>
struct AvgPoolGradKernel {
  static Status compute(KernelContext& c) {
    const Tensor& grad = c.input(1);
    Tensor& dx = c.allocate_output(0);
    Status s;
    const WindowLoops L = pool_loops(c, dx.shape(), &s);
    GRAPHFN_RETURN_IF_ERROR(s);
    T* d = dx.data<T>();
    std::fill(d, d + dx.num_elements(), T(0));
    if (grad.num_elements() == 0 || dx.num_elements() == 0) return Status::OK();
    const T* g = grad.data<T>();
    const int64_t ch = L.in_depth;
    parallel_for(L.batch, 1, [&](int64_t i0, int64_t i1) {
      std::vector<T> share(static_cast<size_t>(ch));
      for (int64_t m = i0 * L.out_pixels; m < i1 * L.out_pixels; ++m) {
        int64_t count = 0;
        L.for_window_inside(m, [&](int64_t) { ++count; });
        const T scale = T(1) / static_cast<T>(std::max<int64_t>(count, 1));
        for (int64_t k = 0; k < ch; ++k) share[k] = g[m * ch + k] * scale;
        L.for_window_inside(m, [&](int64_t pixel) {
          T* dxp = d + pixel * ch;
          for (int64_t k = 0; k < ch; ++k) dxp[k] += share[k];
        });
      }
    });
    return Status::OK();
  }
};

// GraphfnMaxPoolGradFromTaps (passes/activation_fusion.h): MaxPoolGrad, and with relu_grad the
// ReluGrad after it, from the taps GraphfnFusedConv2DMaxPool recorded; row by row of the input,
// every value written once.
Status max_pool_grad_from_taps(KernelContext& c) {
  const Tensor& taps = c.input(0);
  const Tensor& grad = c.input(1);
  Tensor& dx = c.allocate_output(0);
  if (dx.num_elements() == 0) return Status::OK();
  const std::vector<int64_t>& ksize = *c.attrs.get_int_list("pool_ksize");  // checked by the shape function
  const int64_t kh = ksize[1], kw = ksize[2];
  const int64_t height = dx.dim(1), width = dx.dim(2), ch = dx.dim(3), out_h = taps.dim(1), out_w = taps.dim(2);
  const bool relu_grad = c.attrs.get_bool("relu_grad", false);
  const uint8_t* t = taps.data<uint8_t>();
  const float* g = grad.data<float>();
  float* d = dx.data<float>();
  const int64_t rows = dx.dim(0) * height;
  parallel_for_if_large(rows, std::max<int64_t>(1, kCheapElementsPerShard / std::max<int64_t>(1, width * ch)),
                        [&](int64_t r0, int64_t r1) {
                          for (int64_t row = r0; row < r1; ++row) {
                            const int64_t image = row / height, y = row % height, window_row = y / kh;
                            const int64_t offset = (image * out_h + window_row) * out_w * ch;
                            const bool inside = window_row < out_h;
                            max_pool_taps::grad_row(inside ? t + offset : nullptr, inside ? g + offset : nullptr,
                                                    y % kh, width, ch, kw, out_w, relu_grad, d + row * width * ch);
                          }
                        });
  return Status::OK();
}

}  // namespace

void register_nn_pool_kernels(OpRegistry& reg) {
  reg.set_kernel("GraphfnMaxPoolGradFromTaps", DType::kFloat32, &max_pool_grad_from_taps);
  using Floats = TypeList<float, double>;
  using Reals = TypeList<float, double, int32_t, int64_t, uint8_t, int16_t, int8_t>;
  register_kernels<MaxPoolKernel>(reg, "MaxPool", Reals{});
  register_kernels<MaxPoolGradKernel>(reg, "MaxPoolGrad", Reals{});
  register_kernels<MaxPoolGradGradKernel>(reg, "MaxPoolGradGrad", Reals{});
  register_kernels<AvgPoolKernel>(reg, "AvgPool", Floats{});
  register_kernels<AvgPoolGradKernel>(reg, "AvgPoolGrad", Floats{});
  register_kernels<MaxPoolKernel>(reg, "MaxPool3D", TypeList<float>{});
  register_kernels<MaxPoolGradKernel>(reg, "MaxPool3DGrad", TypeList<float>{});
  // TF has no float64 CPU kernels for the 3-D average pooling ops (NotFoundError, as TF).
  register_kernels<AvgPoolKernel>(reg, "AvgPool3D", TypeList<float>{});
  register_kernels<AvgPoolGradKernel>(reg, "AvgPool3DGrad", TypeList<float>{});
}

}  // namespace graphfn
