// Direct loops for convolutions whose window holds few values (window * input channels <= 32,
// e.g. a 3x3 filter over a 1-channel image): there the column matrix of im2col is narrow, so
// building it and handing it to a GEMM costs far more than the multiply-adds themselves (a 3x3
// 1->32 conv over [64, 28, 28, 1]: 3.8 ms with im2col + sgemm, ~0.5 ms this way). Used by
// kernels/nn_conv.cc for one group, float and double.
//
// Every output value is summed in the filter's order (taps, then input channels), whatever
// range of rows a thread gets, so results do not depend on the thread count. Window positions in
// the padding are skipped (they would add zero times the filter).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_direct {

// Window values (taps * input channels) up to which the direct loops beat im2col + GEMM.
constexpr int64_t kMaxColumns = 32;
// Output rows one shard takes at least.
constexpr int64_t kRowsPerShard = 512;

inline bool applies(const WindowLoops& L) { return L.groups == 1 && L.columns <= kMaxColumns; }

// Walks output rows m0, m0 + 1, ... keeping the output coordinates without a division per row.
struct RowWalker {
  const WindowLoops& L;
  int64_t b, o0, o1, o2;
  std::vector<int64_t> offsets;  // each tap's input pixel relative to the window's first
  RowWalker(const WindowLoops& loops, int64_t m) : L(loops) {
    b = m / L.out_pixels;
    int64_t p = m % L.out_pixels;
    o2 = p % L.out[2];
    p /= L.out[2];
    o1 = p % L.out[1];
    o0 = p / L.out[1];
    for (int64_t f0 = 0; f0 < L.window[0]; ++f0) {
      for (int64_t f1 = 0; f1 < L.window[1]; ++f1) {
        for (int64_t f2 = 0; f2 < L.window[2]; ++f2) {
          offsets.push_back(((f0 * L.dilation[0]) * L.in[1] + f1 * L.dilation[1]) * L.in[2] + f2 * L.dilation[2]);
        }
      }
    }
  }
  // The input pixel of the current window's first tap when the whole window lies inside the
  // input (then tap t reads that pixel + offsets[t]), else -1.
  int64_t interior_origin() const {
    const int64_t i0 = o0 * L.stride[0] - L.pad[0], i1 = o1 * L.stride[1] - L.pad[1];
    const int64_t i2 = o2 * L.stride[2] - L.pad[2];
    if (i0 < 0 || i1 < 0 || i2 < 0 || i0 + (L.window[0] - 1) * L.dilation[0] >= L.in[0] ||
        i1 + (L.window[1] - 1) * L.dilation[1] >= L.in[1] || i2 + (L.window[2] - 1) * L.dilation[2] >= L.in[2]) {
      return -1;
    }
    return b * L.in_pixels + (i0 * L.in[1] + i1) * L.in[2] + i2;
  }
  void next() {
    if (++o2 < L.out[2]) return;
    o2 = 0;
    if (++o1 < L.out[1]) return;
    o1 = 0;
    if (++o0 < L.out[0]) return;
    o0 = 0;
    ++b;
  }
  // The current row's window taps that fall inside the input, in the filter's order, and their
  // input pixels; returns how many. A window wholly inside takes the precomputed offsets.
  int64_t window_taps(int64_t* taps, int64_t* pixels) const {
    const int64_t origin = interior_origin();
    if (origin < 0) return window_inside(taps, pixels);
    for (int64_t t = 0; t < L.window_size; ++t) {
      taps[t] = t;
      pixels[t] = origin + offsets[t];
    }
    return L.window_size;
  }
  // The window positions of the current row inside the input, in the filter's order: their
  // filter taps and input pixels. Returns how many (at most window_size).
  int64_t window_inside(int64_t* taps, int64_t* pixels) const {
    const int64_t base = b * L.in_pixels;
    int64_t count = 0, tap = 0;
    for (int64_t f0 = 0; f0 < L.window[0]; ++f0) {
      const int64_t i0 = o0 * L.stride[0] - L.pad[0] + f0 * L.dilation[0];
      if (i0 < 0 || i0 >= L.in[0]) {
        tap += L.window[1] * L.window[2];
        continue;
      }
      for (int64_t f1 = 0; f1 < L.window[1]; ++f1) {
        const int64_t i1 = o1 * L.stride[1] - L.pad[1] + f1 * L.dilation[1];
        if (i1 < 0 || i1 >= L.in[1]) {
          tap += L.window[2];
          continue;
        }
        for (int64_t f2 = 0; f2 < L.window[2]; ++f2, ++tap) {
          const int64_t i2 = o2 * L.stride[2] - L.pad[2] + f2 * L.dilation[2];
          if (i2 >= 0 && i2 < L.in[2]) {
            taps[count] = tap;
            pixels[count++] = base + (i0 * L.in[1] + i1) * L.in[2] + i2;
          }
        }
      }
    }
    return count;
  }
};

// 32-byte vectors of GCC's vector extension (AVX registers; two SSE registers on builds
// without AVX). kVectors of them hold one block of output channels as accumulators in
// registers: with an array in memory as the accumulator, every multiply-add waited on a
// store-to-load forward, and GCC zeroed and copied it with `rep stos`/`rep movs`, whose start-up
// cost more than the 4 vector multiply-adds of a tap.
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
constexpr int kVectors = 4;  // (the loops below name their four vectors)
template <typename S>
constexpr int64_t kLanes = kVectors * static_cast<int64_t>(32 / sizeof(S));

