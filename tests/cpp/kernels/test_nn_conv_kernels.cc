// The convolution loops of kernels/nn_conv_tiles.h, nn_conv_direct.h and nn_conv_chunks.h called
// directly (no op, no tensors), so that they also build on their own with ThreadSanitizer next to
// the pool (docs/fuzzing.md, "Issue 19's threaded kernels"): values against plain double sums
// over the window for odd sizes, padding, strides, dilations and output depths around the
// 16-channel panels and 8-channel blocks, and every chunk claimed exactly once.
#include "harness.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

// The loops' 32-byte vectors: GCC notes their ABI in a file built without AVX (they are always
// inlined, so none is passed between files).
#pragma GCC diagnostic ignored "-Wpsabi"
#include "graphfn/kernels/nn_conv_chunks.h"
#include "graphfn/kernels/nn_conv_direct.h"
#include "graphfn/kernels/nn_conv_filter_tiles.h"
#include "graphfn/kernels/nn_conv_tiles.h"

using namespace graphfn;

namespace {

struct NnConvCase {
  int64_t batch, h, w, cin, kh, kw, cout, stride, dilation;
  bool same;
};

WindowLoops nn_conv_loops_of(const NnConvCase& c) {
  WindowGeometry g;
  g.spatial = 2;
  g.batch = c.batch;
  g.in_depth = c.cin;
  g.out_depth = c.cout;
  const int64_t in[2] = {c.h, c.w}, k[2] = {c.kh, c.kw};
  for (int i = 0; i < 2; ++i) {
    const int64_t span = (k[i] - 1) * c.dilation + 1;
    g.in[i] = in[i];
    g.window[i] = k[i];
    g.stride[i] = c.stride;
    g.dilation[i] = c.dilation;
    g.out[i] = c.same ? (in[i] + c.stride - 1) / c.stride : (in[i] - span) / c.stride + 1;
    const int64_t total = c.same ? std::max<int64_t>((g.out[i] - 1) * c.stride + span - in[i], 0) : 0;
    g.pad_before[i] = total / 2;
    g.pad_after[i] = total - total / 2;
  }
  return WindowLoops(g, c.cin);
}

std::vector<float> nn_conv_values(int64_t count, int seed) {
  std::vector<float> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) v[i] = static_cast<float>(((i * 31 + seed * 7) % 23) - 11) / 8.0f;
  return v;
}

// out[m, k] and dw[tap, ci, k] as double sums over the window (taps in the padding skipped).
void nn_conv_reference(const WindowLoops& L, const std::vector<float>& in, const std::vector<float>& w,
               const std::vector<float>& dy, std::vector<double>* out, std::vector<double>* dw) {
  const int64_t rows = L.batch * L.out_pixels, cin = L.in_depth, od = L.out_depth;
  out->assign(static_cast<size_t>(rows * od), 0.0);
  dw->assign(static_cast<size_t>(L.columns * od), 0.0);
  for (int64_t m = 0; m < rows; ++m) {
    int64_t tap = 0;
    L.for_window(m, [&](int64_t pixel) {
      if (pixel >= 0) {
        for (int64_t ci = 0; ci < cin; ++ci) {
          for (int64_t k = 0; k < od; ++k) {
            (*out)[m * od + k] += double(in[pixel * cin + ci]) * w[(tap * cin + ci) * od + k];
            (*dw)[(tap * cin + ci) * od + k] += double(in[pixel * cin + ci]) * dy[m * od + k];
          }
        }
      }
      ++tap;
    });
  }
}

template <typename Got>
void nn_conv_check_close(const Got& got, const std::vector<double>& expected, double tolerance) {
  REQUIRE(got.size() == expected.size());
  int64_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += std::fabs(got[i] - expected[i]) > tolerance * (1 + std::fabs(expected[i]));
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE("conv_tiles::forward sums the window from the input", "[nn_conv]") {
  const NnConvCase cases[] = {{3, 9, 11, 5, 3, 3, 19, 1, 1, true},  {2, 10, 7, 7, 3, 3, 8, 2, 1, false},
                            {1, 12, 13, 6, 3, 3, 16, 1, 2, true}, {2, 8, 9, 4, 5, 3, 40, 3, 1, true},
                            {2, 7, 7, 32, 3, 3, 64, 1, 1, true}};
  for (const NnConvCase& c : cases) {
    const WindowLoops L = nn_conv_loops_of(c);
    REQUIRE(conv_tiles::applies(L));
    const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels * c.cin, 1), w = nn_conv_values(L.columns * c.cout, 2);
    const std::vector<float> dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 3);
    std::vector<double> out_ref, dw_ref;
    nn_conv_reference(L, in, w, dy, &out_ref, &dw_ref);
    std::vector<float> out(out_ref.size(), -1.0f);
    conv_tiles::forward(L, in.data(), w.data(), out.data());
    nn_conv_check_close(out, out_ref, 1e-5);
  }
}

