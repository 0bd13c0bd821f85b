// The float filter gradient of a convolution (one group, windows of more values than the direct
// loops of nn_conv_direct.h take) without a column matrix, used by kernels/nn_conv.cc.
//
// im2col + sgemm wrote a column matrix per block of rows, which OpenBLAS copied again into its
// packed panels: on the convnet's second layer ([64, 14, 14, 32] * [3, 3, 32, 64]) the copies
// were a fifth of its 6.4 ms. Here
//   dw[tap, ci, co] = sum over rows m of x[window origin of m + offset of tap, ci] * dy[m, co]
// is summed in register tiles of 6 window values (one tap, 6 input channels) x 16 output
// channels, reading x from a copy of the input with the padding written out as zeros
// (conv_direct_tiles::PaddedInput) and dy from a block of 128 rows packed as 16-channel panels.
//
// Order of the sums: the rows are cut into a fixed number of parts (from the sizes, not the
// threads); within a part every element is one chain of multiply-adds over its rows in order,
// and the parts are added in order, so the thread count never changes a bit. A tap in the
// padding adds 0 * dy, the same bits as skipping it while dy is finite; a block of rows whose
// dy holds inf or NaN is summed row by row skipping those taps instead, as TF does (it adds
// nothing there, not 0 * inf).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "graphfn/kernels/nn_conv_chunks.h"
#include "graphfn/kernels/nn_conv_direct_tiles.h"
#include "graphfn/kernels/nn_conv_tiles.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_filter_tiles {

using conv_tiles::kPanel;  // output channels of a tile: two vectors
using conv_tiles::load8;
using conv_tiles::store8;
using conv_tiles::Vec8;
constexpr int kTileValues = 6;        // window values of a tile: 6 x 2 accumulators
constexpr int64_t kRowBlock = 128;    // rows whose dy panel (128 x 16 floats: 8 KB) stays in the L1 cache
constexpr int64_t kRowsPerPart = 1024;
constexpr int64_t kMaxParts = 8;

inline bool applies(const WindowLoops& L) { return L.groups == 1 && !L.pointwise; }

// sum[r * od + 0:valid) += sum over rows i < n of origin[i][offset + r] * panel[i * 16 + 0:valid) for r < R.
template <int R>
inline void tile(const float* const* origin, int64_t n, int64_t offset, const float* panel, float* sum, int64_t od,
                 int64_t valid) {
  // The sums so far: straight from sum for a whole panel, through a zero-filled buffer for the last.
  float buffer[kTileValues][kPanel];
  const bool whole = valid == kPanel;
  const float* from[kTileValues];
  for (int r = 0; r < R; ++r) {
    if (whole) {
      from[r] = sum + r * od;
    } else {
      std::fill(buffer[r], buffer[r] + kPanel, 0.0f);
      for (int64_t k = 0; k < valid; ++k) buffer[r][k] = sum[r * od + k];
      from[r] = buffer[r];
    }
  }
  for (int r = R; r < kTileValues; ++r) from[r] = from[0];
  Vec8 a00 = load8(from[0]), a01 = load8(from[0] + 8), a10 = load8(from[1]), a11 = load8(from[1] + 8);
  Vec8 a20 = load8(from[2]), a21 = load8(from[2] + 8), a30 = load8(from[3]), a31 = load8(from[3] + 8);
  Vec8 a40 = load8(from[4]), a41 = load8(from[4] + 8), a50 = load8(from[5]), a51 = load8(from[5] + 8);
  for (int64_t i = 0; i < n; ++i, panel += kPanel) {
    const float* x = origin[i] + offset;
    const Vec8 d0 = load8(panel), d1 = load8(panel + 8);
    a00 += x[0] * d0;
    a01 += x[0] * d1;
    if (R > 1) { a10 += x[1] * d0; a11 += x[1] * d1; }
    if (R > 2) { a20 += x[2] * d0; a21 += x[2] * d1; }
    if (R > 3) { a30 += x[3] * d0; a31 += x[3] * d1; }
    if (R > 4) { a40 += x[4] * d0; a41 += x[4] * d1; }
    if (R > 5) { a50 += x[5] * d0; a51 += x[5] * d1; }
  }
  const Vec8 acc[kTileValues][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}, {a40, a41}, {a50, a51}};
  for (int r = 0; r < R; ++r) {
    if (whole) {
      store8(sum + r * od, acc[r][0]);
      store8(sum + r * od + 8, acc[r][1]);
    } else {
      store8(buffer[r], acc[r][0]);
      store8(buffer[r] + 8, acc[r][1]);
      for (int64_t k = 0; k < valid; ++k) sum[r * od + k] = buffer[r][k];
    }
  }
}

