// Winograd's minimal filtering F(2x2, 3x3) for float 3x3 convolutions with unit strides and
// dilations (one group), used by kernels/nn_conv.cc for the forward pass and, through
// backprop_input_as_forward, for the input gradient.
//
// A direct 3x3 convolution makes 9 multiply-adds per input channel for each output pixel; here a
// 2x2 block of output pixels (a "tile") takes 16 per input channel, 2.25 times fewer:
//   - the filter of each (input channel, output channel) becomes a 4x4 U = G g G^T (once a call);
//   - each tile's 4x4 input patch of each input channel becomes V = B^T d B (additions only);
//   - for each of the 16 positions e of the 4x4, M_e = V_e U_e is a [tiles x in] x [in x out]
//     product, summed in the register tiles of nn_conv_tiles.h (so it runs on AVX-512 where the
//     CPU has it, kernels/nn_conv_avx512.cc);
//   - the 2x2 outputs are A^T M A (additions only).
// with
//   G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1], B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1],
//   A^T = [1 1 1 0; 0 1 -1 -1].
// On the convnet's conv2 ([64,14,14,32] * [3,3,32,64], one thread, AVX-512, best of 15 at load 7)
// the forward pass takes 2.3 ms, the input gradient 2.4 ms and the filter gradient (below) 3.5 ms,
// against 4.5-5.1, 4.5-5.1 and 5.4 ms for the direct register tiles at the multiply-add peak,
// and TF 2.21's oneDNN (AVX-512) 4.0, 4.3 and 4.2 ms.
//
// The results differ from the direct sums by rounding only (the transforms add and subtract
// neighbouring values; against float64 references the largest errors were below TF's own on
// these sizes: tests/python/test_nn_conv_winograd.py). The transforms would turn one inf or NaN
// into NaNs over a whole tile, and may overflow where the direct sums do not: both show as an
// inf or NaN in the results, which the callers then compute again with the direct sums (TF's
// values there). Tiles are cut into blocks fixed by the sizes, each summed in a fixed order:
// the thread count never changes a bit, and the AVX2 and AVX-512 products give the same bits.
#pragma once
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "graphfn/kernels/nn_conv_chunks.h"
#include "graphfn/kernels/nn_conv_epilogue.h"
#include "graphfn/kernels/nn_conv_tiles.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace conv_winograd {

constexpr int64_t kBlockTiles = 24;  // tiles of one block of work (a multiple of every tile shape's rows)
constexpr int64_t kMinChannels = 8;  // fewer input channels: the transforms cost more than they save

// 2-D 3x3 windows (the last of the 3 loop dims a unit one), unit strides and dilations, one group.
inline bool applies(const WindowLoops& L) {
  return L.groups == 1 && L.window[0] == 3 && L.window[1] == 3 && L.window[2] == 1 && L.in[2] == 1 &&
         L.out[2] == 1 && L.pad[2] == 0 && L.stride[0] == 1 && L.stride[1] == 1 && L.dilation[0] == 1 &&
         L.dilation[1] == 1 && L.in_depth >= kMinChannels && L.out_depth >= 8;
}

