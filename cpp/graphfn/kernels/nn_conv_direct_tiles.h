// Register tiles for the direct convolution loops of nn_conv_direct.h (windows of few values:
// window * input channels <= 32, such as a convnet's first layer, 3x3 over one channel).
//
// The row-by-row loops there walk every output row's window (a list of taps and pixels per
// row) and, per row and 4-vector block of output channels, load each filter vector once for
// one row's multiply-adds; the filter gradient took a pass over the rows per 8-channel block.
// On the convnet's first layer ([64, 28, 28, 1] * [3, 3, 1, 32]) that cost 1.4 ms forward and
// 2.9 ms for the filter gradient on one thread, for 14.5 M multiply-adds each.
//  - forward: a tile of kRows output rows x 4 vectors of output channels in registers; each
//    filter vector loaded once feeds kRows multiply-adds. The window taps are fixed offsets
//    from each row's origin in a copy of the input with the padding written out as zeros
//    (PaddedInput; the per-row tap lists had cost more than the multiply-adds).
//  - filter gradient: passes of N window values x 32 output channels sum a block of 128 rows in
//    registers, reading each window value at its fixed offset from the row's origin in that
//    padded input and each dy vector once per pass: N = 3 with 4 AVX2 vectors, N up to 12 with 2
//    AVX-512 vectors (kernels/nn_conv_avx512.cc; a 3x3 one-channel window in one pass). Copying
//    the window values into a column block first, and checking each block of dy for inf/NaN,
//    had cost half of the one-channel layer's 1.1 ms (0.52 ms now, AVX-512, one thread).
// Every sum runs in the order of the row-by-row loops (taps, then input channels; rows in
// order), except that a tap in the padding adds 0 * w (or 0 * dy) where those skip it: the same
// bits for finite values (a sum that starts at +0 never becomes -0 by adding a zero), so the
// forward tiles run only when the filter holds finite values, and a filter gradient that comes
// out inf or NaN is computed again without the tiles; the row loops give TF's values there (a
// tap in the padding adds nothing, not 0 * inf).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "graphfn/core/cpu_features.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_direct_tiles {

// GCC vector of 32 bytes (8 floats or 4 doubles), as in nn_conv_direct.h.
template <typename S>
struct VectorOf;
template <>
struct VectorOf<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct VectorOf<double> {
  typedef double type __attribute__((vector_size(32)));
};
template <typename S>
using Vec = typename VectorOf<S>::type;
template <typename S>
constexpr int64_t kStep = 32 / sizeof(S);  // lanes of one vector
template <typename S>
constexpr int64_t kBlock = 4 * kStep<S>;   // output channels of a tile: 4 vectors
constexpr int kRows = 3;                    // output rows of a forward tile: 3 x 4 accumulators
constexpr int kColumns = 3;                 // window values of a filter-gradient pass: 3 x 4 accumulators

template <typename S, typename V = Vec<S>>
[[gnu::always_inline]] inline V load(const S* p) {  // always inlined: see nn_conv_tiles.h's load8
  V v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
template <typename S, typename V = Vec<S>>
[[gnu::always_inline]] inline void store(S* p, const V& v) {
  std::memcpy(p, &v, sizeof(v));
}

// Whether all n values are finite (no inf, no NaN): the exponent bits of 8 floats (4 doubles)
// at a time, so the check costs little next to the multiply-adds it guards.
template <typename S>
bool all_finite(const S* p, int64_t n) {
  using U = std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>;
  typedef U UVec __attribute__((vector_size(32)));
  constexpr U kExponent = sizeof(S) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
  constexpr int64_t lanes = 32 / sizeof(S);
  const UVec mask = UVec{} + kExponent;
  UVec bad = UVec{};
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    UVec v;
    std::memcpy(&v, p + i, sizeof(v));
    bad |= reinterpret_cast<UVec>((v & mask) == mask);
  }
  U any = 0;
  for (int64_t j = 0; j < lanes; ++j) any |= bad[j];
  for (; i < n; ++i) any |= std::isfinite(p[i]) ? 0 : 1;
  return any == 0;
}

// The input with its padding written out as zeros (each spatial dim long enough for every
// window), so that every window tap of every row is one offset from the row's origin: no
// per-row list of taps and pixels, no test for the padding.
template <typename S>
struct PaddedInput {
  std::array<int64_t, 3> size{};  // padded spatial dims
  std::vector<S> data;
  std::vector<int64_t> offset;  // each tap's first value from the window origin's
  const WindowLoops& L;

