// Kernels of the stateless random ops (ops/stateless_random_ops.cc): the Philox stream is keyed
// by seed[0] with seed[1] as its nonce, and element i comes from fixed bits of it, so a seed
// always gives the same tensor. Distributions are shared with the stateful kernels.
#include <algorithm>
#include <cmath>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/philox.h"
#include "graphfn/kernels/random_distributions.h"

namespace graphfn {
namespace {

philox::Stream seeded_stream(const Tensor& seed) {
  int64_t s[2];
  if (seed.dtype() == DType::kInt32) {
    s[0] = seed.data<int32_t>()[0];
    s[1] = seed.data<int32_t>()[1];
  } else {
    s[0] = seed.data<int64_t>()[0];
    s[1] = seed.data<int64_t>()[1];
  }
  philox::Stream stream;
  const uint64_t key = static_cast<uint64_t>(s[0]);
  stream.key = {static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)};
  stream.nonce = static_cast<uint64_t>(s[1]);
  return stream;
}

// Fills the output with `dist` applied to consecutive Philox blocks.
template <typename T, typename Dist>
void fill(const philox::Stream& stream, const Dist& dist, T* data, int64_t n) {
  constexpr int kGroups = 4 / Dist::kWords;
  constexpr int kPerBlock = kGroups * Dist::kValues;
  T values[kPerBlock];
  for (uint64_t b = 0; static_cast<int64_t>(b * kPerBlock) < n; ++b) {
    const philox::Block bits = stream.block(b);
    for (int g = 0; g < kGroups; ++g) dist(&bits[g * Dist::kWords], &values[g * Dist::kValues]);
    const int64_t start = static_cast<int64_t>(b) * kPerBlock;
    std::copy_n(values, std::min<int64_t>(kPerBlock, n - start), data + start);
  }
}

template <template <typename> class Dist>
struct StatelessKernel {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      Tensor& out = c.allocate_output(0);
      fill<T>(seeded_stream(c.input(1)), Dist<T>{}, out.data<T>(), out.num_elements());
      return Status::OK();
    }
  };
};

template <typename T>
using UniformKernel = StatelessKernel<random_dist::Uniform>::Kernel<T>;
template <typename T>
using NormalKernel = StatelessKernel<random_dist::Normal>::Kernel<T>;

// Normal samples beyond two standard deviations are dropped and redrawn from later blocks.
template <typename T>
struct TruncatedNormalKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    const philox::Stream stream = seeded_stream(c.input(1));
    const random_dist::Normal<T> normal;
    using Dist = random_dist::Normal<T>;
    constexpr int kGroups = 4 / Dist::kWords;
    T* data = out.data<T>();
    const int64_t n = out.num_elements();
    int64_t filled = 0;
    for (uint64_t b = 0; filled < n; ++b) {
      const philox::Block bits = stream.block(b);
      T values[Dist::kValues];
      for (int g = 0; g < kGroups && filled < n; ++g) {
        normal(&bits[g * Dist::kWords], values);
        for (int k = 0; k < Dist::kValues && filled < n; ++k) {
          if (std::abs(values[k]) < T(2)) data[filled++] = values[k];
        }
      }
    }
    return Status::OK();
  }
};

template <typename T>
struct UniformIntKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    if (out.num_elements() == 0) return Status::OK();
    const T minval = *c.input(2).data<T>();
    const T maxval = *c.input(3).data<T>();
    if (!(minval < maxval)) {
      return errors::InvalidArgument("Need minval < maxval, got ", static_cast<long long>(minval), " >= ",
                                     static_cast<long long>(maxval));
    }
    using U = std::make_unsigned_t<T>;
    random_dist::UniformInt<T> dist;
    dist.lo = static_cast<U>(minval);
    dist.range = static_cast<U>(static_cast<U>(maxval) - static_cast<U>(minval));
    fill<T>(seeded_stream(c.input(1)), dist, out.data<T>(), out.num_elements());
    return Status::OK();
  }
};

// Every bit pattern of T equally likely.
template <typename T>
struct FullInt {
  static constexpr int kWords = sizeof(T) / 4, kValues = 1;
  void operator()(const uint32_t* w, T* out) const {
    if constexpr (sizeof(T) == 4) *out = static_cast<T>(w[0]);
    else *out = static_cast<T>(random_dist::bits64(w));
  }
};

template <typename T>
struct FullIntKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    fill<T>(seeded_stream(c.input(1)), FullInt<T>{}, out.data<T>(), out.num_elements());
    return Status::OK();
  }
};

}  // namespace

void register_stateless_random_kernels(OpRegistry& reg) {
  register_kernels<UniformKernel>(reg, "StatelessRandomUniform", FloatTypes{});
  register_kernels<NormalKernel>(reg, "StatelessRandomNormal", FloatTypes{});
  register_kernels<TruncatedNormalKernel>(reg, "StatelessTruncatedNormal", FloatTypes{});
  register_kernels<UniformIntKernel>(reg, "StatelessRandomUniformInt", TypeList<int32_t, int64_t>{});
  register_kernels<FullIntKernel>(reg, "StatelessRandomUniformFullInt", TypeList<int32_t, int64_t, uint32_t, uint64_t>{});
}

}  // namespace graphfn
