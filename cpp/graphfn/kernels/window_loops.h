// The loops shared by the convolution and pooling kernels (kernels/nn_conv.cc, nn_pool.cc):
// a WindowGeometry (ops/nn_window.h) flattened to 3 spatial dims, and the walk over the
// input pixels of one output pixel's window.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "graphfn/ops/nn_window.h"

namespace graphfn {

// A window op's geometry in the form the loops use: 3 spatial dims, unused ones of size 1;
// the rows of an op are its output pixels over the batch (batch * out_pixels).
struct WindowLoops {
  int64_t batch, in_depth, out_depth, groups, group_in, group_out;
  std::array<int64_t, 3> in, window, stride, dilation, out, pad;
  int64_t in_pixels, out_pixels, window_size;
  int64_t columns;  // window_size * group_in
  bool pointwise;   // 1x1 window, unit strides, no padding: im2col is the identity

  explicit WindowLoops(const WindowGeometry& g, int64_t filter_in_depth) {
    batch = g.batch;
    in_depth = g.in_depth;
    out_depth = g.out_depth;
    group_in = filter_in_depth;
    groups = group_in > 0 ? in_depth / group_in : 1;
    group_out = groups > 0 ? out_depth / groups : out_depth;
    in_pixels = out_pixels = window_size = 1;
    pointwise = true;
    for (int i = 0; i < 3; ++i) {
      const bool used = i < g.spatial;
      in[i] = used ? g.in[i] : 1;
      window[i] = used ? g.window[i] : 1;
      stride[i] = used ? g.stride[i] : 1;
      dilation[i] = used ? g.dilation[i] : 1;
      out[i] = used ? g.out[i] : 1;
      pad[i] = used ? g.pad_before[i] : 0;
      in_pixels *= in[i];
      out_pixels *= out[i];
      window_size = saturating_product(window_size, window[i]);
      pointwise = pointwise && window[i] == 1 && stride[i] == 1 && pad[i] == 0 && (!used || g.pad_after[i] == 0);
    }
    columns = saturating_product(window_size, group_in);
  }

  // a * b for sizes (>= 0), INT64_MAX where that overflows: pooling windows may be as large as
  // ksize allows (2^31 - 1 per dim, 3 dims), which only the loops over the window positions
  // inside the input visit; a window that large is never a column count the convolutions use
  // (their filters are allocated tensors).
  static int64_t saturating_product(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
  }

  // Calls fn(input pixel index or -1 for padding) for every window position of output row m
  // (batch * out_pixels + pixel), in the filter's order.
  template <typename Fn>
  void for_window(int64_t m, Fn&& fn) const {
    const int64_t b = m / out_pixels;
    int64_t p = m % out_pixels;
    const int64_t o2 = p % out[2];
    p /= out[2];
    const int64_t o1 = p % out[1], o0 = p / out[1];
    const int64_t base = b * in_pixels;
    for (int64_t f0 = 0; f0 < window[0]; ++f0) {
      const int64_t i0 = o0 * stride[0] - pad[0] + f0 * dilation[0];
      const bool in0 = i0 >= 0 && i0 < in[0];
      for (int64_t f1 = 0; f1 < window[1]; ++f1) {
        const int64_t i1 = o1 * stride[1] - pad[1] + f1 * dilation[1];
        const bool in1 = in0 && i1 >= 0 && i1 < in[1];
        for (int64_t f2 = 0; f2 < window[2]; ++f2) {
          const int64_t i2 = o2 * stride[2] - pad[2] + f2 * dilation[2];
          const bool inside = in1 && i2 >= 0 && i2 < in[2];
          fn(inside ? base + (i0 * in[1] + i1) * in[2] + i2 : -1);
        }
      }
    }
  }

  // Calls fn(input pixel index) for the window positions of output row m that fall inside the
  // input, visiting only those (a pooling window may be far larger than the input).
  template <typename Fn>
  void for_window_inside(int64_t m, Fn&& fn) const {
    const int64_t b = m / out_pixels;
    int64_t p = m % out_pixels;
    std::array<int64_t, 3> o;
    o[2] = p % out[2];
    p /= out[2];
    o[1] = p % out[1];
    o[0] = p / out[1];
    std::array<int64_t, 3> lo, hi;  // [lo, hi) of the input coordinates, per dim
    for (int i = 0; i < 3; ++i) {
      const int64_t start = o[i] * stride[i] - pad[i];
      lo[i] = std::max<int64_t>(start, 0);
      hi[i] = std::min<int64_t>(start + window[i], in[i]);  // pooling: unit dilation
    }
    const int64_t base = b * in_pixels;
    for (int64_t i0 = lo[0]; i0 < hi[0]; ++i0) {
      for (int64_t i1 = lo[1]; i1 < hi[1]; ++i1) {
        for (int64_t i2 = lo[2]; i2 < hi[2]; ++i2) fn(base + (i0 * in[1] + i1) * in[2] + i2);
      }
    }
  }

  // Rows of a column-matrix block of about `bytes`.
  int64_t block_rows(size_t scalar_bytes, int64_t bytes) const {
    return std::max<int64_t>(16, bytes / static_cast<int64_t>(std::max<int64_t>(1, columns) * scalar_bytes));
  }
};

}  // namespace graphfn