// U[e][panel][ci][0:width) = (G g G^T)[e] of the filter of (ci, panel's output channel), zeros
// past out_depth; computed in double, rounded once.
inline void transform_filter(const float* w, int64_t cin, int64_t od, int64_t width, float* u) {
  const int64_t panels = (od + width - 1) / width;
  std::fill(u, u + 16 * panels * cin * width, 0.0f);
  for (int64_t ci = 0; ci < cin; ++ci) {
    for (int64_t co = 0; co < od; ++co) {
      double g[3][3], gg[4][3];
      for (int ky = 0; ky < 3; ++ky) {
        for (int kx = 0; kx < 3; ++kx) g[ky][kx] = w[((ky * 3 + kx) * cin + ci) * od + co];
      }
      for (int kx = 0; kx < 3; ++kx) {
        gg[0][kx] = g[0][kx];
        gg[1][kx] = 0.5 * (g[0][kx] + g[1][kx] + g[2][kx]);
        gg[2][kx] = 0.5 * (g[0][kx] - g[1][kx] + g[2][kx]);
        gg[3][kx] = g[2][kx];
      }
      const int64_t p = co / width, lane = co % width;
      for (int i = 0; i < 4; ++i) {
        const double row[4] = {gg[i][0], 0.5 * (gg[i][0] + gg[i][1] + gg[i][2]), 0.5 * (gg[i][0] - gg[i][1] + gg[i][2]),
                               gg[i][2]};
        for (int j = 0; j < 4; ++j) {
          u[(((i * 4 + j) * panels + p) * cin + ci) * width + lane] = static_cast<float>(row[j]);
        }
      }
    }
  }
}

// Where the tiles lie: the 2x2 tiles of output pixels, row-major over each image, and their 4x4
// input patches.
struct TileGeometry {
  const float* in;
  const float* zeros;  // at least cin zeros: the patch's pixels outside the input
  int64_t in_h, in_w, out_h, out_w, pad_h, pad_w, tiles_h, tiles_w, cin;

  TileGeometry(const WindowLoops& L, const float* input, const float* zero_row)
      : in(input), zeros(zero_row), in_h(L.in[0]), in_w(L.in[1]), out_h(L.out[0]), out_w(L.out[1]),
        pad_h(L.pad[0]), pad_w(L.pad[1]), tiles_h((L.out[0] + 1) / 2), tiles_w((L.out[1] + 1) / 2),
        cin(L.in_depth) {}
  int64_t tiles(int64_t batch) const { return batch * tiles_h * tiles_w; }
  // The tile's image and first output pixel (oy, ox).
  void origin(int64_t tile, int64_t* b, int64_t* oy, int64_t* ox) const {
    const int64_t per_image = tiles_h * tiles_w;
    *b = tile / per_image;
    *oy = tile % per_image / tiles_w * 2;
    *ox = tile % tiles_w * 2;
  }
  // origin(), and the tile's patch as 16 pixel pointers (row-major).
  void patch(int64_t tile, int64_t* b, int64_t* oy, int64_t* ox, const float** d) const {
    origin(tile, b, oy, ox);
    for (int i = 0; i < 4; ++i) {
      const int64_t y = *oy - pad_h + i;
      for (int j = 0; j < 4; ++j) {
        const int64_t x = *ox - pad_w + j;
        const bool inside = y >= 0 && y < in_h && x >= 0 && x < in_w;
        d[i * 4 + j] = inside ? in + ((*b * in_h + y) * in_w + x) * cin : zeros;
      }
    }
  }
};

// One block of tiles of the forward pass: [first, first + count), with its scratch buffers.
struct BlockWork {
  TileGeometry geo;
  float* out;
  const float* u;  // transform_filter's
  int64_t od, width, panels;
  int64_t first, count;
  float* v;  // [16][kBlockTiles][cin]
  float* m;  // [16][kBlockTiles][panels * width]
  std::atomic<bool>* not_finite;  // set when an output is inf or NaN
};

