// Kernels of ops/nn_conv_ops.cc. Conv2D and Conv3D (and their backprops) are one N-D routine
// over channels-last data with up to 3 spatial dims (2-D is 3-D with a unit last dim):
//  - forward: im2col of a block of output pixels (rows: one per output pixel, columns: the
//    window's values over every input channel), times the filter as a [window*in, out] matrix,
//    written straight into the output;
//  - backprop input: dy block times the filter's transpose gives the column gradients, which
//    col2im adds back into the input's gradient (per image, so threads never share a pixel;
//    per group for grouped convolutions, as the forward pass and backprop filter);
//    float with unit strides and dilations runs as a forward pass instead (see
//    backprop_input_as_forward);
//  - backprop filter: im2col blocks' transpose times dy blocks, summed into a fixed number of
//    partial sums (chosen from the sizes, not the threads), then added in order.
// The GEMMs are OpenBLAS's (cblas_sgemm/dgemm on one OpenBLAS thread, kernels/lapack.h), which
// picks AVX2/FMA kernels at run time where the portable build's Eigen gets SSE2 only; int32 (and
// float when OpenBLAS cannot be loaded) use Eigen. benchmarks/cpp/conv_bench.cc has the
// measurements. Blocks run on the shared pool (core/thread_pool.h); the blocks do not depend on
// the number of threads, so results are the same with one thread or many. A 1x1 filter with unit
// strides and no padding skips im2col: the input already is the column matrix. Windows of few
// values (window * input channels <= 32) skip it too: kernels/nn_conv_direct.h. The float
// forward pass of other windows (one group, at least 8 output channels) sums register tiles
// straight from the input instead: kernels/nn_conv_tiles.h (im2col's copy, OpenBLAS's packing
// copy and its zeroing of the output were a fifth of the CPU time of the forward row);
// so does its filter gradient: kernels/nn_conv_filter_tiles.h. 3x3 windows with unit strides and
// dilations (float, at least 8 input channels) take Winograd's F(2x2, 3x3) instead, forward,
// input gradient and filter gradient (kernels/nn_conv_winograd.h): 2.25 times fewer
// multiply-adds. The tiles and Winograd's products carry AVX-512 variants chosen at run time
// (kernels/nn_conv_avx512.cc).
// DepthwiseConv2dNative uses direct loops vectorised over channels. int32 products wrap (as
// TF's), computed as uint32.
#include <Eigen/Core>
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/lapack.h"
#include "graphfn/kernels/max_pool_taps.h"
#include "graphfn/kernels/nn_conv_direct.h"
#include "graphfn/kernels/nn_conv_direct_tiles.h"
#include "graphfn/kernels/nn_conv_epilogue.h"
#include "graphfn/kernels/nn_conv_filter_tiles.h"
#include "graphfn/kernels/nn_conv_tiles.h"
#include "graphfn/kernels/nn_conv_winograd.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace {

// Bytes of column matrix one block aims at: larger blocks mean fewer, larger GEMM calls, which
// OpenBLAS runs faster (2 MB: 13 ms against 16 ms for 512 KB on the forward row).
constexpr int64_t kColumnBlockBytes = 2 * 1024 * 1024;
// Backprop filter: rows of the whole problem per partial sum at least, and at most this many
// partial sums (each one filter-sized buffer).
constexpr int64_t kFilterPartials = 8;

// The scalar the GEMMs multiply: int32 as uint32 (wrapping without undefined behaviour).
template <typename T>
using ConvScalar = std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, T>;

template <typename S>
using RowMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S>
using ConstMatrixMap = Eigen::Map<const RowMatrix<S>, 0, Eigen::OuterStride<>>;
template <typename S>
using MatrixMap = Eigen::Map<RowMatrix<S>, 0, Eigen::OuterStride<>>;

