// The sample distributions of the random kernels (random_kernels.cc, stateful) and the
// stateless ones (stateless_random_kernels.cc): each turns kWords random 32-bit words of a Philox
// block into kValues samples.
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace random_dist {

inline uint64_t bits64(const uint32_t* w) { return (uint64_t{w[0]} << 32) | w[1]; }

// A double in [0, 1): 32 bits for float outputs (plenty for Box-Muller in float), 53 for double.
template <typename T>
inline double unit(const uint32_t* w) {
  if constexpr (sizeof(T) == 4) return w[0] * 0x1p-32;
  else return static_cast<double>(bits64(w) >> 11) * 0x1p-53;
}

// floor(r * range / 2^64) and floor(r * range / 2^128): a 64- or 128-bit random fraction scaled to
// [0, range). The bias is at most range / 2^64 (int32 outputs) or range / 2^128 (int64 outputs).
inline uint64_t scale64(uint64_t r, uint64_t range) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(r) * range) >> 64);
}
inline uint64_t scale128(uint64_t r_hi, uint64_t r_lo, uint64_t range) {
  // (r_hi * 2^64 + r_lo) * range / 2^128 = (r_hi * range + floor(r_lo * range / 2^64)) / 2^64,
  // and the sum stays below 2^128.
  const unsigned __int128 sum = static_cast<unsigned __int128>(r_hi) * range + scale64(r_lo, range);
  return static_cast<uint64_t>(sum >> 64);
}

// Uniform in [0, 1). float keeps 24 bits so the value is exact and never rounds up to 1.
template <typename T>
struct Uniform {
  static constexpr int kWords = sizeof(T) / 4, kValues = 1;
  static Status make(const KernelContext&, Uniform*) { return Status::OK(); }
  void operator()(const uint32_t* w, T* out) const {
    if constexpr (sizeof(T) == 4) *out = static_cast<float>(w[0] >> 8) * 0x1p-24f;
    else *out = static_cast<T>(unit<T>(w));
  }
};

// Standard normal by Box-Muller: two uniforms give two independent samples. Computed in double;
// u1 is in (0, 1] so log(u1) is finite.
template <typename T>
struct Normal {
  static constexpr int kWords = 2 * sizeof(T) / 4, kValues = 2;
  static Status make(const KernelContext&, Normal*) { return Status::OK(); }
  void operator()(const uint32_t* w, T* out) const {
    constexpr double kTwoPi = 6.283185307179586476925;
    const double u1 = 1.0 - unit<T>(w);
    const double theta = kTwoPi * unit<T>(w + kWords / 2);
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[0] = static_cast<T>(r * std::cos(theta));
    out[1] = static_cast<T>(r * std::sin(theta));
  }
};

// Uniform integers in [minval, maxval), from twice as many random bits as the output has.
template <typename T>
struct UniformInt {
  using U = std::make_unsigned_t<T>;
  static constexpr int kWords = 2 * sizeof(T) / 4, kValues = 1;
  U lo = 0;
  uint64_t range = 0;  // maxval - minval, in [1, 2^64 - 1]

  static Status make(const KernelContext& c, UniformInt* d) {
    const T minval = *c.input(1).data<T>();
    const T maxval = *c.input(2).data<T>();
    if (!(minval < maxval)) {
      return errors::InvalidArgument("Need minval < maxval, got ", static_cast<long long>(minval),
                                     " >= ", static_cast<long long>(maxval));
    }
    d->lo = static_cast<U>(minval);
    d->range = static_cast<U>(static_cast<U>(maxval) - static_cast<U>(minval));
    return Status::OK();
  }
  void operator()(const uint32_t* w, T* out) const {
    const uint64_t offset = sizeof(T) == 4 ? scale64(bits64(w), range) : scale128(bits64(w), bits64(w + 2), range);
    *out = static_cast<T>(static_cast<U>(lo + static_cast<U>(offset)));  // lo + offset < maxval
  }
};

}  // namespace random_dist
}  // namespace graphfn
