// Forward float convolution without a column matrix ("implicit GEMM"), used by kernels/nn_conv.cc
// for one group when the window holds more values than the direct loops of nn_conv_direct.h take.
//
// The im2col path wrote a column matrix (one row of window * in_depth values per output pixel),
// which OpenBLAS then copied again into its packed panels and zeroed its output first (beta = 0):
// on conv2d [32,28,28,32] * [3,3,32,64] those copies were a fifth of the CPU time. Here a tile of
// R output pixels times a panel of P vectors of output channels is summed in R x P vector
// registers straight from the input: for each window tap, each pixel of the tile reads its
// in_depth input values at a pointer (a row of zeros for taps in the padding), and the filter
// comes from a copy packed as panels ([panel][tap * in_depth][P * lanes], zero-padded past
// out_depth).
//
// Two tile shapes (TileShape): on the build's AVX2, 6 pixels x 16 channels in 12 of the 16 ymm
// registers; on CPUs with AVX-512 (kernels/nn_conv_avx512.cc, chosen at run time by
// cpu::has_avx512()), 6 pixels x 64 channels (or 12 x 32 for narrower outputs) in 24 of the 32 zmm
// registers, where each loaded filter vector and broadcast input value feeds twice the
// multiply-adds (TF's oneDNN runs AVX-512 kernels there: 4.4 ms against 5.1 ms for the AVX2
// tiles on the convnet's conv2, one thread).
//
// Every output value is one chain of multiply-adds in the filter's order (taps, then input
// channels), whatever tile shape, tile or shard holds it, so results do not depend on the thread
// count, and the AVX2 and AVX-512 tiles give the same bits.
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
// GCC vector of 16 floats: used only inside the AVX-512 variants (always inlined there).
typedef float Vec16 __attribute__((vector_size(64)));
constexpr int64_t kPanel = 16;    // output channels of an AVX2 tile: two vectors (also conv_filter_tiles's)
constexpr int64_t kChunkPixels = 48;  // output pixels whose pointers are listed at once: one chunk of work

// Applies to float convolutions of one group whose window has more than conv_direct's 32 values
// (checked by the caller) and at least one full panel of output channels.
inline bool applies(const WindowLoops& L) { return L.groups == 1 && !L.pointwise && L.out_depth >= 8; }

template <typename V>
constexpr int64_t kLanes = static_cast<int64_t>(sizeof(V) / sizeof(float));

// Always inlined: a vector passed by value has another ABI in files built without AVX (the
// Catch2 tests include this header), so no call may cross files.
template <typename V>
[[gnu::always_inline]] inline V load(const float* p) {
  V v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
template <typename V>
[[gnu::always_inline]] inline void store(float* p, const V& v) {
  std::memcpy(p, &v, sizeof(v));
}
[[gnu::always_inline]] inline Vec8 load8(const float* p) { return load<Vec8>(p); }
[[gnu::always_inline]] inline void store8(float* p, const Vec8& v) { store<Vec8>(p, v); }

// out[r, 0:width) = sum over taps t and channels c of rows[t * stride + r][c] * panel[t * cin + c, 0:width)
// for the tile's R pixels (width = P vectors); `valid` output channels are stored (width or fewer
// in the last panel). The accumulators are an array indexed by constants only, fully unrolled,
// so GCC keeps them in registers.
template <typename V, int P, int R>
[[gnu::always_inline]] inline void tile(const float* const* rows, int64_t stride, int64_t taps, int64_t cin,
                                        const float* panel, float* out, int64_t ldo, int64_t valid) {
  constexpr int64_t lanes = kLanes<V>, width = P * lanes;
  V acc[R][P];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) acc[r][p] = V{};
  }
  const float* f = panel;
  for (int64_t t = 0; t < taps; ++t) {
    const float* const* x = rows + t * stride;
    for (int64_t c = 0; c < cin; ++c, f += width) {
      V b[P];
#pragma GCC unroll 4
      for (int p = 0; p < P; ++p) b[p] = load<V>(f + p * lanes);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const float v = x[r][c];
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) acc[r][p] += v * b[p];
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    float* o = out + r * ldo;
    if (valid == width) {
#pragma GCC unroll 4
      for (int p = 0; p < P; ++p) store<V>(o + p * lanes, acc[r][p]);
    } else {
      float buffer[width];
#pragma GCC unroll 4
      for (int p = 0; p < P; ++p) store<V>(buffer + p * lanes, acc[r][p]);
      std::memcpy(o, buffer, sizeof(float) * valid);
    }
  }
}