// C = op(A) * op(B) + beta * C, row-major with leading dimensions; op transposes when asked.
// float and double go to OpenBLAS when it loads, everything else (and a failed load) to Eigen.
// Not kernels/gemm.h: it splits a product into row or column blocks by the thread count, and
// OpenBLAS's edge kernels then sum some elements in another order (results differed between 1
// and 3 threads in test_nn_conv_threads.py); one call per block keeps them thread-independent.
template <typename S>
void conv_gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const S* a, int64_t lda, const S* b,
               int64_t ldb, S beta, S* c, int64_t ldc) {
  if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double>) {
    const lapack::Routines<S>* r = nullptr;
    const bool fits = std::max({m, n, k, lda, ldb, ldc}) < (int64_t{1} << 31);
    if (fits && lapack::routines<S>(&r).ok()) {
      r->gemm(lapack::kRowMajor, trans_a ? lapack::kCblasTrans : lapack::kCblasNoTrans,
              trans_b ? lapack::kCblasTrans : lapack::kCblasNoTrans, static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), S(1), a, static_cast<int>(lda), b, static_cast<int>(ldb), beta, c,
              static_cast<int>(ldc));
      return;
    }
  }
  MatrixMap<S> cm(c, m, n, Eigen::OuterStride<>(ldc));
  if (beta == S(0)) cm.setZero();
  const Eigen::OuterStride<> sa(lda), sb(ldb);
  if (!trans_a && !trans_b) {
    cm.noalias() += ConstMatrixMap<S>(a, m, k, sa) * ConstMatrixMap<S>(b, k, n, sb);
  } else if (!trans_a && trans_b) {
    cm.noalias() += ConstMatrixMap<S>(a, m, k, sa) * ConstMatrixMap<S>(b, n, k, sb).transpose();
  } else if (trans_a && !trans_b) {
    cm.noalias() += ConstMatrixMap<S>(a, k, m, sa).transpose() * ConstMatrixMap<S>(b, k, n, sb);
  } else {
    cm.noalias() += ConstMatrixMap<S>(a, k, m, sa).transpose() * ConstMatrixMap<S>(b, n, k, sb).transpose();
  }
}

// A column-matrix buffer left uninitialised (im2col and the GEMMs write all of it): a zeroed
// std::vector cost a memset of the block (2 MB) per call and shard.
template <typename S>
std::unique_ptr<S[]> column_buffer(int64_t elements) {
  return std::unique_ptr<S[]>(new S[static_cast<size_t>(std::max<int64_t>(elements, 1))]);
}

// Row m of group g's column matrix into row, taps one at a time (any groups and dilations).
template <typename S>
void im2col_row_by_tap(const WindowLoops& L, const S* in, int64_t g, int64_t m, S* row) {
  const int64_t cg = L.group_in;
  L.for_window(m, [&](int64_t pixel) {
    if (pixel < 0) {
      std::fill(row, row + cg, S(0));
    } else if (cg == 1) {
      *row = in[pixel * L.in_depth + g];
    } else {
      std::memcpy(row, in + pixel * L.in_depth + g * cg, sizeof(S) * cg);
    }
    row += cg;
  });
}

// One window line along the innermost spatial dim that has taps: taps [0, window) read the
// neighbouring input pixels start + tap; those outside [0, size) are zeros. `src` is the line's
// pixel 0. One copy of the inside part between zero fills.
template <typename S>
S* copy_window_line(const S* src, int64_t start, int64_t size, int64_t window, int64_t c, S* row) {
  const int64_t lo = std::clamp<int64_t>(-start, 0, window);
  const int64_t hi = std::clamp<int64_t>(size - start, lo, window);
  std::fill(row, row + lo * c, S(0));
  if (hi > lo) std::memcpy(row + lo * c, src + (start + lo) * c, sizeof(S) * (hi - lo) * c);
  std::fill(row + hi * c, row + window * c, S(0));
  return row + window * c;
}

// Whether im2col_row_by_line applies: one group, and the line dim undilated. The line dim is
// the last spatial dim, or the one before when the last is a unit dim (2-D ops).
bool rows_by_line(const WindowLoops& L) {
  const bool unit_last = L.in[2] == 1 && L.window[2] == 1 && L.pad[2] == 0;
  return L.groups == 1 && L.dilation[unit_last ? 1 : 2] == 1;
}

// Row m of the column matrix, a window line at a time (see rows_by_line).
template <typename S>
void im2col_row_by_line(const WindowLoops& L, const S* in, int64_t m, S* row) {
  const int64_t c = L.in_depth;
  const int64_t b = m / L.out_pixels;
  int64_t p = m % L.out_pixels;
  const int64_t o2 = p % L.out[2];
  p /= L.out[2];
  const int64_t o1 = p % L.out[1], o0 = p / L.out[1];
  const bool unit_last = L.in[2] == 1 && L.window[2] == 1 && L.pad[2] == 0;
  for (int64_t f0 = 0; f0 < L.window[0]; ++f0) {
    const int64_t i0 = o0 * L.stride[0] - L.pad[0] + f0 * L.dilation[0];
    const bool in0 = i0 >= 0 && i0 < L.in[0];
    const S* plane = in0 ? in + (b * L.in[0] + i0) * L.in[1] * L.in[2] * c : in;
    if (unit_last) {  // the line runs along dim 1
      const int64_t span = L.window[1] * c;
      if (!in0) {
        std::fill(row, row + span, S(0));
        row += span;
      } else {
        row = copy_window_line(plane, o1 * L.stride[1] - L.pad[1], L.in[1], L.window[1], c, row);
      }
      continue;
    }
    for (int64_t f1 = 0; f1 < L.window[1]; ++f1) {
      const int64_t i1 = o1 * L.stride[1] - L.pad[1] + f1 * L.dilation[1];
      const int64_t span = L.window[2] * c;
      if (!in0 || i1 < 0 || i1 >= L.in[1]) {
        std::fill(row, row + span, S(0));
        row += span;
      } else {
        row = copy_window_line(plane + i1 * L.in[2] * c, o2 * L.stride[2] - L.pad[2], L.in[2], L.window[2], c, row);
      }
    }
  }
}

