// Microbenchmark behind the convolution kernels' library choice (issue 19): Conv2D forward,
// backprop input and backprop filter in NHWC float32, timed per call for
//  - "kernel": the registered graphfn kernel, called eagerly (what the build has now);
//  - "eigen": im2col blocks times the filter with Eigen's GEMM, blocks over the shared pool
//    (the kernel before issue 19);
//  - "openblas": the same blocks with OpenBLAS's cblas_sgemm (one OpenBLAS thread, blocks over
//    the pool);
//  - "onednn": oneDNN's convolution primitives (built with -DCONV_BENCH_ONEDNN and the onednn /
//    onednn-devel wheels; the primitive is created once, only execute() is timed).
// Build against the libraries of a Release build:
//
//   ninja -C build/dev graphfn_runtime
//   D=/tmp/conv_onednn/x   # unzipped onednn + onednn-devel wheels (pip download onednn onednn-devel)
//   g++ -O3 -march=haswell -std=c++17 -DEIGEN_MPL2_ONLY -DCONV_BENCH_ONEDNN -Icpp -I$(EIGEN_INCLUDE) \
//       -I$D/onednn_devel-*.data/data/include benchmarks/cpp/conv_bench.cc \
//       build/dev/cpp/libgraphfn_{runtime,serialize,passes,autodiff,kernels,ops,ir,core}.a \
//       -L$D/onednn-*.data/data/lib -ldnnl -Wl,-rpath,$D/onednn-2026.1.0.data/data/lib -ldl -lpthread -o /tmp/conv_bench
//   GRAPHFN_OPENBLAS_LIBRARY=.../scipy_openblas32/lib/libscipy_openblas.so /tmp/conv_bench
//
// (CONV_BENCH_CPU_TIME=1 reports CPU time; the "eigen" rows take the -march of this compile.)
//
// Measurements, 2026-11-26, 2-core AMD EPYC VM (AVX2+FMA, no AVX-512), 2 pool threads, load
// average 11-17 (five helpers compiling), CPU ms per call (all threads), best of 5:
//                                      fwd  bwd_in bwd_filt | conv2 (convnet) fwd bwd_in bwd_filt
//   eigen 512 KB, -march=x86-64       40.6   40.5   35.3   |               21.4  22.3  21.8
//     (the kernel before issue 19: what the portable build's Eigen GEMM gets, SSE2)
//   eigen 512 KB, -march=haswell      14.4   16.4   17.5   |                6.8   7.3   7.7
//   openblas 512 KB                   13.3-17.3 18.9 16.8  |                7.4   8.0   7.5
//   openblas 2 MB                     14.1-14.2 14.1 13.8  |                7.1   6.9   8.7
//   kernel (registered: OpenBLAS 2 MB,
//     window-line im2col)             17.6-18.4 15.3 15.0  |                8.4   9.2   8.0
//   convnet conv1 (1 input channel): registered 2.9-3.3 fwd, 3.3-4.6 bwd_filter vs 4.5-5.0 and
//   4.4-5.5 for a per-tap im2col.
// Wall-clock runs at that load vary 2-3x between runs; CPU time varies about +-15%.
// OpenBLAS (runtime CPU dispatch: its Haswell kernels here) equals Eigen compiled for AVX2, and
// is 2.3-2.8x faster than Eigen compiled for the baseline x86-64 the wheel targets.
// oneDNN: the PyPI `onednn` wheel (2026.1.0, 93 MB; devel 0.2 MB) is the SYCL build and needs
// dpcpp-cpp-rt and intel-opencl-rt (plus libtbb, libsvml, libimf at link time), so it was not
// linked here; PyTorch's and TensorFlow's CPU convolutions are oneDNN, and
// benchmarks/bench_conv.py compares with them directly.
#include <Eigen/Core>
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/eager.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/lapack.h"
#include "graphfn/runtime/builtin_ops.h"

#ifdef CONV_BENCH_ONEDNN
#include "oneapi/dnnl/dnnl.hpp"
#endif

using namespace graphfn;