// One chunk of work: output pixels [m0, m0 + n) times every panel. pointers: [tile][tap][rows]
// (tiles of `rows` pixels; the last may hold fewer).
struct ChunkWork {
  const float* const* pointers;
  int64_t m0, n, rows, taps, cin, od, panels, panel_width;
  const float* packed;  // [panel][taps * cin][panel_width]
  float* out;
};

// The chunk's tiles: whole tiles of R pixels, the pixels of a last partial tile one at a time
// (the same sums).
template <typename V, int P, int R>
[[gnu::always_inline]] inline void run_chunk(const ChunkWork& w) {
  constexpr int64_t width = P * kLanes<V>;
  const int64_t k = w.taps * w.cin;
  for (int64_t p = 0; p < w.panels; ++p) {
    const int64_t n0 = p * width, valid = std::min(width, w.od - n0);
    const float* panel = w.packed + p * k * width;
    for (int64_t i = 0; i < w.n; i += R) {
      const float* const* rows = w.pointers + i * w.taps;
      float* out = w.out + (w.m0 + i) * w.od + n0;
      if (i + R <= w.n) {
        tile<V, P, R>(rows, R, w.taps, w.cin, panel, out, w.od, valid);
      } else {
        for (int64_t j = 0; i + j < w.n; ++j) tile<V, P, 1>(rows + j, R, w.taps, w.cin, panel, out + j * w.od, w.od, valid);
      }
    }
  }
}

// A tile shape and the function that runs a chunk with it.
struct TileShape {
  int64_t panel_width;  // output channels of a panel
  int rows;             // output pixels of a tile
  void (*run)(const ChunkWork&);
};

inline void run_chunk_avx2(const ChunkWork& w) { run_chunk<Vec8, 2, 6>(w); }
inline TileShape avx2_shape() { return {16, 6, &run_chunk_avx2}; }
// The AVX-512 shapes for out_depth output channels (kernels/nn_conv_avx512.cc); only on CPUs
// with AVX-512.
TileShape avx512_shape(int64_t out_depth);
// The shape for this CPU (AVX-512 unless cpu::has_avx512() says no).
TileShape shape_for(int64_t out_depth);

// out[m, :] = sum over the window of in[pixel, ci] * w[tap, ci, :] (w as [taps * in_depth, out_depth]),
// in tiles of the given shape.
inline void forward_with(const TileShape& shape, const WindowLoops& L, const float* in, const float* w, float* out) {
  const int64_t cin = L.in_depth, od = L.out_depth, taps = L.window_size, k = L.columns;
  const int64_t width = shape.panel_width, R = shape.rows;
  const int64_t panels = (od + width - 1) / width;
  // The filter as panels, zero past out_depth.
  std::unique_ptr<float[]> packed(new float[static_cast<size_t>(panels * k * width)]);
  for (int64_t p = 0; p < panels; ++p) {
    const int64_t n0 = p * width, n = std::min(width, od - n0);
    float* dst = packed.get() + p * k * width;
    for (int64_t row = 0; row < k; ++row, dst += width) {
      std::memcpy(dst, w + row * od + n0, sizeof(float) * n);
      std::fill(dst + n, dst + width, 0.0f);
    }
  }
  const std::vector<float> zeros(static_cast<size_t>(cin), 0.0f);
  const int64_t rows = L.batch * L.out_pixels;
  const int64_t chunk = (kChunkPixels + R - 1) / R * R;  // whole tiles
  // Chunks of pixels, claimed by the pool's threads one at a time.
  conv_chunks::for_each_chunk(rows, chunk, [&](int64_t m0, int64_t m1) {
    // Pointers of the chunk's tiles: [tile][tap][R].
    std::vector<const float*> pointers(static_cast<size_t>(chunk * taps));
    for (int64_t m = m0; m < m1; ++m) {
      const int64_t i = m - m0;
      const float** tile_rows = pointers.data() + (i / R) * R * taps + i % R;
      int64_t tap = 0;
      L.for_window(m, [&](int64_t pixel) { tile_rows[tap++ * R] = pixel < 0 ? zeros.data() : in + pixel * cin; });
    }
    const ChunkWork work{pointers.data(), m0, m1 - m0, R, taps, cin, od, panels, width, packed.get(), out};
    shape.run(work);
  });
}

inline void forward(const WindowLoops& L, const float* in, const float* w, float* out) {
  forward_with(shape_for(L.out_depth), L, in, w, out);
}

}  // namespace conv_tiles
}  // namespace graphfn