// Rows [m0, m1) of group g's column matrix into col ((m1 - m0) x columns).
template <typename S>
void im2col(const WindowLoops& L, const S* in, int64_t g, int64_t m0, int64_t m1, S* col) {
  const bool by_line = rows_by_line(L);
  for (int64_t m = m0; m < m1; ++m) {
    S* row = col + (m - m0) * L.columns;
    if (by_line) {
      im2col_row_by_line(L, in, m, row);
    } else {
      im2col_row_by_tap(L, in, g, m, row);
    }
  }
}

// Adds group g's column gradients of rows [m0, m1) back into the input gradient (the group's
// input channels).
template <typename S>
void col2im_add(const WindowLoops& L, const S* col, int64_t g, int64_t m0, int64_t m1, S* dx) {
  const int64_t cg = L.group_in;
  for (int64_t m = m0; m < m1; ++m) {
    const S* row = col + (m - m0) * L.columns;
    L.for_window(m, [&](int64_t pixel) {
      if (pixel >= 0) {
        S* d = dx + pixel * L.in_depth + g * cg;
        for (int64_t k = 0; k < cg; ++k) d[k] += row[k];
      }
      row += cg;
    });
  }
}

// The float forward pass of conv_tiles::applies(L) with a finite filter: Winograd's F(2x2, 3x3)
// for 3x3 windows with unit strides (kernels/nn_conv_winograd.h), again with the register tiles
// where that gave an inf or NaN (TF's values there come from the direct sums); else the tiles.
// `epilogue`: the fused ops' bias and Relu, applied to Winograd's blocks as they are written, else
// after the tiles. Returns whether Winograd computed the output, having called `after_block` on
// each of its blocks (GraphfnFusedConv2DMaxPool pools them there).
bool tiled_forward(const WindowLoops& L, const float* in, const float* w, float* out,
                   const ConvEpilogue& epilogue = ConvEpilogue(),
                   const std::function<void(int64_t, int64_t)>* after_block = nullptr) {
  if (conv_winograd::applies(L) &&
      conv_winograd::forward_with(conv_winograd::shape_for(L.out_depth), L, in, w, out, epilogue, after_block)) {
    return true;
  }
  conv_tiles::forward(L, in, w, out);
  epilogue.apply_all(out, L.batch * L.out_pixels, L.out_depth);
  return false;
}

// The forward convolution; `epilogue` (float only: the fused ops') is applied to its outputs.
template <typename T>
Status conv_forward_to(const WindowLoops& L, const ConvScalar<T>* in, const ConvScalar<T>* w, ConvScalar<T>* out,
                       const ConvEpilogue& epilogue) {
  using S = ConvScalar<T>;
  const int64_t rows = L.batch * L.out_pixels;
  // The paths that do not apply the epilogue chunk by chunk apply it once at the end.
  auto finish = [&] {
    if constexpr (std::is_same_v<S, float>) epilogue.apply_all(out, rows, L.out_depth);
    return Status::OK();
  };
  if (L.pointwise && L.groups == 1) {
    parallel_for(rows, 256, [&](int64_t m0, int64_t m1) {
      conv_gemm<S>(false, false, m1 - m0, L.out_depth, L.in_depth, in + m0 * L.in_depth, L.in_depth, w,
                   L.out_depth, S(0), out + m0 * L.out_depth, L.out_depth);
    });
    return finish();
  }
  if constexpr (!std::is_same_v<S, uint32_t>) {
    if (conv_direct::applies(L)) {
      conv_direct::forward(L, in, w, out, epilogue);
      return Status::OK();
    }
  }
  if constexpr (std::is_same_v<S, float>) {
    if (conv_tiles::applies(L)) {
      // The tiles read taps in the padding as zeros, so an inf or NaN in the filter would give
      // 0 * inf = NaN there, where TF adds nothing: such a filter takes the row loops.
      if (conv_direct_tiles::all_finite(w, L.columns * L.out_depth)) {
        tiled_forward(L, in, w, out, epilogue);
        return Status::OK();
      }
      conv_direct::forward_rows(L, in, w, out);
      return finish();
    }
  }
  const int64_t block = L.block_rows(sizeof(S), kColumnBlockBytes);
  const int64_t blocks = (rows + block - 1) / block;
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    const std::unique_ptr<S[]> col = column_buffer<S>(std::min(block, rows) * L.columns);
    for (int64_t bi = b0; bi < b1; ++bi) {
      const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
      for (int64_t grp = 0; grp < L.groups; ++grp) {
        im2col(L, in, grp, m0, m1, col.get());
        conv_gemm<S>(false, false, m1 - m0, L.group_out, L.columns, col.get(), L.columns, w + grp * L.group_out,
                     L.out_depth, S(0), out + m0 * L.out_depth + grp * L.group_out, L.out_depth);
      }
    }
  });
  return finish();
}