TEST_CASE("conv_direct forward and filter gradient for narrow windows", "[nn_conv]") {
  const NnConvCase cases[] = {{9, 31, 27, 1, 3, 3, 32, 1, 1, true}, {5, 13, 11, 2, 3, 3, 13, 1, 1, true},
                            {3, 15, 9, 3, 3, 2, 21, 2, 1, false}, {2, 9, 8, 1, 5, 5, 8, 1, 1, true}};
  for (const NnConvCase& c : cases) {
    const WindowLoops L = nn_conv_loops_of(c);
    REQUIRE(conv_direct::applies(L));
    const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels * c.cin, 4), w = nn_conv_values(L.columns * c.cout, 5);
    const std::vector<float> dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 6);
    std::vector<double> out_ref, dw_ref;
    nn_conv_reference(L, in, w, dy, &out_ref, &dw_ref);
    std::vector<float> out(out_ref.size(), -1.0f), dw(dw_ref.size(), -1.0f);
    conv_direct::forward(L, in.data(), w.data(), out.data());
    conv_direct::backprop_filter(L, in.data(), dy.data(), dw.data());
    nn_conv_check_close(out, out_ref, 1e-5);
    nn_conv_check_close(dw, dw_ref, 1e-4);
    std::vector<double> in64(in.begin(), in.end()), dy64(dy.begin(), dy.end()), dw64(dw_ref.size(), -1.0);
    conv_direct::backprop_filter(L, in64.data(), dy64.data(), dw64.data());
    nn_conv_check_close(dw64, dw_ref, 1e-12);
  }
}

TEST_CASE("conv_direct register tiles give the row loops' bits", "[nn_conv]") {
  // Odd sizes around the 3-row tiles, the 4-vector channel blocks (32 floats, 16 doubles) and the
  // 128-row column blocks; padding, strides, dilations; one input channel and several.
  const NnConvCase cases[] = {{9, 31, 27, 1, 3, 3, 32, 1, 1, true}, {5, 13, 11, 2, 3, 3, 45, 1, 1, true},
                              {3, 15, 9, 3, 3, 2, 33, 2, 1, false}, {2, 9, 8, 1, 5, 5, 64, 1, 1, true},
                              {4, 11, 10, 1, 3, 3, 40, 2, 2, true}, {1, 5, 7, 3, 3, 3, 17, 1, 1, true}};
  for (const NnConvCase& c : cases) {
    const WindowLoops L = nn_conv_loops_of(c);
    REQUIRE(conv_direct::applies(L));
    const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels * c.cin, 7), w = nn_conv_values(L.columns * c.cout, 8);
    std::vector<float> dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 9);
    for (float& v : dy) v *= 1.0f + 1.0f / 3.0f;  // rounding in every product
    const size_t out_size = static_cast<size_t>(L.batch * L.out_pixels * c.cout), dw_size = static_cast<size_t>(L.columns * c.cout);
    std::vector<float> rows_out(out_size, -1.0f), tiles_out(out_size, -2.0f), rows_dw(dw_size, -1.0f), tiles_dw(dw_size, -2.0f);
    conv_direct::forward_rows(L, in.data(), w.data(), rows_out.data());
    conv_direct::forward(L, in.data(), w.data(), tiles_out.data());
    CHECK(std::memcmp(rows_out.data(), tiles_out.data(), out_size * sizeof(float)) == 0);
    conv_direct::backprop_filter(L, in.data(), dy.data(), rows_dw.data(), false);
    // The AVX2 tiles, compiled in this file as the row loops are (the library's AVX-512 tiles
    // give the library's AVX2 bits: tests/python/test_nn_conv_winograd.py; this file is built
    // without FMA, so its bits differ from the library's).
    conv_direct::backprop_filter(L, in.data(), dy.data(), tiles_dw.data(), true,
                                 &conv_direct_tiles::filter_block_avx2<float>);
    CHECK(std::memcmp(rows_dw.data(), tiles_dw.data(), dw_size * sizeof(float)) == 0);
    // This CPU's tiles (AVX-512 where it has it): the same sums within rounding (sums of up to 9000 rows).
    std::vector<float> cpu_dw(dw_size, -3.0f);
    conv_direct::backprop_filter(L, in.data(), dy.data(), cpu_dw.data());
    for (size_t i = 0; i < dw_size; ++i) CHECK(std::fabs(cpu_dw[i] - rows_dw[i]) <= 1e-4f * (1.0f + std::fabs(rows_dw[i])));
    std::vector<double> in64(in.begin(), in.end()), dy64(dy.begin(), dy.end()), rows64(dw_size, -1.0), tiles64(dw_size, -2.0);
    conv_direct::backprop_filter(L, in64.data(), dy64.data(), rows64.data(), false);
    conv_direct::backprop_filter(L, in64.data(), dy64.data(), tiles64.data());
    CHECK(std::memcmp(rows64.data(), tiles64.data(), dw_size * sizeof(double)) == 0);
  }
}