inline void tile_of(int r, const float* const* origin, int64_t n, int64_t offset, const float* panel, float* sum,
                    int64_t od, int64_t valid) {
  switch (r) {
    case 6: return tile<6>(origin, n, offset, panel, sum, od, valid);
    case 5: return tile<5>(origin, n, offset, panel, sum, od, valid);
    case 4: return tile<4>(origin, n, offset, panel, sum, od, valid);
    case 3: return tile<3>(origin, n, offset, panel, sum, od, valid);
    case 2: return tile<2>(origin, n, offset, panel, sum, od, valid);
    default: return tile<1>(origin, n, offset, panel, sum, od, valid);
  }
}

// Rows [m0, m1) added into sum row by row, skipping the taps in the padding (dy not finite).
inline void rows_skipping_padding(const WindowLoops& L, const float* in, const float* dy, int64_t m0, int64_t m1,
                                  float* sum) {
  const int64_t cin = L.in_depth, od = L.out_depth;
  for (int64_t m = m0; m < m1; ++m) {
    const float* g = dy + m * od;
    int64_t tap = 0;
    L.for_window(m, [&](int64_t pixel) {
      if (pixel >= 0) {
        const float* x = in + pixel * cin;
        float* f = sum + tap * cin * od;
        for (int64_t ci = 0; ci < cin; ++ci, f += od) {
          for (int64_t k = 0; k < od; ++k) f[k] += x[ci] * g[k];
        }
      }
      ++tap;
    });
  }
}

// dw = the filter gradient (dw: [taps * in_depth, out_depth], overwritten).
inline void backprop_filter(const WindowLoops& L, const float* in, const float* dy, float* dw) {
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth, taps = L.window_size;
  const int64_t size = L.columns * od, panels = (od + kPanel - 1) / kPanel;
  const int64_t chunks = (cin + kTileValues - 1) / kTileValues;
  const int64_t parts = std::clamp<int64_t>(rows / kRowsPerPart, 1, kMaxParts);
  std::fill(dw, dw + size, 0.0f);
  if (rows == 0) return;
  const conv_direct_tiles::PaddedInput<float> padded(L, in);
  std::vector<float> partials(static_cast<size_t>((parts - 1) * size), 0.0f);
  conv_chunks::for_each_chunk(parts, 1, [&](int64_t part, int64_t) {
    float* sum = part == 0 ? dw : partials.data() + (part - 1) * size;
    const int64_t m0 = part * rows / parts, m1 = (part + 1) * rows / parts;
    std::unique_ptr<float[]> packed(new float[static_cast<size_t>(panels * kRowBlock * kPanel)]);
    const float* origin[kRowBlock];
    conv_direct_tiles::PaddedInput<float>::Rows walk(padded, m0);
    for (int64_t b0 = m0; b0 < m1; b0 += kRowBlock) {
      const int64_t n = std::min(kRowBlock, m1 - b0);
      if (!conv_direct_tiles::all_finite(dy + b0 * od, n * od)) {
        rows_skipping_padding(L, in, dy, b0, b0 + n, sum);
        for (int64_t i = 0; i < n; ++i) walk.next();
        continue;
      }
      for (int64_t i = 0; i < n; ++i, walk.next()) origin[i] = walk.origin();
      for (int64_t p = 0; p < panels; ++p) {  // dy's rows as 16-channel panels, zeros past od
        const int64_t c0 = p * kPanel, valid = std::min(kPanel, od - c0);
        float* dst = packed.get() + p * n * kPanel;
        for (int64_t i = 0; i < n; ++i, dst += kPanel) {
          const float* src = dy + (b0 + i) * od + c0;
          for (int64_t k = 0; k < kPanel; ++k) dst[k] = k < valid ? src[k] : 0.0f;
        }
      }
      // A panel of dy at a time (it stays in the L1 cache with the block's input rows); the
      // input channels in `chunks` near-equal tiles (32 as 6, 6, 5, 5, 5, 5 rather than 6 x 5 + 2).
      for (int64_t p = 0; p < panels; ++p) {
        const int64_t c0 = p * kPanel, valid = std::min(kPanel, od - c0);
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t j = 0, ci = 0; j < chunks; ++j) {
            const int r = static_cast<int>((cin - ci) / (chunks - j));
            tile_of(r, origin, n, padded.offset[t] + ci, packed.get() + p * n * kPanel, sum + (t * cin + ci) * od + c0,
                    od, valid);
            ci += r;
          }
        }
      }
    }
  });
  for (int64_t part = 1; part < parts; ++part) {
    const float* partial = partials.data() + (part - 1) * size;
    for (int64_t i = 0; i < size; ++i) dw[i] += partial[i];
  }
}

}  // namespace conv_filter_tiles
}  // namespace graphfn