// V = B^T d B for channels [c, c + lanes) of one tile (d: the patch's 16 pixel pointers,
// row-major). F(2x2, 3x3)'s B^T has the last row [0 1 0 -1]; F(3x3, 2x2)'s (kFilter, the filter
// gradient) [0 -1 0 1].
template <typename T, bool kFilter = false>
[[gnu::always_inline]] inline void input_transform(const float* const* d, int64_t c, float* v, int64_t ve) {
  T x[4][4], t[4][4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) x[i][j] = conv_tiles::load<T>(d[i * 4 + j] + c);
  }
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    t[0][j] = x[0][j] - x[2][j];
    t[1][j] = x[1][j] + x[2][j];
    t[2][j] = x[2][j] - x[1][j];
    t[3][j] = kFilter ? x[3][j] - x[1][j] : x[1][j] - x[3][j];
  }
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    conv_tiles::store<T>(v + (i * 4 + 0) * ve + c, t[i][0] - t[i][2]);
    conv_tiles::store<T>(v + (i * 4 + 1) * ve + c, t[i][1] + t[i][2]);
    conv_tiles::store<T>(v + (i * 4 + 2) * ve + c, t[i][2] - t[i][1]);
    conv_tiles::store<T>(v + (i * 4 + 3) * ve + c, kFilter ? t[i][3] - t[i][1] : t[i][1] - t[i][3]);
  }
}

// The 2x2 outputs A^T M A of channels [c, c + lanes) of one tile; `rows` x `cols` of them inside
// the output (o: the tile's first output pixel, ldo: an output row's stride).
// `bad` gathers the outputs that are inf or NaN (y - y is 0 for finite y, NaN otherwise).
template <typename T, typename Mask>
[[gnu::always_inline]] inline void output_transform(const float* m, int64_t me, int64_t c, float* o, int64_t ldo,
                                                    int64_t od, int rows, int cols, Mask& bad) {
  T x[4][4], s[2][4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) x[i][j] = conv_tiles::load<T>(m + (i * 4 + j) * me + c);
  }
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    s[0][j] = x[0][j] + x[1][j] + x[2][j];
    s[1][j] = x[1][j] - x[2][j] - x[3][j];
  }
#pragma GCC unroll 2
  for (int i = 0; i < 2; ++i) {
    if (i >= rows) break;
    const T y0 = s[i][0] + s[i][1] + s[i][2];
    conv_tiles::store<T>(o + i * ldo + c, y0);
    bad |= (y0 - y0) != 0;
    if (cols > 1) {
      const T y1 = s[i][1] - s[i][2] - s[i][3];
      conv_tiles::store<T>(o + i * ldo + od + c, y1);
      bad |= (y1 - y1) != 0;
    }
  }
}

// Scalar one-lane vector for the channels past the last whole vector (the same operations).
typedef float Lane1 __attribute__((vector_size(4)));

// One block: input transform, the 16 products on tiles of shape (V, P, R), output transform.
template <typename V, int P, int R>
[[gnu::always_inline]] inline void run_block(const BlockWork& w) {
  constexpr int64_t lanes = conv_tiles::kLanes<V>;
  const int64_t cin = w.geo.cin, od = w.od, n = w.count, ldm = w.panels * w.width;
  // Input transform, tile by tile.
  for (int64_t t = 0; t < n; ++t) {
    int64_t b, oy, ox;
    const float* d[16];
    w.geo.patch(w.first + t, &b, &oy, &ox, d);
    float* v = w.v + t * cin;
    const int64_t ve = kBlockTiles * cin;
    int64_t c = 0;
    for (; c + lanes <= cin; c += lanes) input_transform<V>(d, c, v, ve);
    for (; c < cin; ++c) input_transform<Lane1>(d, c, v, ve);
  }
  // The 16 products M_e = V_e U_e.
  for (int e = 0; e < 16; ++e) {
    const float* rows[kBlockTiles];
    for (int64_t t = 0; t < n; ++t) rows[t] = w.v + (e * kBlockTiles + t) * cin;
    for (int64_t p = 0; p < w.panels; ++p) {
      const float* panel = w.u + ((e * w.panels + p) * cin) * w.width;
      float* m = w.m + e * kBlockTiles * ldm + p * w.width;
      int64_t t = 0;
      for (; t + R <= n; t += R) conv_tiles::tile<V, P, R>(rows + t, R, 1, cin, panel, m + t * ldm, ldm, w.width);
      for (; t < n; ++t) conv_tiles::tile<V, P, 1>(rows + t, 1, 1, cin, panel, m + t * ldm, ldm, w.width);
    }
  }
  // Output transform.
  typedef decltype(V{} != V{}) Mask;
  typedef decltype(Lane1{} != Lane1{}) Mask1;
  Mask bad{};
  Mask1 bad1{};
  for (int64_t t = 0; t < n; ++t) {
    int64_t b, oy, ox;
    w.geo.origin(w.first + t, &b, &oy, &ox);
    const int64_t out_w = w.geo.out_w;
    const int rows = static_cast<int>(std::min<int64_t>(2, w.geo.out_h - oy));
    const int cols = static_cast<int>(std::min<int64_t>(2, out_w - ox));
    float* o = w.out + ((b * w.geo.out_h + oy) * out_w + ox) * od;
    const float* m = w.m + t * ldm;
    const int64_t me = kBlockTiles * ldm;
    int64_t c = 0;
    for (; c + lanes <= od; c += lanes) output_transform<V>(m, me, c, o, out_w * od, od, rows, cols, bad);
    for (; c < od; ++c) output_transform<Lane1>(m, me, c, o, out_w * od, od, rows, cols, bad1);
  }
  bool any = bad1[0] != 0;
  for (int64_t i = 0; i < lanes; ++i) any = any || bad[i] != 0;
  if (any) w.not_finite->store(true, std::memory_order_relaxed);
}

