// Forward float convolution without a column matrix ("implicit GEMM"), used by kernels/nn_conv.cc
// for one group when the window holds more values than the direct loops of nn_conv_direct.h take.
//
// The im2col path wrote a column matrix (one row of window * in_depth values per output pixel),
// which OpenBLAS then copied again into its packed panels and zeroed its output first (beta = 0):
// on conv2d [32,28,28,32] * [3,3,32,64] those copies were a fifth of the CPU time. Here a tile of
// kTileRows output pixels times 16 output channels is summed in 12 vector registers straight from
// the input: for each window tap, each pixel of the tile reads its in_depth input values at a
// pointer (a row of zeros for taps in the padding), and the filter comes from a copy packed as
// 16-channel panels ([panel][tap * in_depth][16], zero-padded past out_depth).
//
// Every output value is one chain of multiply-adds in the filter's order (taps, then input
// channels), whatever tile or shard holds it, so results do not depend on the thread count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "graphfn/kernels/nn_conv_chunks.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_tiles {

// GCC vector of 8 floats (one AVX register; two SSE registers on builds without AVX).
typedef float Vec8 __attribute__((vector_size(32)));
constexpr int64_t kPanel = 16;    // output channels of a tile: two vectors
constexpr int kTileRows = 6;      // output pixels of a tile: 6 x 2 accumulators + 2 filter vectors + 1 broadcast
constexpr int64_t kTilesPerGroup = 8;  // tiles whose pointers are listed at once (48 pixels): one chunk of work

// Applies to float convolutions of one group whose window has more than conv_direct's 32 values
// (checked by the caller) and at least one full panel of output channels.
inline bool applies(const WindowLoops& L) { return L.groups == 1 && !L.pointwise && L.out_depth >= 8; }