template <typename T>
Status conv_forward(KernelContext& c, const ConvEpilogue& epilogue = ConvEpilogue()) {
  using S = ConvScalar<T>;
  const Tensor& input = c.input(0);
  const Tensor& filter = c.input(1);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), filter.shape(), &g));
  const WindowLoops L(g, filter.dim(filter.rank() - 2));
  Tensor& output = c.allocate_output(0);
  if (output.num_elements() == 0) return Status::OK();
  return conv_forward_to<T>(L, reinterpret_cast<const S*>(input.data<T>()), reinterpret_cast<const S*>(filter.data<T>()),
                            reinterpret_cast<S*>(output.data<T>()), epilogue);
}

// With unit strides and dilations, dx is the forward convolution of dy with the filter turned
// around (taps reversed, input and output channels swapped) and the padding mirrored (k - 1 -
// pad on each side): the tiled forward loops (nn_conv_tiles.h) then replace dy times the
// filter's transpose and the col2im scatter. Returns false (nothing done) where that does not
// apply: strides or dilations, groups, padding beyond the window, few channels.
bool backprop_input_as_forward(const WindowGeometry& g, const WindowLoops& L, const float* w, const float* dy,
                               float* dx) {
  if (L.groups != 1 || L.pointwise) return false;
  // Taps in the mirrored padding read zeros: with an inf or NaN in the filter that would be
  // 0 * inf = NaN where TF (and col2im, which drops them) adds nothing.
  if (!conv_direct_tiles::all_finite(w, L.columns * L.out_depth)) return false;
  WindowGeometry t = g;
  t.in_depth = g.out_depth;
  t.out_depth = g.in_depth;
  for (int i = 0; i < g.spatial; ++i) {
    if (g.stride[i] != 1 || g.dilation[i] != 1 || g.pad_before[i] >= g.window[i] || g.pad_after[i] >= g.window[i]) {
      return false;
    }
    t.in[i] = g.out[i];
    t.out[i] = g.in[i];
    t.pad_before[i] = g.window[i] - 1 - g.pad_before[i];
    t.pad_after[i] = g.window[i] - 1 - g.pad_after[i];
  }
  const WindowLoops T(t, t.in_depth);
  if (conv_direct::applies(T) || !conv_tiles::applies(T)) return false;
  // turned[(taps - 1 - tap) * out_depth + o][i] = w[(tap * in_depth + i) * out_depth + o]
  const int64_t taps = L.window_size, cin = L.in_depth, cout = L.out_depth;
  std::unique_ptr<float[]> turned(new float[static_cast<size_t>(taps * cin * cout)]);
  for (int64_t tap = 0; tap < taps; ++tap) {
    float* dst = turned.get() + (taps - 1 - tap) * cout * cin;
    const float* src = w + tap * cin * cout;
    for (int64_t i = 0; i < cin; ++i) {
      for (int64_t o = 0; o < cout; ++o) dst[o * cin + i] = src[i * cout + o];
    }
  }
  tiled_forward(T, dy, turned.get(), dx);
  return true;
}