inline void run_block_avx2(const BlockWork& w) { run_block<conv_tiles::Vec8, 2, 6>(w); }

// A product shape (panel width) and the function that runs a block with it.
struct BlockShape {
  int64_t panel_width;
  void (*run)(const BlockWork&);
};
inline BlockShape avx2_shape() { return {16, &run_block_avx2}; }
// The AVX-512 shapes for out_depth output channels (kernels/nn_conv_avx512.cc).
BlockShape avx512_shape(int64_t out_depth);
// The shape for this CPU.
BlockShape shape_for(int64_t out_depth);

// out = the convolution of in with the 3x3 filter w ([3, 3, in_depth, out_depth]), for applies(L)
// and a finite filter. Returns false when an output is inf or NaN: then the input held an inf or
// NaN, or a sum overflowed, and the caller computes out again with the direct sums, which give
// TF's values there.
// `epilogue` (bias, Relu) is applied to each block's outputs right after they are written, then
// `after_block` (if any) is called with the block's tiles [t0, t1) (GraphfnFusedConv2DMaxPool
// pools them there, while they are in cache).
inline bool forward_with(const BlockShape& shape, const WindowLoops& L, const float* in, const float* w, float* out,
                         const ConvEpilogue& epilogue = ConvEpilogue(),
                         const std::function<void(int64_t, int64_t)>* after_block = nullptr) {
  const int64_t cin = L.in_depth, od = L.out_depth, width = shape.panel_width;
  const int64_t panels = (od + width - 1) / width;
  std::unique_ptr<float[]> u(new float[static_cast<size_t>(16 * panels * cin * width)]);
  transform_filter(w, cin, od, width, u.get());
  const std::vector<float> zeros(static_cast<size_t>(cin), 0.0f);
  BlockWork base{TileGeometry(L, in, zeros.data()), out, u.get(), od, width, panels, 0, 0, nullptr, nullptr, nullptr};
  std::atomic<bool> not_finite{false};
  base.not_finite = &not_finite;
  const int64_t tiles = base.geo.tiles(L.batch);
  const int64_t v_size = 16 * kBlockTiles * cin, m_size = 16 * kBlockTiles * panels * width;
  conv_chunks::for_each_chunk(tiles, kBlockTiles, [&](int64_t t0, int64_t t1) {
    // Scratch of this thread, kept between calls (a block's buffers are a few hundred KB,
    // which malloc would map and unmap each time).
    thread_local std::vector<float> scratch;
    if (static_cast<int64_t>(scratch.size()) < v_size + m_size) scratch.resize(static_cast<size_t>(v_size + m_size));
    BlockWork block = base;
    block.first = t0;
    block.count = t1 - t0;
    block.v = scratch.data();
    block.m = scratch.data() + v_size;
    shape.run(block);
    if (epilogue.active()) {
      for (int64_t t = t0; t < t1; ++t) {  // the tile's (up to) 2x2 outputs
        int64_t b, oy, ox;
        base.geo.origin(t, &b, &oy, &ox);
        const int64_t cols = std::min<int64_t>(2, L.out[1] - ox);
        for (int64_t y = oy; y < std::min<int64_t>(oy + 2, L.out[0]); ++y) {
          epilogue.apply(out + ((b * L.out[0] + y) * L.out[1] + ox) * od, cols, od);
        }
      }
    }
    if (after_block != nullptr) (*after_block)(t0, t1);
  });
  return !not_finite.load();
}

