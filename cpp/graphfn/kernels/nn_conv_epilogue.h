// What _FusedConv2D (passes/activation_fusion.h) adds to a convolution's outputs while a chunk
// of them is still in cache: a bias per output channel, then Relu. The same float operations as
// BiasAdd followed by Relu, so the fused op gives their bits: y = x + b, then y < 0 ? 0 : y
// (Relu keeps NaN and -0, as graphfn's Relu kernel).
#pragma once
#include <cstdint>

#include "graphfn/core/thread_pool.h"

namespace graphfn {

struct ConvEpilogue {
  const float* bias = nullptr;  // [out_depth], or null: no bias
  bool relu = false;

  bool active() const { return bias != nullptr || relu; }

  // `pixels` output pixels of `od` channels each, from `out`.
  void apply(float* __restrict out, int64_t pixels, int64_t od) const {
    const float* __restrict b = bias;
    for (int64_t p = 0; p < pixels; ++p, out += od) {
      if (b != nullptr && relu) {
        for (int64_t k = 0; k < od; ++k) {
          const float y = out[k] + b[k];
          out[k] = y < 0.0f ? 0.0f : y;
        }
      } else if (b != nullptr) {
        for (int64_t k = 0; k < od; ++k) out[k] += b[k];
      } else if (relu) {
        for (int64_t k = 0; k < od; ++k) out[k] = out[k] < 0.0f ? 0.0f : out[k];
      }
    }
  }

  // apply() over a whole output of `pixels` pixels, on the pool (for the convolution paths that
  // do not call it chunk by chunk).
  void apply_all(float* out, int64_t pixels, int64_t od) const {
    if (!active()) return;
    parallel_for_if_large(pixels, 256, [&](int64_t p0, int64_t p1) { apply(out + p0 * od, p1 - p0, od); });
  }

};

}  // namespace graphfn