// dx for one convolution: input(0) holds the input's shape, input(1) the filter, input(2) dy.
template <typename T>
Status conv_backprop_input(KernelContext& c) {
  using S = ConvScalar<T>;
  const Tensor& filter = c.input(1);
  const Tensor& dy = c.input(2);
  Tensor& dx = c.allocate_output(0);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, dx.shape(), filter.shape(), &g));
  const WindowLoops L(g, filter.dim(filter.rank() - 2));
  S* dxp = reinterpret_cast<S*>(dx.data<T>());
  if (dx.num_elements() == 0) return Status::OK();
  const S* w = reinterpret_cast<const S*>(filter.data<T>());
  const S* dyp = reinterpret_cast<const S*>(dy.data<T>());
  if constexpr (std::is_same_v<S, float>) {  // writes every element of dx
    if (dy.num_elements() > 0 && backprop_input_as_forward(g, L, w, dyp, dxp)) return Status::OK();
  }
  std::fill(dxp, dxp + dx.num_elements(), S(0));
  if (dy.num_elements() == 0) return Status::OK();
  if (L.pointwise && L.groups == 1) {
    const int64_t rows = L.batch * L.out_pixels;
    parallel_for(rows, 256, [&](int64_t m0, int64_t m1) {
      conv_gemm<S>(false, true, m1 - m0, L.in_depth, L.out_depth, dyp + m0 * L.out_depth, L.out_depth, w,
                   L.out_depth, S(0), dxp + m0 * L.in_depth, L.in_depth);
    });
    return Status::OK();
  }
  const int64_t block = std::min(L.block_rows(sizeof(S), kColumnBlockBytes), L.out_pixels);
  parallel_for(L.batch, 1, [&](int64_t i0, int64_t i1) {
    const std::unique_ptr<S[]> col = column_buffer<S>(block * L.columns);
    for (int64_t image = i0; image < i1; ++image) {
      for (int64_t p0 = 0; p0 < L.out_pixels; p0 += block) {
        const int64_t m0 = image * L.out_pixels + p0, m1 = m0 + std::min(block, L.out_pixels - p0);
        for (int64_t grp = 0; grp < L.groups; ++grp) {  // group grp: its dy columns, its filter columns
          conv_gemm<S>(false, true, m1 - m0, L.columns, L.group_out, dyp + m0 * L.out_depth + grp * L.group_out,
                       L.out_depth, w + grp * L.group_out, L.out_depth, S(0), col.get(), L.columns);
          col2im_add(L, col.get(), grp, m0, m1, dxp);
        }
      }
    }
  });
  return Status::OK();
}

// dw for one convolution: input(0) the input, input(1) the filter's shape, input(2) dy.
template <typename T>
Status conv_backprop_filter(KernelContext& c) {
  using S = ConvScalar<T>;
  const Tensor& input = c.input(0);
  const Tensor& dy = c.input(2);
  Tensor& dw = c.allocate_output(0);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), dw.shape(), &g));
  const WindowLoops L(g, dw.dim(dw.rank() - 2));
  S* dwp = reinterpret_cast<S*>(dw.data<T>());
  const int64_t size = dw.num_elements();
  if (size == 0) return Status::OK();
  std::fill(dwp, dwp + size, S(0));
  const int64_t rows = L.batch * L.out_pixels;
  if (rows == 0) return Status::OK();
  const S* in = reinterpret_cast<const S*>(input.data<T>());
  const S* dyp = reinterpret_cast<const S*>(dy.data<T>());
  if (!L.pointwise && conv_direct::applies(L)) {
    conv_direct::backprop_filter(L, in, dyp, dwp);
    return Status::OK();
  }
  if constexpr (std::is_same_v<S, float>) {
    // Winograd's F(3x3, 2x2) (kernels/nn_conv_winograd.h); where dw came out inf or NaN, the
    // register tiles again, which skip the padding as TF does.
    if (conv_winograd::applies(L) &&
        conv_winograd::backprop_filter_with(conv_winograd::filter_shape_for(L.out_depth), L, in, dyp, dwp)) {
      return Status::OK();
    }
    if (conv_filter_tiles::applies(L)) {
      conv_filter_tiles::backprop_filter(L, in, dyp, dwp);
      return Status::OK();
    }
  }
  const int64_t block = L.block_rows(sizeof(S), kColumnBlockBytes);
  const int64_t blocks = (rows + block - 1) / block;
  // Blocks [p * blocks / parts, (p + 1) * blocks / parts) sum into partial p; the partials are
  // added in order, so the result does not depend on how many threads ran them.
  const int64_t parts = std::min(blocks, kFilterPartials);
  std::vector<S> partials(static_cast<size_t>((parts - 1) * size));
  const bool input_is_columns = L.pointwise && L.groups == 1;
  parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
    const std::unique_ptr<S[]> col = column_buffer<S>(input_is_columns ? 0 : std::min(block, rows) * L.columns);
    for (int64_t part = p0; part < p1; ++part) {
      S* sum = part == 0 ? dwp : partials.data() + (part - 1) * size;
      S beta = S(0);
      for (int64_t bi = part * blocks / parts; bi < (part + 1) * blocks / parts; ++bi) {
        const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
        // Group grp's filter columns: its column matrix's transpose times its dy columns.
        for (int64_t grp = 0; grp < L.groups; ++grp) {
          const S* x = in + m0 * L.in_depth;
          if (!input_is_columns) {
            im2col(L, in, grp, m0, m1, col.get());
            x = col.get();
          }
          conv_gemm<S>(true, false, L.columns, L.group_out, m1 - m0, x, L.columns,
                       dyp + m0 * L.out_depth + grp * L.group_out, L.out_depth, beta, sum + grp * L.group_out,
                       L.out_depth);
        }
        beta = S(1);
      }
    }
  });
  for (int64_t part = 1; part < parts; ++part) {
    const S* partial = partials.data() + (part - 1) * size;
    for (int64_t i = 0; i < size; ++i) dwp[i] += partial[i];
  }
  return Status::OK();
}