// ---- The filter gradient: F(3x3, 2x2) ------------------------------------------------------
//
// dw[ky, kx, ci, co] = sum over output pixels p of x[p - pad + (ky, kx), ci] * dy[p, co]. Over the
// 2x2 tiles of output pixels that is, per tile, the 3x3 correlation of the tile's 4x4 input patch
// d with its 2x2 block of dy, which F(3x3, 2x2) computes as A^T [(G g G^T) . (B^T d B)] A with
//   G = [1 0; 1/2 1/2; 1/2 -1/2; 0 1], B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 -1 0 1],
//   A^T = [1 1 1 0; 0 1 -1 0; 0 1 1 1].
// A^T and A are linear, so the products are summed over the tiles first: for each of the 16
// positions e, M_e[ci, co] = sum over tiles of V_e[tile, ci] * W_e[tile, co] (a [in x tiles] x
// [tiles x out] product, 16 multiply-adds per tile where the direct sums take 36), and the 3x3
// transform runs once on the sums. The tiles are cut into a fixed number of parts (from the sizes),
// each summed in order, the parts added in order: the thread count never changes a bit.

constexpr int64_t kFilterBlockTiles = 24;  // tiles transformed at once
constexpr int64_t kFilterTilesPerPart = 256;
constexpr int64_t kFilterMaxParts = 8;
constexpr int64_t kFilterMaxSumBytes = int64_t{64} << 20;  // the parts' sums together (wide filters: fewer parts)

struct FilterWork {
  TileGeometry geo;
  const float* dy;
  int64_t od, width, panels;
  int64_t first, count;  // the part's tiles
  float* v;              // [16][kFilterBlockTiles][cin]
  float* g;              // [16][kFilterBlockTiles][panels * width]
  float* m;              // the part's sums: [16][cin][panels * width]
};

// W = G g G^T for channels [c, c + lanes) of one tile's 2x2 block of dy (g: its 4 pointers).
template <typename T>
[[gnu::always_inline]] inline void filter_dy_transform(const float* const* g, int64_t c, float* w, int64_t we) {
  const T half = T{} + 0.5f;
  const T g00 = conv_tiles::load<T>(g[0] + c), g01 = conv_tiles::load<T>(g[1] + c);
  const T g10 = conv_tiles::load<T>(g[2] + c), g11 = conv_tiles::load<T>(g[3] + c);
  // G g: rows g0, (g0 + g1) / 2, (g0 - g1) / 2, g1 (each a row of 2)
  const T r[4][2] = {{g00, g01}, {(g00 + g10) * half, (g01 + g11) * half}, {(g00 - g10) * half, (g01 - g11) * half},
                     {g10, g11}};
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    conv_tiles::store<T>(w + (i * 4 + 0) * we + c, r[i][0]);
    conv_tiles::store<T>(w + (i * 4 + 1) * we + c, (r[i][0] + r[i][1]) * half);
    conv_tiles::store<T>(w + (i * 4 + 2) * we + c, (r[i][0] - r[i][1]) * half);
    conv_tiles::store<T>(w + (i * 4 + 3) * we + c, r[i][1]);
  }
}