// Always inlined: a vector passed by value has another ABI in files built without AVX (the
// Catch2 tests include this header), so no call may cross files.
[[gnu::always_inline]] inline Vec8 load8(const float* p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
[[gnu::always_inline]] inline void store8(float* p, const Vec8& v) { std::memcpy(p, &v, sizeof(v)); }

// out[r, 0:16) = sum over taps t and channels c of rows[t * kTileRows + r][c] * panel[t * cin + c, 0:16)
// for the tile's R pixels; `valid` output channels are stored (16 or fewer in the last panel).
template <int R>
inline void tile(const float* const* rows, int64_t taps, int64_t cin, const float* panel, float* out, int64_t ldo,
                 int64_t valid) {
  Vec8 a00 = Vec8{}, a01 = a00, a10 = a00, a11 = a00, a20 = a00, a21 = a00;
  Vec8 a30 = a00, a31 = a00, a40 = a00, a41 = a00, a50 = a00, a51 = a00;
  const float* f = panel;
  for (int64_t t = 0; t < taps; ++t) {
    const float* const* r = rows + t * kTileRows;
    const float *x0 = r[0], *x1 = r[R > 1 ? 1 : 0], *x2 = r[R > 2 ? 2 : 0], *x3 = r[R > 3 ? 3 : 0],
                *x4 = r[R > 4 ? 4 : 0], *x5 = r[R > 5 ? 5 : 0];
    for (int64_t c = 0; c < cin; ++c, f += kPanel) {
      const Vec8 b0 = load8(f), b1 = load8(f + 8);
      a00 += x0[c] * b0;
      a01 += x0[c] * b1;
      if (R > 1) { a10 += x1[c] * b0; a11 += x1[c] * b1; }
      if (R > 2) { a20 += x2[c] * b0; a21 += x2[c] * b1; }
      if (R > 3) { a30 += x3[c] * b0; a31 += x3[c] * b1; }
      if (R > 4) { a40 += x4[c] * b0; a41 += x4[c] * b1; }
      if (R > 5) { a50 += x5[c] * b0; a51 += x5[c] * b1; }
    }
  }
  const Vec8 acc[kTileRows][2] = {{a00, a01}, {a10, a11}, {a20, a21}, {a30, a31}, {a40, a41}, {a50, a51}};
  for (int r = 0; r < R; ++r) {
    float* o = out + r * ldo;
    if (valid == kPanel) {
      store8(o, acc[r][0]);
      store8(o + 8, acc[r][1]);
    } else {
      float buffer[kPanel];
      store8(buffer, acc[r][0]);
      store8(buffer + 8, acc[r][1]);
      std::memcpy(o, buffer, sizeof(float) * valid);
    }
  }
}

inline void tile_of(int r, const float* const* rows, int64_t taps, int64_t cin, const float* panel, float* out,
                    int64_t ldo, int64_t valid) {
  switch (r) {
    case 6: return tile<6>(rows, taps, cin, panel, out, ldo, valid);
    case 5: return tile<5>(rows, taps, cin, panel, out, ldo, valid);
    case 4: return tile<4>(rows, taps, cin, panel, out, ldo, valid);
    case 3: return tile<3>(rows, taps, cin, panel, out, ldo, valid);
    case 2: return tile<2>(rows, taps, cin, panel, out, ldo, valid);
    default: return tile<1>(rows, taps, cin, panel, out, ldo, valid);
  }
}

// out[m, :] = sum over the window of in[pixel, ci] * w[tap, ci, :] (w as [taps * in_depth, out_depth]).
inline void forward(const WindowLoops& L, const float* in, const float* w, float* out) {
  const int64_t cin = L.in_depth, od = L.out_depth, taps = L.window_size, k = L.columns;
  const int64_t panels = (od + kPanel - 1) / kPanel;
  // The filter as 16-channel panels, zero past out_depth.
  std::unique_ptr<float[]> packed(new float[static_cast<size_t>(panels * k * kPanel)]);
  for (int64_t p = 0; p < panels; ++p) {
    const int64_t n0 = p * kPanel, n = std::min(kPanel, od - n0);
    float* dst = packed.get() + p * k * kPanel;
    for (int64_t row = 0; row < k; ++row, dst += kPanel) {
      std::memcpy(dst, w + row * od + n0, sizeof(float) * n);
      std::fill(dst + n, dst + kPanel, 0.0f);
    }
  }
  const std::vector<float> zeros(static_cast<size_t>(cin), 0.0f);
  const int64_t rows = L.batch * L.out_pixels;
  const int64_t tiles = (rows + kTileRows - 1) / kTileRows;
  const float* panels_base = packed.get();
  // Chunks of kTilesPerGroup tiles, claimed by the pool's threads one at a time.
  conv_chunks::for_each_chunk(tiles, kTilesPerGroup, [&](int64_t g0, int64_t g1) {
    // Pointers of the chunk's tiles: [tile][tap][kTileRows].
    std::vector<const float*> pointers(static_cast<size_t>(kTilesPerGroup * taps * kTileRows));
    for (int64_t t = g0; t < g1; ++t) {
      const float** tile_rows = pointers.data() + (t - g0) * taps * kTileRows;
      const int64_t m0 = t * kTileRows, m1 = std::min(rows, m0 + kTileRows);
      for (int64_t m = m0; m < m1; ++m) {
        int64_t tap = 0;
        L.for_window(m, [&](int64_t pixel) {
          tile_rows[tap++ * kTileRows + (m - m0)] = pixel < 0 ? zeros.data() : in + pixel * cin;
        });
      }
    }
    for (int64_t p = 0; p < panels; ++p) {
      const int64_t n0 = p * kPanel, valid = std::min(kPanel, od - n0);
      const float* panel = panels_base + p * k * kPanel;
      for (int64_t t = g0; t < g1; ++t) {
        const int64_t m0 = t * kTileRows, r = std::min<int64_t>(kTileRows, rows - m0);
        tile_of(static_cast<int>(r), pointers.data() + (t - g0) * taps * kTileRows, taps, cin, panel,
                out + m0 * od + n0, od, valid);
      }
    }
  });
}

}  // namespace conv_tiles
}  // namespace graphfn