template <typename T>
struct ConvKernel {
  static Status compute(KernelContext& c) { return conv_forward<T>(c); }
};
// The epilogue of GraphfnFusedConv2D and GraphfnFusedConv2DMaxPool: input 2, the bias of the
// filter's output channels, then the activation ("" or "Relu").
Status fused_epilogue(const KernelContext& c, ConvEpilogue* epilogue) {
  const Tensor& filter = c.input(1);
  const Tensor& bias = c.input(2);
  const std::string* activation = c.attrs.get_string("activation");
  epilogue->relu = activation != nullptr && *activation == "Relu";
  if (activation != nullptr && !activation->empty() && !epilogue->relu) {
    return Status(Code::kInvalidArgument, c.op.name + ": unknown activation \"" + *activation + "\"");
  }
  const int64_t od = filter.dim(filter.rank() - 1);
  if (bias.num_elements() != od) {
    return Status(Code::kInvalidArgument, c.op.name + ": the bias must hold the filter's " + std::to_string(od) +
                                              " output channels, got shape " + bias.shape().to_string());
  }
  epilogue->bias = bias.data<float>();
  return Status::OK();
}

// GraphfnFusedConv2D (made by passes/activation_fusion.h): Conv2D, plus a bias per output
// channel, then the activation, applied while the outputs are in cache.
Status fused_conv2d(KernelContext& c) {
  ConvEpilogue epilogue;
  GRAPHFN_RETURN_IF_ERROR(fused_epilogue(c, &epilogue));
  return conv_forward<float>(c, epilogue);
}