namespace {

struct Geometry {
  int64_t n, h, w, c, kh, kw, k;  // SAME, stride 1
  int64_t rows() const { return n * h * w; }
  int64_t cols() const { return kh * kw * c; }
};

// Best of 5 per-call times in ms: the process's CPU time (all threads together) when
// CONV_BENCH_CPU_TIME is set, which a machine shared with compilers disturbs far less than the
// wall-clock time, else wall-clock time.
double now_ms() {
  static const bool cpu = std::getenv("CONV_BENCH_CPU_TIME") != nullptr;
  timespec ts;
  clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

template <typename F>
double time_ms(F&& f, int reps) {
  f();
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    const double t0 = now_ms();
    for (int r = 0; r < reps; ++r) f();
    best = std::min(best, (now_ms() - t0) / reps);
  }
  return best;
}

std::vector<float> random_vector(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = u(gen);
  return v;
}

void im2col(const Geometry& g, const float* in, int64_t m0, int64_t m1, float* col) {
  const int64_t ph = (g.kh - 1) / 2, pw = (g.kw - 1) / 2;
  for (int64_t m = m0; m < m1; ++m) {
    const int64_t b = m / (g.h * g.w), p = m % (g.h * g.w), oy = p / g.w, ox = p % g.w;
    float* row = col + (m - m0) * g.cols();
    for (int64_t fy = 0; fy < g.kh; ++fy) {
      const int64_t iy = oy - ph + fy;
      for (int64_t fx = 0; fx < g.kw; ++fx, row += g.c) {
        const int64_t ix = ox - pw + fx;
        if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) {
          std::fill(row, row + g.c, 0.f);
        } else {
          std::memcpy(row, in + ((b * g.h + iy) * g.w + ix) * g.c, sizeof(float) * g.c);
        }
      }
    }
  }
}

void col2im_add(const Geometry& g, const float* col, int64_t m0, int64_t m1, float* dx) {
  const int64_t ph = (g.kh - 1) / 2, pw = (g.kw - 1) / 2;
  for (int64_t m = m0; m < m1; ++m) {
    const int64_t b = m / (g.h * g.w), p = m % (g.h * g.w), oy = p / g.w, ox = p % g.w;
    const float* row = col + (m - m0) * g.cols();
    for (int64_t fy = 0; fy < g.kh; ++fy) {
      const int64_t iy = oy - ph + fy;
      for (int64_t fx = 0; fx < g.kw; ++fx, row += g.c) {
        const int64_t ix = ox - pw + fx;
        if (iy < 0 || iy >= g.h || ix < 0 || ix >= g.w) continue;
        float* d = dx + ((b * g.h + iy) * g.w + ix) * g.c;
        for (int64_t k = 0; k < g.c; ++k) d[k] += row[k];
      }
    }
  }
}

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMatrix>;
using Map = Eigen::Map<RowMatrix>;

// C[m x n] (+)= A[m x k] * B[k x n], row-major, by the chosen library.
void gemm(bool blas, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, const float* b,
          float beta, float* c) {
  if (blas) {
    const lapack::Routines<float>* r;
    (void)lapack::routines<float>(&r);
    r->gemm(lapack::kRowMajor, trans_a ? lapack::kCblasTrans : lapack::kCblasNoTrans,
            trans_b ? lapack::kCblasTrans : lapack::kCblasNoTrans, m, n, k, 1.f, a, trans_a ? m : k, b,
            trans_b ? k : n, beta, c, n);
    return;
  }
  Map cm(c, m, n);
  if (beta == 0) cm.setZero();
  if (!trans_a && !trans_b) cm.noalias() += ConstMap(a, m, k) * ConstMap(b, k, n);
  if (!trans_a && trans_b) cm.noalias() += ConstMap(a, m, k) * ConstMap(b, n, k).transpose();
  if (trans_a && !trans_b) cm.noalias() += ConstMap(a, k, m).transpose() * ConstMap(b, k, n);
}

int64_t block_rows(const Geometry& g, int64_t bytes) { return std::max<int64_t>(16, bytes / (g.cols() * 4)); }

void forward(bool blas, const Geometry& g, const float* x, const float* w, float* y, int64_t bytes) {
  const int64_t rows = g.rows(), block = block_rows(g, bytes), blocks = (rows + block - 1) / block;
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    std::vector<float> col(block * g.cols());
    for (int64_t bi = b0; bi < b1; ++bi) {
      const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
      im2col(g, x, m0, m1, col.data());
      gemm(blas, false, false, m1 - m0, g.k, g.cols(), col.data(), w, 0.f, y + m0 * g.k);
    }
  });
}

void backprop_input(bool blas, const Geometry& g, const float* w, const float* dy, float* dx, int64_t bytes) {
  std::fill(dx, dx + g.rows() * g.c, 0.f);
  const int64_t pixels = g.h * g.w, block = std::min(block_rows(g, bytes), pixels);
  parallel_for(g.n, 1, [&](int64_t i0, int64_t i1) {
    std::vector<float> col(block * g.cols());
    for (int64_t image = i0; image < i1; ++image) {
      for (int64_t p0 = 0; p0 < pixels; p0 += block) {
        const int64_t m0 = image * pixels + p0, m1 = m0 + std::min(block, pixels - p0);
        gemm(blas, false, true, m1 - m0, g.cols(), g.k, dy + m0 * g.k, w, 0.f, col.data());
        col2im_add(g, col.data(), m0, m1, dx);
      }
    }
  });
}