// sum[r][0:width) += sum over tiles t < n of rows[t][r] * w[t * ldw + 0:width) for r < R
// (sum rows ldsum apart; width = P vectors).
template <typename V, int P, int R>
[[gnu::always_inline]] inline void accumulate(const float* const* rows, int64_t offset, int64_t n, const float* w,
                                              int64_t ldw, float* sum, int64_t ldsum) {
  constexpr int64_t lanes = conv_tiles::kLanes<V>;
  V acc[R][P];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) acc[r][p] = conv_tiles::load<V>(sum + r * ldsum + p * lanes);
  }
  for (int64_t t = 0; t < n; ++t, w += ldw) {
    const float* x = rows[t] + offset;
    V b[P];
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) b[p] = conv_tiles::load<V>(w + p * lanes);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const float xv = x[r];
#pragma GCC unroll 4
      for (int p = 0; p < P; ++p) acc[r][p] += xv * b[p];
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) conv_tiles::store<V>(sum + r * ldsum + p * lanes, acc[r][p]);
  }
}

// One part: its tiles a block at a time, transformed, then their products added into w.m.
template <typename V, int P, int R>
[[gnu::always_inline]] inline void run_filter_part(const FilterWork& w) {
  constexpr int64_t lanes = conv_tiles::kLanes<V>;
  const int64_t cin = w.geo.cin, od = w.od, ldg = w.panels * w.width;
  const int64_t ve = kFilterBlockTiles * cin, ge = kFilterBlockTiles * ldg;
  for (int64_t b0 = 0; b0 < w.count; b0 += kFilterBlockTiles) {
    const int64_t n = std::min(kFilterBlockTiles, w.count - b0);
    for (int64_t t = 0; t < n; ++t) {
      int64_t b, oy, ox;
      const float* d[16];
      w.geo.patch(w.first + b0 + t, &b, &oy, &ox, d);
      float* v = w.v + t * cin;
      int64_t c = 0;
      for (; c + lanes <= cin; c += lanes) input_transform<V, true>(d, c, v, ve);
      for (; c < cin; ++c) input_transform<Lane1, true>(d, c, v, ve);
      const float* g[4];
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
          const int64_t y = oy + i, x = ox + j;
          const bool inside = y < w.geo.out_h && x < w.geo.out_w;
          g[i * 2 + j] = inside ? w.dy + ((b * w.geo.out_h + y) * w.geo.out_w + x) * od : w.geo.zeros;
        }
      }
      float* gt = w.g + t * ldg;
      c = 0;
      for (; c + lanes <= od; c += lanes) filter_dy_transform<V>(g, c, gt, ge);
      for (; c < od; ++c) filter_dy_transform<Lane1>(g, c, gt, ge);
      for (; c < ldg; ++c) {  // the panel past out_depth: zeros
        for (int e = 0; e < 16; ++e) gt[e * ge + c] = 0.0f;
      }
    }
    for (int e = 0; e < 16; ++e) {
      const float* rows[kFilterBlockTiles];
      for (int64_t t = 0; t < n; ++t) rows[t] = w.v + e * ve + t * cin;
      for (int64_t p = 0; p < w.panels; ++p) {
        const float* gp = w.g + e * ge + p * w.width;
        float* sum = w.m + e * cin * ldg + p * w.width;
        int64_t ci = 0;
        for (; ci + R <= cin; ci += R) accumulate<V, P, R>(rows, ci, n, gp, ldg, sum + ci * ldg, ldg);
        for (; ci < cin; ++ci) accumulate<V, P, 1>(rows, ci, n, gp, ldg, sum + ci * ldg, ldg);
      }
    }
  }
}

inline void run_filter_part_avx2(const FilterWork& w) { run_filter_part<conv_tiles::Vec8, 2, 6>(w); }