// GraphfnFusedConv2DMaxPool (passes/activation_fusion.h): GraphfnFusedConv2D, then max pooling
// over windows of pool_ksize that tile its output (VALID, strides equal to the window), with the
// taps of kernels/max_pool_taps.h as a second output. Where the direct register tiles compute the
// convolution, it runs band by band (the input rows of one row of windows) in a thread's scratch,
// so the activation before pooling is never written out; else into a temporary, then pooled.
Status fused_conv2d_max_pool(KernelContext& c) {
  ConvEpilogue epilogue;
  GRAPHFN_RETURN_IF_ERROR(fused_epilogue(c, &epilogue));
  const Tensor& input = c.input(0);
  const Tensor& filter = c.input(1);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), filter.shape(), &g));
  const WindowLoops L(g, filter.dim(filter.rank() - 2));
  Tensor& pooled = c.allocate_output(0);
  Tensor& taps = c.allocate_output(1);
  const std::vector<int64_t>* ksize = c.attrs.get_int_list("pool_ksize");
  if (ksize == nullptr || ksize->size() != 4) {
    return Status(Code::kInvalidArgument, c.op.name + ": pool_ksize must have 4 values");
  }
  const int64_t kh = (*ksize)[1], kw = (*ksize)[2], od = L.out_depth, height = L.out[0], width = L.out[1];
  const int64_t out_h = pooled.dim(1), out_w = pooled.dim(2);
  if (pooled.num_elements() == 0) return Status::OK();
  const float* in = input.data<float>();
  const float* w = filter.data<float>();
  float* pool = pooled.data<float>();
  uint8_t* tap = taps.data<uint8_t>();
  const int64_t bands = L.batch * out_h, band_pixels = kh * width;
  auto pool_band = [&](int64_t band, const float* rows) {
    const int64_t offset = band * out_w * od;
    max_pool_taps::pool_row(rows, width, od, kh, kw, out_w, pool + offset, tap + offset);
  };
  // The paths below must be conv_forward_to's, in its order (a 1x1 window is a GEMM there, even
  // where the direct loops would apply): the same bits as Conv2D.
  const bool gemm = L.pointwise && L.groups == 1;
  if (!gemm && conv_direct::applies(L) && conv_direct::uses_forward_tiles(L, w)) {
    const conv_direct_tiles::PaddedInput<float> padded(L, in);
    const int64_t bands_per_chunk = std::max<int64_t>(1, conv_direct::kRowsPerShard / band_pixels);
    conv_chunks::for_each_chunk(bands, bands_per_chunk, [&](int64_t b0, int64_t b1) {
      thread_local std::vector<float> scratch;
      if (static_cast<int64_t>(scratch.size()) < band_pixels * od) scratch.resize(static_cast<size_t>(band_pixels * od));
      for (int64_t band = b0; band < b1; ++band) {
        const int64_t image = band / out_h, first_row = band % out_h * kh;
        const int64_t m0 = (image * height + first_row) * width;
        conv_direct::forward_tile_rows(L, padded, w, m0, m0 + band_pixels, scratch.data());
        epilogue.apply(scratch.data(), band_pixels, od);
        pool_band(band, scratch.data());
      }
    });
    return Status::OK();
  }
  // A tensor, not new[]: as aligned as Conv2D's own output, so every path (OpenBLAS's included)
  // computes the same bits into it.
  Tensor conv_tensor(DType::kFloat32, Shape{L.batch * L.out_pixels * od});
  float* const conv = conv_tensor.data<float>();
  // Winograd's 2x2 tiles are the 2x2 windows when the sizes are even: each block is pooled as
  // soon as it is written. (Where the tiles compute the output instead, it is pooled below.)
  if (kh == 2 && kw == 2 && height % 2 == 0 && width % 2 == 0 && !gemm && !conv_direct::applies(L) &&
      conv_tiles::applies(L) && conv_direct_tiles::all_finite(w, L.columns * od)) {
    const conv_winograd::TileGeometry tiles(L, in, nullptr);
    const std::function<void(int64_t, int64_t)> pool_tiles = [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        int64_t b, oy, ox;
        tiles.origin(t, &b, &oy, &ox);
        const int64_t offset = ((b * out_h + oy / 2) * out_w + ox / 2) * od;
        max_pool_taps::pool_row(conv + ((b * height + oy) * width + ox) * od, width, od, 2, 2, 1, pool + offset,
                                tap + offset);
      }
    };
    if (tiled_forward(L, in, w, conv, epilogue, &pool_tiles)) return Status::OK();
  } else {
    GRAPHFN_RETURN_IF_ERROR(conv_forward_to<float>(L, in, w, conv, epilogue));
  }
  parallel_for_if_large(bands, 8, [&](int64_t b0, int64_t b1) {
    for (int64_t band = b0; band < b1; ++band) {
      const int64_t image = band / out_h, first_row = band % out_h * kh;
      pool_band(band, conv + (image * height + first_row) * width * od);
    }
  });
  return Status::OK();
}

template <typename T>
struct ConvBackpropInputKernel {
  static Status compute(KernelContext& c) { return conv_backprop_input<T>(c); }
};
template <typename T>
struct ConvBackpropFilterKernel {
  static Status compute(KernelContext& c) { return conv_backprop_filter<T>(c); }
};

// Depthwise: channel k of the output is input channel k / M times filter[..., k / M, k % M].
template <typename T>
Status depthwise_forward(KernelContext& c) {
  const Tensor& input = c.input(0);
  const Tensor& filter = c.input(1);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), filter.shape(), &g));
  const WindowLoops L(g, g.in_depth);
  const int64_t mult = filter.dim(3), ch = L.in_depth, od = L.out_depth;
  Tensor& output = c.allocate_output(0);
  if (output.num_elements() == 0) return Status::OK();
  const T* in = input.data<T>();
  const T* w = filter.data<T>();
  T* out = output.data<T>();
  parallel_for(L.batch * L.out_pixels, 64, [&](int64_t m0, int64_t m1) {
    for (int64_t m = m0; m < m1; ++m) {
      T* o = out + m * od;
      std::fill(o, o + od, T(0));
      int64_t tap = 0;
      L.for_window(m, [&](int64_t pixel) {
        if (pixel >= 0) {
          const T* x = in + pixel * ch;
          const T* f = w + tap * od;
          for (int64_t k = 0; k < ch; ++k) {
            for (int64_t j = 0; j < mult; ++j) o[k * mult + j] += x[k] * f[k * mult + j];
          }
        }
        ++tap;
      });
    }
  });
  return Status::OK();
}