void backprop_filter(bool blas, const Geometry& g, const float* x, const float* dy, float* dw, int64_t bytes) {
  std::fill(dw, dw + g.cols() * g.k, 0.f);
  const int64_t rows = g.rows(), block = block_rows(g, bytes), blocks = (rows + block - 1) / block;
  std::mutex mu;
  parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    std::vector<float> col(block * g.cols()), partial(g.cols() * g.k, 0.f);
    for (int64_t bi = b0; bi < b1; ++bi) {
      const int64_t m0 = bi * block, m1 = std::min(rows, m0 + block);
      im2col(g, x, m0, m1, col.data());
      gemm(blas, true, false, g.cols(), g.k, m1 - m0, col.data(), dy + m0 * g.k, 1.f, partial.data());
    }
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = 0; i < partial.size(); ++i) dw[i] += partial[i];
  });
}

// The registered kernel of `op_name` through the eager path (its few µs of dispatch are noise here).
double registered_kernel_ms(const char* op_name, std::vector<Tensor> in, int reps) {
  AttrMap attrs;
  attrs.set("T", DType::kFloat32);
  attrs.set("strides", std::vector<int64_t>{1, 1, 1, 1});
  attrs.set("padding", std::string("SAME"));
  attrs.set("data_format", std::string("NHWC"));
  attrs.set("dilations", std::vector<int64_t>{1, 1, 1, 1});
  attrs.set("use_cudnn_on_gpu", true);
  attrs.set("explicit_paddings", std::vector<int64_t>{});
  std::vector<Tensor> out;
  const Status status = execute_eager(op_name, in, attrs, &out);
  if (!status.ok()) {
    std::printf("%s failed\n", op_name);
    return -1;
  }
  return time_ms([&] { (void)execute_eager(op_name, in, attrs, &out); }, reps);
}

