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
#include <memory>
#include <type_traits>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/nn_conv_chunks.h"
#include "graphfn/kernels/nn_conv_direct_tiles.h"
#include "graphfn/kernels/nn_conv_epilogue.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_direct {

// Window values (taps * input channels) up to which the direct loops beat im2col + GEMM.
constexpr int64_t kMaxColumns = 32;
// Output rows of one chunk of work (kernels/nn_conv_chunks.h).
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
  // Every window tap's input pixel for the current row, -1 for taps in the padding (`scratch`:
  // 2 * window_size values).
  void tap_pixels(int64_t* pixels, int64_t* scratch) const {
    const int64_t origin = interior_origin();
    if (origin >= 0) {
      for (int64_t t = 0; t < L.window_size; ++t) pixels[t] = origin + offsets[t];
      return;
    }
    int64_t* taps = scratch;
    int64_t* inside = scratch + L.window_size;
    std::fill(pixels, pixels + L.window_size, int64_t{-1});
    const int64_t count = window_inside(taps, inside);
    for (int64_t j = 0; j < count; ++j) pixels[taps[j]] = inside[j];
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

// conv_direct_tiles::Vec: 32-byte vectors of GCC's vector extension (AVX registers; two SSE
// registers on builds without AVX). kVectors of them hold one block of output channels as accumulators in
// registers: with an array in memory as the accumulator, every multiply-add waited on a
// store-to-load forward, and GCC zeroed and copied it with `rep stos`/`rep movs`, whose start-up
// cost more than the 4 vector multiply-adds of a tap.
using conv_direct_tiles::load;
using conv_direct_tiles::store;
using conv_direct_tiles::Vec;
constexpr int kVectors = 4;  // (the loops below name their four vectors)
template <typename S>
constexpr int64_t kLanes = kVectors * static_cast<int64_t>(32 / sizeof(S));

// out[m, :] = sum over the window of in[pixel, ci] * w[tap, ci, :], row by row (taps in the
// padding skipped).
template <typename S>
void forward_rows(const WindowLoops& L, const S* in, const S* w, S* out) {
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth;
  constexpr int64_t lanes = kLanes<S>, step = lanes / kVectors;
  conv_chunks::for_each_chunk(rows, kRowsPerShard, [&L, in, w, out, cin, od](int64_t m0, int64_t m1) {
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

// forward_rows's sums with register tiles of conv_direct_tiles::kRows rows (nn_conv_direct_tiles.h)
// for output rows [m0, m1), written from `out` (row m0's outputs); the channels past the last
// whole block of 4 vectors row by row as there. Needs a filter of finite values (a tap in the
// padding multiplies a row of zeros).
template <typename S>
void forward_tile_rows(const WindowLoops& L, const conv_direct_tiles::PaddedInput<S>& padded, const S* w, int64_t m0,
                       int64_t m1, S* out) {
  namespace dt = conv_direct_tiles;
  const int64_t cin = L.in_depth, od = L.out_depth, taps = L.window_size;
  const int64_t k_tail = od / dt::kBlock<S> * dt::kBlock<S>;
  const int64_t* offset = padded.offset.data();
  typename dt::PaddedInput<S>::Rows r(padded, m0);
  const S* base[dt::kRows];
  for (int64_t m = m0; m < m1; m += dt::kRows) {
    const int n = static_cast<int>(std::min<int64_t>(dt::kRows, m1 - m));
    for (int i = 0; i < n; ++i, r.next()) base[i] = r.origin();
    S* o_rows = out + (m - m0) * od;
    for (int64_t k0 = 0; k0 < k_tail; k0 += dt::kBlock<S>) {
      dt::forward_tile_of<S>(n, base, offset, taps, cin, w + k0, od, o_rows + k0);
    }
    for (int i = 0; i < n && k_tail < od; ++i) {  // the channels left: the same sums, in memory
      S* o = o_rows + i * od;
      for (int64_t k = k_tail; k < od; ++k) o[k] = S(0);
      for (int64_t t = 0; t < taps; ++t) {
        const S* xv = base[i] + offset[t];
        const S* f = w + t * cin * od;
        for (int64_t ci = 0; ci < cin; ++ci, f += od) {
          for (int64_t k = k_tail; k < od; ++k) o[k] += xv[ci] * f[k];
        }
      }
    }
  }
}

// forward_tile_rows over every output row, in chunks on the pool. `epilogue` (float only) is
// applied to each chunk right after it is written.
template <typename S>
void forward_tiles(const WindowLoops& L, const S* in, const S* w, S* out, const ConvEpilogue& epilogue = ConvEpilogue()) {
  const int64_t rows = L.batch * L.out_pixels, od = L.out_depth;
  const conv_direct_tiles::PaddedInput<S> padded(L, in);
  conv_chunks::for_each_chunk(rows, kRowsPerShard, [&](int64_t m0, int64_t m1) {
    forward_tile_rows(L, padded, w, m0, m1, out + m0 * od);
    if constexpr (std::is_same_v<S, float>) epilogue.apply(out + m0 * od, m1 - m0, od);
  });
}

// Whether forward_tiles computes `L` with filter `w` (else forward_rows does).
template <typename S>
bool uses_forward_tiles(const WindowLoops& L, const S* w) {
  return L.out_depth >= conv_direct_tiles::kBlock<S> && conv_direct_tiles::all_finite(w, L.columns * L.out_depth);
}

// out[m, :] = sum over the window of in[pixel, ci] * w[tap, ci, :]: register tiles when the filter
// is finite and has a whole block of output channels, else row by row; the same bits either way.
template <typename S>
void forward(const WindowLoops& L, const S* in, const S* w, S* out, const ConvEpilogue& epilogue = ConvEpilogue()) {
  if (uses_forward_tiles(L, w)) {
    forward_tiles(L, in, w, out, epilogue);
  } else {
    forward_rows(L, in, w, out);
    if constexpr (std::is_same_v<S, float>) epilogue.apply_all(out, L.batch * L.out_pixels, L.out_depth);
  }
}

// Columns (window values) whose filter-gradient sums one pass keeps in vector registers.
constexpr int kColumnsPerPass = 12;
// Rows of dy (and of the column passes) handled together: 128 rows of 32 floats are 16 KB.
constexpr int64_t kRowBlock = 128;

// dw[tap, ci, k0:k0+8) += sum over rows [m0, m1) of in[pixel(tap), ci] * dy[m, k0:k0+8), for the
// N columns from c0 (N <= kColumnsPerPass): one accumulator register per column (constant
// indices only, so GCC keeps them in registers), the rows walked once per pass. Taps in the
// padding are skipped, as in a row-by-row loop.
template <typename S, int N>
void backprop_filter_pass(const WindowLoops& L, const S* in, const S* dy, int64_t m0, int64_t m1, int64_t c0,
                          int64_t k0, S* sum) {
  const int64_t cin = L.in_depth, od = L.out_depth;
  RowWalker r(L, m0);
  int64_t tap_of[N], ci_of[N], offset_of[N];  // offset_of: the column's value from an interior window's origin
  Vec<S> a[N];
#pragma GCC unroll 12
  for (int j = 0; j < N; ++j) {
    tap_of[j] = (c0 + j) / cin;
    ci_of[j] = (c0 + j) % cin;
    offset_of[j] = r.offsets[tap_of[j]] * cin + ci_of[j];
    a[j] = load(sum + (c0 + j) * od + k0);
  }
  std::vector<int64_t> pixels(static_cast<size_t>(3 * L.window_size));
  int64_t* px = pixels.data();
  for (int64_t m = m0; m < m1; ++m, r.next()) {
    const Vec<S> g = load(dy + m * od + k0);
    const int64_t origin = r.interior_origin();
    if (origin >= 0) {  // the whole window inside: fixed offsets from one base
      const S* x = in + origin * cin;
#pragma GCC unroll 12
      for (int j = 0; j < N; ++j) a[j] += x[offset_of[j]] * g;
      continue;
    }
    r.tap_pixels(px, px + L.window_size);
#pragma GCC unroll 12
    for (int j = 0; j < N; ++j) {
      const int64_t pixel = px[tap_of[j]];
      if (pixel >= 0) a[j] += in[pixel * cin + ci_of[j]] * g;
    }
  }
#pragma GCC unroll 12
  for (int j = 0; j < N; ++j) store(sum + (c0 + j) * od + k0, a[j]);
}

template <typename S>
void backprop_filter_pass_of(int n, const WindowLoops& L, const S* in, const S* dy, int64_t m0, int64_t m1,
                             int64_t c0, int64_t k0, S* sum) {
  switch (n) {
    case 12: return backprop_filter_pass<S, 12>(L, in, dy, m0, m1, c0, k0, sum);
    case 11: return backprop_filter_pass<S, 11>(L, in, dy, m0, m1, c0, k0, sum);
    case 10: return backprop_filter_pass<S, 10>(L, in, dy, m0, m1, c0, k0, sum);
    case 9: return backprop_filter_pass<S, 9>(L, in, dy, m0, m1, c0, k0, sum);
    case 8: return backprop_filter_pass<S, 8>(L, in, dy, m0, m1, c0, k0, sum);
    case 7: return backprop_filter_pass<S, 7>(L, in, dy, m0, m1, c0, k0, sum);
    case 6: return backprop_filter_pass<S, 6>(L, in, dy, m0, m1, c0, k0, sum);
    case 5: return backprop_filter_pass<S, 5>(L, in, dy, m0, m1, c0, k0, sum);
    case 4: return backprop_filter_pass<S, 4>(L, in, dy, m0, m1, c0, k0, sum);
    case 3: return backprop_filter_pass<S, 3>(L, in, dy, m0, m1, c0, k0, sum);
    case 2: return backprop_filter_pass<S, 2>(L, in, dy, m0, m1, c0, k0, sum);
    default: return backprop_filter_pass<S, 1>(L, in, dy, m0, m1, c0, k0, sum);
  }
}

// dw[tap, ci, :] = sum over rows of in[pixel, ci] * dy[m, :]. The rows are cut into a fixed
// number of parts (from the sizes, not the threads), each summed on its own, then added in order.
// Within a part every element is summed over the rows in order (skipping taps in the padding):
// blocks of 32 float (16 double) channels in register tiles (nn_conv_direct_tiles.h; when the
// result is not finite, everything again without them), the other whole 8-channel (4-double)
// blocks in registers a pass of up to 12 columns at a time, the channels past the last block row
// by row in memory.
// `tiles` false keeps to the passes (the tests compare the two); `block_tiles` picks the tiles'
// instruction set (default: this CPU's, conv_direct_tiles::filter_block_for).
template <typename S>
void backprop_filter(const WindowLoops& L, const S* in, const S* dy, S* dw, bool tiles = true,
                     void (*block_tiles)(const conv_direct_tiles::FilterBlock<S>&) = nullptr) {
  if (block_tiles == nullptr) block_tiles = conv_direct_tiles::filter_block_for<S>();
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth;
  const int64_t size = L.columns * od;
  constexpr int64_t kMaxParts = 8;
  constexpr int64_t step = 32 / sizeof(S);
  const int64_t parts = std::clamp<int64_t>(rows / kRowsPerShard, 1, kMaxParts);
  const int64_t blocks = od / step, k0_tail = blocks * step;
  const int64_t wide = od / conv_direct_tiles::kBlock<S> * conv_direct_tiles::kBlock<S>;  // channels in 4-vector blocks
  std::vector<S> partials(static_cast<size_t>((parts - 1) * size), S(0));
  std::fill(dw, dw + size, S(0));
  // The input with its padding written out, for the register tiles (none without a whole block).
  std::unique_ptr<const conv_direct_tiles::PaddedInput<S>> padded;
  if (tiles && wide > 0) padded.reset(new conv_direct_tiles::PaddedInput<S>(L, in));
  // Each window value's offset from a row's window origin in the padded input.
  std::vector<int64_t> off(static_cast<size_t>(L.columns));
  for (int64_t c = 0; c < L.columns && padded; ++c) off[c] = padded->offset[c / cin] + c % cin;
  // One chunk per part. Its rows go in blocks small enough for their dy rows to stay in the L1
  // cache while every (channel block, column pass) runs over them (a pass over all the rows
  // each read dy from memory once per channel block).
  conv_chunks::for_each_chunk(parts, 1, [&](int64_t part, int64_t) {
    S* sum = part == 0 ? dw : partials.data() + (part - 1) * size;
    const int64_t m0 = part * rows / parts, m1 = (part + 1) * rows / parts;
    std::vector<const S*> origin(static_cast<size_t>(kRowBlock));
    std::unique_ptr<typename conv_direct_tiles::PaddedInput<S>::Rows> walk;
    if (padded) walk.reset(new typename conv_direct_tiles::PaddedInput<S>::Rows(*padded, m0));
    for (int64_t b0 = m0; b0 < m1; b0 += kRowBlock) {
      const int64_t b1 = std::min(m1, b0 + kRowBlock);
      int64_t first = 0;  // the first 8-channel block left to the passes below
      if (walk) {
        // Register tiles over the block's rows, reading the window values from the padded
        // input (nn_conv_direct_tiles.h): the same sums as the passes below.
        for (int64_t m = b0; m < b1; ++m, walk->next()) origin[m - b0] = walk->origin();
        const conv_direct_tiles::FilterBlock<S> work{origin.data(), off.data(), b1 - b0, L.columns, od, wide,
                                                     dy + b0 * od, sum};
        block_tiles(work);
        first = wide / step;
      }
      for (int64_t block = first; block < blocks; ++block) {
        for (int64_t c0 = 0; c0 < L.columns; c0 += kColumnsPerPass) {
          const int count = static_cast<int>(std::min<int64_t>(kColumnsPerPass, L.columns - c0));
          backprop_filter_pass_of<S>(count, L, in, dy, b0, b1, c0, block * step, sum);
        }
      }
    }
    if (k0_tail == od) return;
    std::vector<int64_t> taps(static_cast<size_t>(L.window_size)), pixels(taps.size());
    RowWalker r(L, m0);
    for (int64_t m = m0; m < m1; ++m, r.next()) {  // the channels past the last whole block
      const int64_t count = r.window_taps(taps.data(), pixels.data());
      const S* g = dy + m * od;
      for (int64_t j = 0; j < count; ++j) {
        const S* x = in + pixels[j] * cin;
        S* f = sum + taps[j] * cin * od;
        for (int64_t ci = 0; ci < cin; ++ci, f += od) {
          const S xv = x[ci];
          for (int64_t k = k0_tail; k < od; ++k) f[k] += xv * g[k];
        }
      }
    }
  });
  for (int64_t part = 1; part < parts; ++part) {
    const S* partial = partials.data() + (part - 1) * size;
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[i];
  }
  // An inf or NaN in dy makes some sum inf or NaN on the tiles, which added 0 * dy for the taps
  // in the padding: then the passes alone, which skip those taps as TF does. (Checking dy
  // before each block had cost a fifth of the one-channel filter gradient.)
  if (padded && !conv_direct_tiles::all_finite(dw, size)) backprop_filter(L, in, dy, dw, false);
}

}  // namespace conv_direct
}  // namespace graphfn