  PaddedInput(const WindowLoops& loops, const S* in) : L(loops) {
    const int64_t cin = L.in_depth;
    for (int i = 0; i < 3; ++i) {
      size[i] = std::max(L.in[i] + L.pad[i], (L.out[i] - 1) * L.stride[i] + (L.window[i] - 1) * L.dilation[i] + 1);
    }
    data.assign(static_cast<size_t>(L.batch * size[0] * size[1] * size[2] * cin), S(0));
    for (int64_t b = 0; b < L.batch; ++b) {
      for (int64_t i0 = 0; i0 < L.in[0]; ++i0) {
        for (int64_t i1 = 0; i1 < L.in[1]; ++i1) {
          const S* src = in + ((b * L.in[0] + i0) * L.in[1] + i1) * L.in[2] * cin;
          S* dst = data.data() + (((b * size[0] + i0 + L.pad[0]) * size[1] + i1 + L.pad[1]) * size[2] + L.pad[2]) * cin;
          std::memcpy(dst, src, sizeof(S) * L.in[2] * cin);
        }
      }
    }
    for (int64_t f0 = 0; f0 < L.window[0]; ++f0) {
      for (int64_t f1 = 0; f1 < L.window[1]; ++f1) {
        for (int64_t f2 = 0; f2 < L.window[2]; ++f2) {
          offset.push_back(((f0 * L.dilation[0] * size[1] + f1 * L.dilation[1]) * size[2] + f2 * L.dilation[2]) * cin);
        }
      }
    }
  }

  // Walks rows m, m + 1, ... giving each row's window origin.
  struct Rows {
    const PaddedInput& p;
    int64_t b, o0, o1, o2;
    Rows(const PaddedInput& padded, int64_t m) : p(padded) {
      const WindowLoops& L = p.L;
      b = m / L.out_pixels;
      int64_t q = m % L.out_pixels;
      o2 = q % L.out[2];
      q /= L.out[2];
      o1 = q % L.out[1];
      o0 = q / L.out[1];
    }
    const S* origin() const {
      const WindowLoops& L = p.L;
      return p.data.data() +
             (((b * p.size[0] + o0 * L.stride[0]) * p.size[1] + o1 * L.stride[1]) * p.size[2] + o2 * L.stride[2]) *
                 L.in_depth;
    }
    void next() {
      const WindowLoops& L = p.L;
      if (++o2 < L.out[2]) return;
      o2 = 0;
      if (++o1 < L.out[1]) return;
      o1 = 0;
      if (++o0 < L.out[0]) return;
      o0 = 0;
      ++b;
    }
  };
};

// out[r * od + 0:kBlock) = sum over taps t and channels ci of base[r][offset[t] + ci] * w[(t * cin + ci) * od + ...]
// for the tile's R rows (base: each row's window origin in the padded input).
template <typename S, int R>
inline void forward_tile(const S* const* base, const int64_t* offset, int64_t taps, int64_t cin, const S* w,
                         int64_t od, S* out) {
  constexpr int64_t s = kStep<S>;
  Vec<S> a00 = Vec<S>{}, a01 = a00, a02 = a00, a03 = a00, a10 = a00, a11 = a00, a12 = a00, a13 = a00;
  Vec<S> a20 = a00, a21 = a00, a22 = a00, a23 = a00;
  for (int64_t t = 0; t < taps; ++t) {
    const S *x0 = base[0] + offset[t], *x1 = base[R > 1 ? 1 : 0] + offset[t], *x2 = base[R > 2 ? 2 : 0] + offset[t];
    const S* f = w + t * cin * od;
    for (int64_t ci = 0; ci < cin; ++ci, f += od) {
      const Vec<S> b0 = load(f), b1 = load(f + s), b2 = load(f + 2 * s), b3 = load(f + 3 * s);
      const S v0 = x0[ci];
      a00 += v0 * b0;
      a01 += v0 * b1;
      a02 += v0 * b2;
      a03 += v0 * b3;
      if (R > 1) {
        const S v1 = x1[ci];
        a10 += v1 * b0;
        a11 += v1 * b1;
        a12 += v1 * b2;
        a13 += v1 * b3;
      }
      if (R > 2) {
        const S v2 = x2[ci];
        a20 += v2 * b0;
        a21 += v2 * b1;
        a22 += v2 * b2;
        a23 += v2 * b3;
      }
    }
  }
  store(out, a00);
  store(out + s, a01);
  store(out + 2 * s, a02);
  store(out + 3 * s, a03);
  if (R > 1) {
    store(out + od, a10);
    store(out + od + s, a11);
    store(out + od + 2 * s, a12);
    store(out + od + 3 * s, a13);
  }
  if (R > 2) {
    store(out + 2 * od, a20);
    store(out + 2 * od + s, a21);
    store(out + 2 * od + 2 * s, a22);
    store(out + 2 * od + 3 * s, a23);
  }
}