Tensor tensor_of(const std::vector<float>& v, Shape shape) {
  Tensor t(DType::kFloat32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

Tensor shape_tensor(std::vector<int32_t> dims) {
  Tensor t(DType::kInt32, Shape{static_cast<int64_t>(dims.size())});
  std::copy(dims.begin(), dims.end(), t.data<int32_t>());
  return t;
}

#ifdef CONV_BENCH_ONEDNN
struct OneDnnTimes {
  double fwd, bwd_data, bwd_weights;
};

OneDnnTimes onednn_ms(const Geometry& g, float* x, float* w, float* dy, float* y, float* dx, float* dw, int reps) {
  using namespace dnnl;
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  using tag = memory::format_tag;
  const memory::dims src_d{g.n, g.c, g.h, g.w}, wei_d{g.k, g.c, g.kh, g.kw}, dst_d{g.n, g.k, g.h, g.w};
  const memory::dims strides{1, 1}, pad{(g.kh - 1) / 2, (g.kw - 1) / 2};
  auto f32 = memory::data_type::f32;
  // User memory in TF's layouts: NHWC and HWIO.
  memory src_user({src_d, f32, tag::nhwc}, eng, x), wei_user({wei_d, f32, tag::hwio}, eng, w),
      dst_user({dst_d, f32, tag::nhwc}, eng, y), ddst_user({dst_d, f32, tag::nhwc}, eng, dy),
      dsrc_user({src_d, f32, tag::nhwc}, eng, dx), dwei_user({wei_d, f32, tag::hwio}, eng, dw);
  // Primitive descriptors on the user layouts directly (the framework would otherwise reorder).
  auto fwd_pd = convolution_forward::primitive_desc(
      eng, prop_kind::forward_training, algorithm::convolution_direct, src_user.get_desc(), wei_user.get_desc(),
      dst_user.get_desc(), strides, pad, pad);
  auto bwd_d_pd = convolution_backward_data::primitive_desc(eng, algorithm::convolution_direct,
                                                            dsrc_user.get_desc(), wei_user.get_desc(),
                                                            ddst_user.get_desc(), strides, pad, pad, fwd_pd);
  auto bwd_w_pd = convolution_backward_weights::primitive_desc(eng, algorithm::convolution_direct,
                                                               src_user.get_desc(), dwei_user.get_desc(),
                                                               ddst_user.get_desc(), strides, pad, pad, fwd_pd);
  std::printf("  oneDNN impls: fwd %s, bwd_data %s, bwd_weights %s\n", fwd_pd.impl_info_str(),
              bwd_d_pd.impl_info_str(), bwd_w_pd.impl_info_str());
  convolution_forward fwd(fwd_pd);
  convolution_backward_data bwd_d(bwd_d_pd);
  convolution_backward_weights bwd_w(bwd_w_pd);
  OneDnnTimes t;
  t.fwd = time_ms([&] {
    fwd.execute(s, {{DNNL_ARG_SRC, src_user}, {DNNL_ARG_WEIGHTS, wei_user}, {DNNL_ARG_DST, dst_user}});
    s.wait();
  }, reps);
  t.bwd_data = time_ms([&] {
    bwd_d.execute(s, {{DNNL_ARG_DIFF_DST, ddst_user}, {DNNL_ARG_WEIGHTS, wei_user}, {DNNL_ARG_DIFF_SRC, dsrc_user}});
    s.wait();
  }, reps);
  t.bwd_weights = time_ms([&] {
    bwd_w.execute(s, {{DNNL_ARG_SRC, src_user}, {DNNL_ARG_DIFF_DST, ddst_user}, {DNNL_ARG_DIFF_WEIGHTS, dwei_user}});
    s.wait();
  }, reps);
  return t;
}
#endif

void bench(const char* name, const Geometry& g, int reps) {
  auto x = random_vector(g.rows() * g.c, 1), w = random_vector(g.cols() * g.k, 2), dy = random_vector(g.rows() * g.k, 3);
  std::vector<float> y(g.rows() * g.k), dx(g.rows() * g.c), dw(g.cols() * g.k);
  std::printf("%s: [%lld,%lld,%lld,%lld] * [%lld,%lld,%lld,%lld], %d threads\n", name, (long long)g.n,
              (long long)g.h, (long long)g.w, (long long)g.c, (long long)g.kh, (long long)g.kw, (long long)g.c,
              (long long)g.k, parallel_threads());
  const Shape xs{g.n, g.h, g.w, g.c}, ws{g.kh, g.kw, g.c, g.k}, ys{g.n, g.h, g.w, g.k};
  std::printf("  %-28s fwd %7.3f  bwd_input %7.3f  bwd_filter %7.3f ms\n", "kernel (registered)",
              registered_kernel_ms("Conv2D", {tensor_of(x, xs), tensor_of(w, ws)}, reps),
              registered_kernel_ms("Conv2DBackpropInput",
                                   {shape_tensor({(int)g.n, (int)g.h, (int)g.w, (int)g.c}), tensor_of(w, ws),
                                    tensor_of(dy, ys)}, reps),
              registered_kernel_ms("Conv2DBackpropFilter",
                                   {tensor_of(x, xs), shape_tensor({(int)g.kh, (int)g.kw, (int)g.c, (int)g.k}),
                                    tensor_of(dy, ys)}, reps));
  for (bool blas : {false, true}) {
    for (int64_t kb : {128, 512, 2048}) {
      const int64_t bytes = kb * 1024;
      char label[64];
      std::snprintf(label, sizeof label, "%s, %lld KB blocks", blas ? "openblas" : "eigen", (long long)kb);
      std::printf("  %-28s fwd %7.3f  bwd_input %7.3f  bwd_filter %7.3f ms\n", label,
                  time_ms([&] { forward(blas, g, x.data(), w.data(), y.data(), bytes); }, reps),
                  time_ms([&] { backprop_input(blas, g, w.data(), dy.data(), dx.data(), bytes); }, reps),
                  time_ms([&] { backprop_filter(blas, g, x.data(), dy.data(), dw.data(), bytes); }, reps));
    }
  }
#ifdef CONV_BENCH_ONEDNN
  const OneDnnTimes t = onednn_ms(g, x.data(), w.data(), dy.data(), y.data(), dx.data(), dw.data(), reps);
  std::printf("  %-28s fwd %7.3f  bwd_input %7.3f  bwd_filter %7.3f ms\n", "onednn", t.fwd, t.bwd_data,
              t.bwd_weights);
#endif
}

}  // namespace

int main() {
  install_builtin_ops();
  bench("issue row", Geometry{32, 28, 28, 32, 3, 3, 64}, 10);
  bench("convnet conv1", Geometry{64, 28, 28, 1, 3, 3, 32}, 10);
  bench("convnet conv2", Geometry{64, 14, 14, 32, 3, 3, 64}, 10);
  return 0;
}