template <typename T>
Status depthwise_backprop_input(KernelContext& c) {
  const Tensor& filter = c.input(1);
  const Tensor& dy = c.input(2);
  Tensor& dx = c.allocate_output(0);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, dx.shape(), filter.shape(), &g));
  const WindowLoops L(g, g.in_depth);
  const int64_t mult = filter.dim(3), ch = L.in_depth, od = L.out_depth;
  T* dxp = dx.data<T>();
  std::fill(dxp, dxp + dx.num_elements(), T(0));
  if (dy.num_elements() == 0 || dx.num_elements() == 0) return Status::OK();
  const T* w = filter.data<T>();
  const T* d = dy.data<T>();
  parallel_for(L.batch, 1, [&](int64_t i0, int64_t i1) {
    for (int64_t m = i0 * L.out_pixels; m < i1 * L.out_pixels; ++m) {
      const T* grad = d + m * od;
      int64_t tap = 0;
      L.for_window(m, [&](int64_t pixel) {
        if (pixel >= 0) {
          T* x = dxp + pixel * ch;
          const T* f = w + tap * od;
          for (int64_t k = 0; k < ch; ++k) {
            T sum = 0;
            for (int64_t j = 0; j < mult; ++j) sum += grad[k * mult + j] * f[k * mult + j];
            x[k] += sum;
          }
        }
        ++tap;
      });
    }
  });
  return Status::OK();
}

template <typename T>
Status depthwise_backprop_filter(KernelContext& c) {
  const Tensor& input = c.input(0);
  const Tensor& dy = c.input(2);
  Tensor& dw = c.allocate_output(0);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), dw.shape(), &g));
  const WindowLoops L(g, g.in_depth);
  const int64_t mult = dw.dim(3), ch = L.in_depth, od = L.out_depth;
  const int64_t size = dw.num_elements();
  T* dwp = dw.data<T>();
  std::fill(dwp, dwp + size, T(0));
  if (size == 0 || dy.num_elements() == 0) return Status::OK();
  const T* in = input.data<T>();
  const T* d = dy.data<T>();
  std::mutex sum_mutex;
  parallel_for(L.batch * L.out_pixels, 256, [&](int64_t m0, int64_t m1) {
    std::vector<T> partial(static_cast<size_t>(size), T(0));
    for (int64_t m = m0; m < m1; ++m) {
      const T* grad = d + m * od;
      int64_t tap = 0;
      L.for_window(m, [&](int64_t pixel) {
        if (pixel >= 0) {
          const T* x = in + pixel * ch;
          T* f = partial.data() + tap * od;
          for (int64_t k = 0; k < ch; ++k) {
            for (int64_t j = 0; j < mult; ++j) f[k * mult + j] += x[k] * grad[k * mult + j];
          }
        }
        ++tap;
      });
    }
    std::lock_guard<std::mutex> lock(sum_mutex);
    for (int64_t i = 0; i < size; ++i) dwp[i] += partial[i];
  });
  return Status::OK();
}

template <typename T>
struct DepthwiseKernel {
  static Status compute(KernelContext& c) { return depthwise_forward<T>(c); }
};
template <typename T>
struct DepthwiseBackpropInputKernel {
  static Status compute(KernelContext& c) { return depthwise_backprop_input<T>(c); }
};
template <typename T>
struct DepthwiseBackpropFilterKernel {
  static Status compute(KernelContext& c) { return depthwise_backprop_filter<T>(c); }
};

}  // namespace

void register_nn_conv_kernels(OpRegistry& reg) {
  using Floats = TypeList<float, double>;
  register_kernels<ConvKernel>(reg, "Conv2D", TypeList<float, double, int32_t>{});
  reg.set_kernel("GraphfnFusedConv2D", DType::kFloat32, &fused_conv2d);
  reg.set_kernel("GraphfnFusedConv2DMaxPool", DType::kFloat32, &fused_conv2d_max_pool);
  register_kernels<ConvBackpropInputKernel>(reg, "Conv2DBackpropInput", TypeList<float, double, int32_t>{});
  register_kernels<ConvBackpropFilterKernel>(reg, "Conv2DBackpropFilter", Floats{});
  register_kernels<ConvKernel>(reg, "Conv3D", Floats{});
  register_kernels<ConvBackpropInputKernel>(reg, "Conv3DBackpropInputV2", Floats{});
  register_kernels<ConvBackpropFilterKernel>(reg, "Conv3DBackpropFilterV2", Floats{});
  register_kernels<DepthwiseKernel>(reg, "DepthwiseConv2dNative", Floats{});
  register_kernels<DepthwiseBackpropInputKernel>(reg, "DepthwiseConv2dNativeBackpropInput", Floats{});
  register_kernels<DepthwiseBackpropFilterKernel>(reg, "DepthwiseConv2dNativeBackpropFilter", Floats{});
}

}  // namespace graphfn