template <typename S>
inline void forward_tile_of(int r, const S* const* base, const int64_t* offset, int64_t taps, int64_t cin, const S* w,
                            int64_t od, S* out) {
  switch (r) {
    case 3: return forward_tile<S, 3>(base, offset, taps, cin, w, od, out);
    case 2: return forward_tile<S, 2>(base, offset, taps, cin, w, od, out);
    default: return forward_tile<S, 1>(base, offset, taps, cin, w, od, out);
  }
}

// The filter gradient of one block of rows on register tiles: for every channel block k0 (of
// kBlock channels, below `wide`) and window value c (tap c / cin, channel c % cin),
//   sum[c * od + k0 + 0:kBlock) += sum over rows i < n of origin[i][off[c]] * dy[i * od + k0 + 0:kBlock)
// (origin: each row's window origin in the padded input; off: each window value's offset from it).
template <typename S>
struct FilterBlock {
  const S* const* origin;
  const int64_t* off;
  int64_t n, columns, od, wide;
  const S* dy;  // the block's first row
  S* sum;
};

// One pass: N window values from c0 x NV vectors of channels from k0, the rows in order.
template <typename S, typename V, int NV, int N>
[[gnu::always_inline]] inline void filter_pass(const FilterBlock<S>& w, int64_t c0, int64_t k0) {
  constexpr int64_t s = static_cast<int64_t>(sizeof(V) / sizeof(S));
  const int64_t od = w.od;
  V a[N][NV];
  int64_t off[N];
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    off[j] = w.off[c0 + j];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) a[j][v] = load<S, V>(w.sum + (c0 + j) * od + k0 + v * s);
  }
  const S* dy = w.dy + k0;
  for (int64_t i = 0; i < w.n; ++i, dy += od) {
    V d[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) d[v] = load<S, V>(dy + v * s);
    const S* x = w.origin[i];
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) {
      const S xv = x[off[j]];
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) a[j][v] += xv * d[v];
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) store<S, V>(w.sum + (c0 + j) * od + k0 + v * s, a[j][v]);
  }
}

// A pass of n <= N window values.
template <typename S, typename V, int NV, int N>
[[gnu::always_inline]] inline void filter_pass_of(int n, const FilterBlock<S>& w, int64_t c0, int64_t k0) {
  if constexpr (N > 1) {
    if (n < N) return filter_pass_of<S, V, NV, N - 1>(n, w, c0, k0);
  }
  filter_pass<S, V, NV, N>(w, c0, k0);
}

// The whole block: passes of up to N window values over each channel block (NV vectors: kBlock channels).
template <typename S, typename V, int NV, int N>
[[gnu::always_inline]] inline void filter_block(const FilterBlock<S>& w) {
  constexpr int64_t width = NV * static_cast<int64_t>(sizeof(V) / sizeof(S));
  static_assert(width == kBlock<S>, "a pass covers one channel block");
  for (int64_t k0 = 0; k0 < w.wide; k0 += width) {
    for (int64_t c0 = 0; c0 < w.columns; c0 += N) {
      filter_pass_of<S, V, NV, N>(static_cast<int>(std::min<int64_t>(N, w.columns - c0)), w, c0, k0);
    }
  }
}

// AVX2 (the build's level): 3 window values x 4 vectors. AVX-512 (float, kernels/nn_conv_avx512.cc):
// up to 12 window values x 2 vectors of 16 floats, a 3x3 one-channel window in one pass.
template <typename S>
inline void filter_block_avx2(const FilterBlock<S>& w) {
  filter_block<S, Vec<S>, 4, kColumns>(w);
}
void filter_block_avx512(const FilterBlock<float>& w);
// The block function for this CPU.
template <typename S>
inline void (*filter_block_for())(const FilterBlock<S>&) {
  if constexpr (std::is_same_v<S, float>) {
    if (cpu::has_avx512()) return &filter_block_avx512;
  }
  return &filter_block_avx2<S>;
}

}  // namespace conv_direct_tiles
}  // namespace graphfn