struct FilterShape {
  int64_t panel_width;
  void (*run)(const FilterWork&);
};
inline FilterShape filter_avx2_shape() { return {16, &run_filter_part_avx2}; }
FilterShape filter_avx512_shape(int64_t out_depth);  // kernels/nn_conv_avx512.cc
FilterShape filter_shape_for(int64_t out_depth);

// dw ([3, 3, in_depth, out_depth], overwritten) = the filter gradient of the convolution of in
// (L's input) giving dy, for applies(L). Returns false when a value of dw is inf or NaN (an inf or
// NaN in the input or dy, or an overflow): the caller then computes dw with the direct sums.
inline bool backprop_filter_with(const FilterShape& shape, const WindowLoops& L, const float* in, const float* dy,
                                 float* dw) {
  const int64_t cin = L.in_depth, od = L.out_depth, width = shape.panel_width;
  const int64_t panels = (od + width - 1) / width, ldg = panels * width;
  const std::vector<float> zeros(static_cast<size_t>(std::max(cin, od)), 0.0f);
  FilterWork base{TileGeometry(L, in, zeros.data()), dy, od, width, panels, 0, 0, nullptr, nullptr, nullptr};
  const int64_t tiles = base.geo.tiles(L.batch);
  const int64_t m_size = 16 * cin * ldg;
  const int64_t parts = std::clamp<int64_t>(
      std::min(tiles / kFilterTilesPerPart, kFilterMaxSumBytes / (m_size * static_cast<int64_t>(sizeof(float)))), 1,
      kFilterMaxParts);
  std::vector<float> sums(static_cast<size_t>(parts * m_size), 0.0f);
  const int64_t v_size = 16 * kFilterBlockTiles * cin, g_size = 16 * kFilterBlockTiles * ldg;
  conv_chunks::for_each_chunk(parts, 1, [&](int64_t part, int64_t) {
    thread_local std::vector<float> scratch;  // kept between calls, as in forward_with
    if (static_cast<int64_t>(scratch.size()) < v_size + g_size) scratch.resize(static_cast<size_t>(v_size + g_size));
    FilterWork work = base;
    work.first = part * tiles / parts;
    work.count = (part + 1) * tiles / parts - work.first;
    work.v = scratch.data();
    work.g = scratch.data() + v_size;
    work.m = sums.data() + part * m_size;
    shape.run(work);
  });
  float* m = sums.data();
  for (int64_t part = 1; part < parts; ++part) {
    const float* partial = sums.data() + part * m_size;
    for (int64_t i = 0; i < m_size; ++i) m[i] += partial[i];
  }
  // dw = A^T M A for each (ci, co), from the summed M (in double: 16 values into 9).
  for (int64_t ci = 0; ci < cin; ++ci) {
    for (int64_t co = 0; co < od; ++co) {
      double x[4][4], s[3][4];
      for (int e = 0; e < 16; ++e) x[e / 4][e % 4] = m[(e * cin + ci) * ldg + co];
      for (int j = 0; j < 4; ++j) {
        s[0][j] = x[0][j] + x[1][j] + x[2][j];
        s[1][j] = x[1][j] - x[2][j];
        s[2][j] = x[1][j] + x[2][j] + x[3][j];
      }
      for (int i = 0; i < 3; ++i) {
        const double row[3] = {s[i][0] + s[i][1] + s[i][2], s[i][1] - s[i][2], s[i][1] + s[i][2] + s[i][3]};
        for (int j = 0; j < 3; ++j) dw[((i * 3 + j) * cin + ci) * od + co] = static_cast<float>(row[j]);
      }
    }
  }
  for (int64_t i = 0; i < 9 * cin * od; ++i) {
    if (!std::isfinite(dw[i])) return false;
  }
  return true;
}

}  // namespace conv_winograd
}  // namespace graphfn
