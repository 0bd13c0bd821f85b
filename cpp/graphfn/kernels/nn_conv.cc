// Kernels of ops/nn_conv_ops.cc. Conv2D and Conv3D (and their backprops) are one N-D routine
// over channels-last data with up to 3 spatial dims (2-D is 3-D with a unit last dim):
//  - forward: im2col of a block of output pixels (rows: one per output pixel, columns: the
//    window's values over every input channel), times the filter as a [window*in, out] matrix
//    with Eigen's GEMM, written straight into the output;
//  - backprop input: dy block times the filter's transpose gives the column gradients, which
//    col2im adds back into the input's gradient (per image, so threads never share a pixel);
//  - backprop filter: im2col blocks' transpose times dy blocks, summed per thread, then across.
// Blocks run on the shared pool (core/thread_pool.h). A 1x1 filter with unit strides and no
// padding skips im2col: the input already is the column matrix. DepthwiseConv2dNative uses
// direct loops vectorised over channels. int32 products wrap (as TF's), computed as uint32.
#include <Eigen/Core>
#include <algorithm>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/window_loops.h"

namespace graphfn {
namespace {

// Bytes of column matrix one block aims at (docs/ops.md has the measurements).
constexpr int64_t kColumnBlockBytes = 512 * 1024;

// The scalar Eigen multiplies: int32 as uint32 (wrapping without undefined behaviour).
template <typename T>
using ConvScalar = std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, T>;

template <typename S>
using RowMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename S>
using ConstMatrixMap = Eigen::Map<const RowMatrix<S>, 0, Eigen::OuterStride<>>;
template <typename S>
using MatrixMap = Eigen::Map<RowMatrix<S>, 0, Eigen::OuterStride<>>;

// Rows [m0, m1) of group g's column matrix into col ((m1 - m0) x columns).
template <typename S>
void im2col(const WindowLoops& L, const S* in, int64_t g, int64_t m0, int64_t m1, S* col) {
  const int64_t cg = L.group_in;
  for (int64_t m = m0; m < m1; ++m) {
    S* row = col + (m - m0) * L.columns;
    L.for_window(m, [&](int64_t pixel) {
      if (pixel < 0) {
        std::fill(row, row + cg, S(0));
      } else {
        std::memcpy(row, in + pixel * L.in_depth + g * cg, sizeof(S) * cg);
      }
      row += cg;
    });
  }
}

// Adds the column gradients of rows [m0, m1) back into the input gradient (one group).
template <typename S>
void col2im_add(const WindowLoops& L, const S* col, int64_t m0, int64_t m1, S* dx) {
  const int64_t c = L.in_depth;
  for (int64_t m = m0; m < m1; ++m) {
    const S* row = col + (m - m0) * L.columns;
    L.for_window(m, [&](int64_t pixel) {
      if (pixel >= 0) {
        S* d = dx + pixel * c;
        for (int64_t k = 0; k < c; ++k) d[k] += row[k];
      }
      row += c;
    });
  }
}

template <typename T>
Status conv_forward(KernelContext& c) {
  using S = ConvScalar<T>;
  const Tensor& input = c.input(0);
  const Tensor& filter = c.input(1);
  WindowGeometry g;
  GRAPHFN_RETURN_IF_ERROR(conv_kernel_geometry(c.op, c.attrs, input.shape(), filter.shape(), &g));
  const WindowLoops L(g, filter.dim(filter.rank() - 2));
  Tensor& output = c.allocate_output(0);
  if (output.num_elements() == 0) return Status::OK();
  const S* in = reinterpret_cast<const S*>(input.data<T>());
  const S* w = reinterpret_cast<const S*>(filter.data<T>());
  S* out = reinterpret_cast<S*>(output.data<T>());
  const int64_t rows = L.batch * L.out_pixels;
  if (L.pointwise && L.groups == 1) {
    parallel_for(rows, 256, [&](int64_t m0, int64_t m1) {
      ConstMatrixMap<S> x(in + m0 * L.in_depth, m1 - m0, L.in_depth, Eigen::OuterStride<>(L.in_depth));
      ConstMatrixMap<S> f(w, L.in_depth, L.out_depth, Eigen::OuterStride<>(L.out_depth));
      MatrixMap<S> y(out + m0 * L.out_depth, m1 - m0, L.out_depth, Eigen::OuterStride<>(L.out_depth));
      y.noalias() = x * f;
    });
    return Status::OK();
  }
  const int64_t block = L.block_rows(sizeof(S), kColumnBlockBytes);
  const int64_t blocks = (rows + block - 1) / block;
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    std::vector<S> col(static_cast<size_t>(std::min(block, rows) * L.columns));
    for (int64_t bi = b0; bi < b1; ++bi) {
      const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
      for (int64_t grp = 0; grp < L.groups; ++grp) {
        im2col(L, in, grp, m0, m1, col.data());
        ConstMatrixMap<S> x(col.data(), m1 - m0, L.columns, Eigen::OuterStride<>(L.columns));
        ConstMatrixMap<S> f(w + grp * L.group_out, L.columns, L.group_out, Eigen::OuterStride<>(L.out_depth));
        MatrixMap<S> y(out + m0 * L.out_depth + grp * L.group_out, m1 - m0, L.group_out,
                       Eigen::OuterStride<>(L.out_depth));
        y.noalias() = x * f;
      }
    }
  });
  return Status::OK();
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
  std::fill(dxp, dxp + dx.num_elements(), S(0));
  if (dy.num_elements() == 0) return Status::OK();
  const S* w = reinterpret_cast<const S*>(filter.data<T>());
  const S* dyp = reinterpret_cast<const S*>(dy.data<T>());
  ConstMatrixMap<S> f(w, L.columns, L.out_depth, Eigen::OuterStride<>(L.out_depth));
  if (L.pointwise) {
    const int64_t rows = L.batch * L.out_pixels;
    parallel_for(rows, 256, [&](int64_t m0, int64_t m1) {
      ConstMatrixMap<S> d(dyp + m0 * L.out_depth, m1 - m0, L.out_depth, Eigen::OuterStride<>(L.out_depth));
      MatrixMap<S> x(dxp + m0 * L.in_depth, m1 - m0, L.in_depth, Eigen::OuterStride<>(L.in_depth));
      x.noalias() = d * f.transpose();
    });
    return Status::OK();
  }
  const int64_t block = std::min(L.block_rows(sizeof(S), kColumnBlockBytes), L.out_pixels);
  parallel_for(L.batch, 1, [&](int64_t i0, int64_t i1) {
    std::vector<S> col(static_cast<size_t>(block * L.columns));
    for (int64_t image = i0; image < i1; ++image) {
      for (int64_t p0 = 0; p0 < L.out_pixels; p0 += block) {
        const int64_t m0 = image * L.out_pixels + p0, m1 = m0 + std::min(block, L.out_pixels - p0);
        ConstMatrixMap<S> d(dyp + m0 * L.out_depth, m1 - m0, L.out_depth, Eigen::OuterStride<>(L.out_depth));
        MatrixMap<S> cols(col.data(), m1 - m0, L.columns, Eigen::OuterStride<>(L.columns));
        cols.noalias() = d * f.transpose();
        col2im_add(L, col.data(), m0, m1, dxp);
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
  std::mutex sum_mutex;
  const int64_t block = L.block_rows(sizeof(S), kColumnBlockBytes);
  const int64_t blocks = (rows + block - 1) / block;
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    RowMatrix<S> partial = RowMatrix<S>::Zero(L.columns, L.out_depth);
    std::vector<S> col(L.pointwise ? 0 : static_cast<size_t>(std::min(block, rows) * L.columns));
    for (int64_t bi = b0; bi < b1; ++bi) {
      const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
      const S* x = in + m0 * L.in_depth;
      if (!L.pointwise) {
        im2col(L, in, 0, m0, m1, col.data());
        x = col.data();
      }
      ConstMatrixMap<S> cols(x, m1 - m0, L.columns, Eigen::OuterStride<>(L.columns));
      ConstMatrixMap<S> d(dyp + m0 * L.out_depth, m1 - m0, L.out_depth, Eigen::OuterStride<>(L.out_depth));
      partial.noalias() += cols.transpose() * d;
    }
    std::lock_guard<std::mutex> lock(sum_mutex);
    MatrixMap<S>(dwp, L.columns, L.out_depth, Eigen::OuterStride<>(L.out_depth)) += partial;
  });
  return Status::OK();
}

template <typename T>
struct ConvKernel {
  static Status compute(KernelContext& c) { return conv_forward<T>(c); }
};
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