template <typename S>
inline Vec<S> load(const S* p) {
  Vec<S> v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
template <typename S>
inline void store(S* p, const Vec<S>& v) {
  std::memcpy(p, &v, sizeof(v));
}

// out[m, :] = sum over the window of in[pixel, ci] * w[tap, ci, :].
template <typename S>
void forward(const WindowLoops& L, const S* in, const S* w, S* out) {
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth;
  constexpr int64_t lanes = kLanes<S>, step = lanes / kVectors;
  parallel_for(rows, kRowsPerShard, [&L, in, w, out, cin, od](int64_t m0, int64_t m1) {
    std::vector<int64_t> taps(static_cast<size_t>(L.window_size)), pixels(taps.size());
    RowWalker r(L, m0);
    for (int64_t m = m0; m < m1; ++m, r.next()) {
      const int64_t count = r.window_taps(taps.data(), pixels.data());
      S* o = out + m * od;
      int64_t k0 = 0;
      for (; k0 + lanes <= od; k0 += lanes) {  // whole blocks: accumulators in registers
        Vec<S> a0 = Vec<S>{}, a1 = a0, a2 = a0, a3 = a0;  // named: an array was zeroed with `rep stos`
        for (int64_t j = 0; j < count; ++j) {
          const S* x = in + pixels[j] * cin;
          const S* f = w + taps[j] * cin * od + k0;
          for (int64_t ci = 0; ci < cin; ++ci, f += od) {
            const S xv = x[ci];
            a0 += xv * load(f);
            a1 += xv * load(f + step);
            a2 += xv * load(f + 2 * step);
            a3 += xv * load(f + 3 * step);
          }
        }
        store(o + k0, a0);
        store(o + k0 + step, a1);
        store(o + k0 + 2 * step, a2);
        store(o + k0 + 3 * step, a3);
      }
      if (k0 == od) continue;
      for (int64_t k = k0; k < od; ++k) o[k] = S(0);  // the channels left: the same sums, in memory
      for (int64_t j = 0; j < count; ++j) {
        const S* x = in + pixels[j] * cin;
        const S* f = w + taps[j] * cin * od;
        for (int64_t ci = 0; ci < cin; ++ci, f += od) {
          const S xv = x[ci];
          for (int64_t k = k0; k < od; ++k) o[k] += xv * f[k];
        }
      }
    }
  });
}

// dw[tap, ci, :] = sum over rows of in[pixel, ci] * dy[m, :]. The rows are cut into a fixed
// number of parts (from the sizes, not the threads), each summed on its own, then added in order.
template <typename S>
void backprop_filter(const WindowLoops& L, const S* in, const S* dy, S* dw) {
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth;
  const int64_t size = L.columns * od;
  constexpr int64_t kMaxParts = 8;
  constexpr int64_t lanes = kLanes<S>, step = lanes / kVectors;
  const int64_t parts = std::clamp<int64_t>(rows / kRowsPerShard, 1, kMaxParts);
  std::vector<S> partials(static_cast<size_t>((parts - 1) * size), S(0));
  std::fill(dw, dw + size, S(0));
  parallel_for(parts, 1, [&L, &partials, in, dy, dw, cin, od, rows, parts, size](int64_t p0, int64_t p1) {
    std::vector<int64_t> taps(static_cast<size_t>(L.window_size)), pixels(taps.size());
    for (int64_t part = p0; part < p1; ++part) {
      S* sum = part == 0 ? dw : partials.data() + (part - 1) * size;
      const int64_t m0 = part * rows / parts, m1 = (part + 1) * rows / parts;
      RowWalker r(L, m0);
      for (int64_t m = m0; m < m1; ++m, r.next()) {
        const int64_t count = r.window_taps(taps.data(), pixels.data());
        const S* g = dy + m * od;
        int64_t k0 = 0;
        for (; k0 + lanes <= od; k0 += lanes) {
          const Vec<S> g0 = load(g + k0), g1 = load(g + k0 + step), g2 = load(g + k0 + 2 * step),
                       g3 = load(g + k0 + 3 * step);
          for (int64_t j = 0; j < count; ++j) {
            const S* x = in + pixels[j] * cin;
            S* f = sum + taps[j] * cin * od + k0;
            for (int64_t ci = 0; ci < cin; ++ci, f += od) {
              const S xv = x[ci];
              store(f, load(f) + xv * g0);
              store(f + step, load(f + step) + xv * g1);
              store(f + 2 * step, load(f + 2 * step) + xv * g2);
              store(f + 3 * step, load(f + 3 * step) + xv * g3);
            }
          }
        }
        for (int64_t j = 0; k0 < od && j < count; ++j) {
          const S* x = in + pixels[j] * cin;
          S* f = sum + taps[j] * cin * od;
          for (int64_t ci = 0; ci < cin; ++ci, f += od) {
            const S xv = x[ci];
            for (int64_t k = k0; k < od; ++k) f[k] += xv * g[k];
          }
        }
      }
    }
  });
  for (int64_t part = 1; part < parts; ++part) {
    const S* partial = partials.data() + (part - 1) * size;
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[i];
  }
}

}  // namespace conv_direct
}  // namespace graphfn
