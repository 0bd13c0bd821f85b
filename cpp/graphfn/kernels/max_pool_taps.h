// Max pooling that also records where MaxPoolGrad would route each gradient, for
// GraphfnFusedConv2DMaxPool and GraphfnMaxPoolGradFromTaps (passes/activation_fusion.h): a
// convnet's activation before pooling is then never written out, nor read back by the gradient.
// Windows tile the input: strides equal to the window, VALID padding; input rows and columns past
// the last whole window belong to no window.
//
// A tap byte per pooled value: the window position (row-major) of the first maximum as TF's
// MaxPoolGrad finds it (the window's first pixel, then each strictly greater value), plus
// kTapPositive when the value there is > 0 (what a ReluGrad after MaxPoolGrad multiplies by).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace graphfn {
namespace max_pool_taps {

inline constexpr uint8_t kTapPositive = 0x80;
inline constexpr int64_t kMaxWindow = 127;  // window pixels a tap byte can name

// One row of `out_w` pooled pixels of `ch` channels from `kh` input rows of `width` pixels
// (contiguous, from `rows`): the pooled values as MaxPool computes them (from the lowest float,
// each strictly greater value) and their taps.
typedef float Float8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t Int8 __attribute__((vector_size(32)));
typedef uint8_t Byte8 __attribute__((vector_size(8), aligned(1)));

// Stores 8 values in 0..255 as bytes. (__builtin_convertvector took 8 extracts and 7 ORs here.)
inline void store_bytes(Int8 values, uint8_t* out) {
#if defined(__AVX2__)
  __m256i v;
  std::memcpy(&v, &values, sizeof(v));
  const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(words, words));
#else
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(values[i]);
#endif
}

// pool_row for channels in whole vectors of 8: each window's values, maximum and tap in
// registers, one pass over the window per vector (the loop below passes over scratch arrays once
// per window pixel).
inline void pool_row_vectors(const float* rows, int64_t width, int64_t ch, int64_t kh, int64_t kw, int64_t out_w,
                             float* pooled, uint8_t* taps) {
  const Float8 lowest = Float8{} + std::numeric_limits<float>::lowest(), zero = Float8{};
  for (int64_t ow = 0; ow < out_w; ++ow) {
    for (int64_t k = 0; k < ch; k += 8) {
      const Float8 first = *reinterpret_cast<const Float8*>(rows + ow * kw * ch + k);
      Float8 pool = lowest < first ? first : lowest;
      Float8 best = first;
      Int8 tap = Int8{};
      for (int64_t i = 0; i < kh; ++i) {
        for (int64_t j = i == 0 ? 1 : 0; j < kw; ++j) {
          const Float8 x = *reinterpret_cast<const Float8*>(rows + (i * width + ow * kw + j) * ch + k);
          pool = pool < x ? x : pool;
          const Int8 greater = best < x;
          tap = greater ? Int8{} + static_cast<int32_t>(i * kw + j) : tap;
          best = greater ? x : best;
        }
      }
      *reinterpret_cast<Float8*>(pooled + ow * ch + k) = pool;
      store_bytes(tap | (best > zero ? Int8{} + kTapPositive : Int8{}), taps + ow * ch + k);
    }
  }
}

inline void pool_row(const float* rows, int64_t width, int64_t ch, int64_t kh, int64_t kw, int64_t out_w,
                     float* pooled, uint8_t* taps) {
  if (ch % 8 == 0) return pool_row_vectors(rows, width, ch, kh, kw, out_w, pooled, taps);
  thread_local std::vector<float> best_scratch;
  thread_local std::vector<int32_t> tap_scratch;
  if (static_cast<int64_t>(best_scratch.size()) < ch) {
    best_scratch.resize(static_cast<size_t>(ch));
    tap_scratch.resize(static_cast<size_t>(ch));
  }
  float* __restrict best = best_scratch.data();
  int32_t* __restrict tap = tap_scratch.data();
  for (int64_t ow = 0; ow < out_w; ++ow) {
    float* __restrict pool = pooled + ow * ch;
    const float* first = rows + ow * kw * ch;
    for (int64_t k = 0; k < ch; ++k) {
      const float x = first[k];
      const float lowest = std::numeric_limits<float>::lowest();
      pool[k] = lowest < x ? x : lowest;
      best[k] = x;
      tap[k] = 0;
    }
    for (int64_t i = 0; i < kh; ++i) {
      for (int64_t j = 0; j < kw; ++j) {
        const int32_t t = static_cast<int32_t>(i * kw + j);
        if (t == 0) continue;
        const float* __restrict x = rows + (i * width + ow * kw + j) * ch;
        for (int64_t k = 0; k < ch; ++k) {
          pool[k] = pool[k] < x[k] ? x[k] : pool[k];
          const bool greater = best[k] < x[k];
          tap[k] = greater ? t : tap[k];
          best[k] = greater ? x[k] : best[k];
        }
      }
    }
    uint8_t* __restrict tp = taps + ow * ch;
    for (int64_t k = 0; k < ch; ++k) tp[k] = static_cast<uint8_t>(tap[k] | (best[k] > 0.0f ? kTapPositive : 0));
  }
}

// The gradient of one input row `y` (of `width` pixels, `ch` channels) from the taps and the
// gradient of the pooled row over it (null when y is past the last whole window), as MaxPoolGrad
// gives it: the window's gradient at its tap, 0 elsewhere; with `relu_grad`, times
// (tap value > 0 ? 1 : 0) as the ReluGrad after it (a product: -0 and NaN where not positive).
inline void grad_row(const uint8_t* taps, const float* grad, int64_t row_in_window, int64_t width, int64_t ch,
                     int64_t kw, int64_t out_w, bool relu_grad, float* dx) {
  int64_t x = 0;
  if (taps != nullptr) {
    for (int64_t ow = 0; ow < out_w; ++ow) {
      const uint8_t* __restrict tp = taps + ow * ch;
      const float* __restrict g = grad + ow * ch;
      for (int64_t j = 0; j < kw; ++j, ++x) {
        const uint8_t t = static_cast<uint8_t>(row_in_window * kw + j);
        float* __restrict d = dx + x * ch;
        int64_t k = 0;
        for (; k + 8 <= ch; k += 8) {  // vector code: GCC left the loop below scalar, with branches
          const Int8 code = __builtin_convertvector(*reinterpret_cast<const Byte8*>(tp + k), Int8);
          const Float8 gv = *reinterpret_cast<const Float8*>(g + k);
          const Float8 zeroed = gv * Float8{};
          const Float8 routed = relu_grad ? ((code & kTapPositive) != 0 ? gv : zeroed) : gv;
          *reinterpret_cast<Float8*>(d + k) = (code & 0x7f) == static_cast<int32_t>(t) ? routed : Float8{};
        }
        for (; k < ch; ++k) {
          const bool hit = (tp[k] & 0x7f) == t;
          const bool positive = (tp[k] & kTapPositive) != 0;
          const float zeroed = g[k] * 0.0f;  // computed every time, so the loop vectorises
          const float routed = relu_grad && !positive ? zeroed : g[k];
          d[k] = hit ? routed : 0.0f;
        }
      }
    }
  }
  for (float* d = dx + x * ch; d < dx + width * ch; ++d) *d = 0.0f;
}

}  // namespace max_pool_taps
}  // namespace graphfn