TEST_CASE("conv_direct skips taps in the padding for inf and NaN", "[nn_conv]") {
  // TF adds nothing for a tap in the padding (not 0 * inf = NaN): the tiles step aside.
  const NnConvCase c{2, 6, 5, 1, 3, 3, 32, 1, 1, true};
  const WindowLoops L = nn_conv_loops_of(c);
  const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels, 1);
  std::vector<float> w = nn_conv_values(L.columns * c.cout, 2), dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 3);
  w[3] = std::numeric_limits<float>::infinity();  // tap 0, channel 3
  dy[5] = std::numeric_limits<float>::quiet_NaN();  // row 0 (a corner), channel 5
  std::vector<float> out(static_cast<size_t>(L.batch * L.out_pixels * c.cout)), dw(static_cast<size_t>(L.columns * c.cout));
  conv_direct::forward(L, in.data(), w.data(), out.data());
  conv_direct::backprop_filter(L, in.data(), dy.data(), dw.data());
  CHECK(std::isfinite(out[3]));             // row 0's tap 0 lies in the padding
  CHECK(std::isinf(out[(c.w + 1) * c.cout + 3]));  // row (1, 1) reads tap 0 inside
  CHECK(std::isfinite(dw[0 * c.cout + 5]));  // tap 0 of row 0 is in the padding
  CHECK(std::isnan(dw[4 * c.cout + 5]));     // the centre tap reads row 0's own pixel
}

TEST_CASE("conv_filter_tiles::backprop_filter sums the window gradient", "[nn_conv]") {
  // Odd sizes around the 16-channel panels, the 5-6 channel tiles and the 128-row blocks;
  // padding, strides, dilations; more than one part of rows.
  const NnConvCase cases[] = {{3, 9, 11, 5, 3, 3, 19, 1, 1, true},  {2, 10, 7, 7, 3, 3, 8, 2, 1, false},
                              {1, 12, 13, 6, 3, 3, 16, 1, 2, true}, {2, 8, 9, 4, 5, 3, 40, 3, 1, true},
                              {6, 14, 14, 32, 3, 3, 64, 1, 1, true}, {2, 5, 6, 13, 2, 2, 33, 1, 1, true}};
  for (const NnConvCase& c : cases) {
    const WindowLoops L = nn_conv_loops_of(c);
    REQUIRE(conv_filter_tiles::applies(L));
    const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels * c.cin, 1), w = nn_conv_values(L.columns * c.cout, 2);
    std::vector<float> dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 3);
    std::vector<double> out_ref, dw_ref;
    nn_conv_reference(L, in, w, dy, &out_ref, &dw_ref);
    std::vector<float> dw(dw_ref.size(), -1.0f);
    conv_filter_tiles::backprop_filter(L, in.data(), dy.data(), dw.data());
    nn_conv_check_close(dw, dw_ref, 1e-4);
    // The same bits run to run (the parts are fixed by the sizes; whichever thread sums them).
    std::vector<float> dw_again(dw.size(), -3.0f);
    conv_filter_tiles::backprop_filter(L, in.data(), dy.data(), dw_again.data());
    CHECK(std::memcmp(dw.data(), dw_again.data(), dw.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("conv_filter_tiles skips taps in the padding for inf and NaN", "[nn_conv]") {
  const NnConvCase c{2, 6, 5, 3, 3, 3, 16, 1, 1, true};
  const WindowLoops L = nn_conv_loops_of(c);
  const std::vector<float> in = nn_conv_values(L.batch * L.in_pixels * c.cin, 1);
  std::vector<float> dy = nn_conv_values(L.batch * L.out_pixels * c.cout, 3);
  dy[5] = std::numeric_limits<float>::infinity();  // row 0 (a corner), channel 5
  std::vector<float> dw(static_cast<size_t>(L.columns * c.cout));
  conv_filter_tiles::backprop_filter(L, in.data(), dy.data(), dw.data());
  CHECK(std::isfinite(dw[0 * c.cout + 5]));              // tap 0 of row 0 lies in the padding
  CHECK(std::isinf(dw[(4 * c.cin + 0) * c.cout + 5]));   // the centre tap reads row 0's own pixel
  CHECK(std::isfinite(dw[(4 * c.cin + 0) * c.cout + 6]));
}

TEST_CASE("conv_chunks::for_each_chunk hands out every chunk once", "[nn_conv]") {
  for (int64_t n : {0, 1, 47, 48, 1000, 4097}) {
    std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
    for (auto& s : seen) s = 0;
    std::atomic<int64_t> bad_bounds{0};
    conv_chunks::for_each_chunk(n, 48, [&](int64_t b, int64_t e) {
      if (b % 48 != 0 || e - b > 48 || e <= b || e > n) ++bad_bounds;
      for (int64_t i = b; i < e; ++i) ++seen[static_cast<size_t>(i)];
    });
    CHECK(bad_bounds == 0);
    int64_t wrong = 0;
    for (auto& s : seen) wrong += s != 1;
    CHECK(wrong == 0);
  }
}
