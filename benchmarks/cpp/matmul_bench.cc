// Microbenchmark for the MatMul kernel: time per call of the registered kernel function
// (output allocation included, shape inference and dispatch excluded) and of the whole eager
// call. Build against the library of a Release build, e.g.:
//
//   ninja -C build/dev graphfn_runtime
//   g++ -O3 -march=native -std=c++17 -DEIGEN_MPL2_ONLY -Icpp -I$(EIGEN_INCLUDE) \
//       benchmarks/cpp/matmul_bench.cc \
//       build/dev/cpp/libgraphfn_{runtime,serialize,passes,autodiff,kernels,ops,ir,core}.a -o /tmp/matmul_bench
//   /tmp/matmul_bench
//
// Measurements (2-core Xeon VM with AVX-512, shared with other builds, so they
// vary by +-30%; best of 5):
//   10x10 int32: arithmetic alone ~90-100 ns (column-panel loop; for 10x10 float32 Eigen's GEMM
//     takes ~160 ns against the loop's ~70 ns);
//     the kernel call ~170-200 ns, of which ~70 ns is allocating the output tensor (~150 ns
//     before Buffer::allocate stopped using aligned_alloc).
//   float32 crossover panel loop / Eigen GEMM: n ~ 16 (hence kEigenGemmWork = 16^3).
//   1000x1000 float32: ~16-19 ms (single-threaded Eigen GEMM) vs NumPy/OpenBLAS ~21 ms on one
//     thread and ~33-46 ms with its default two threads (the cores are shared). Eigen with
//     OpenMP on both cores measured 50-76 ms, so the kernel stays single-threaded.
//   (Issue 19 moved products from 16^3 multiply-adds up to OpenBLAS over the intra-op pool:
//   kernels/gemm.h, and benchmarks/cpp/gemm_libraries_bench.cc for the libraries compared.)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"
#include "graphfn/kernels/eager.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/runtime/builtin_ops.h"

using namespace graphfn;

namespace {

template <typename T>
Tensor filled(int64_t rows, int64_t cols) {
  Tensor t(DTypeOf<T>::value, Shape{rows, cols});
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<T>()[i] = static_cast<T>(i % 7);
  return t;
}

// Best-of-5 mean time per call, in nanoseconds.
template <typename F>
double time_ns(F&& f, int reps) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / reps);
  }
  return best;
}

template <typename T>
void bench(int64_t n, int reps) {
  const OpDef& op = *OpRegistry::global().find("MatMul");
  Tensor in[2] = {filled<T>(n, n), filled<T>(n, n)};
  AttrMap attrs;
  DType type_attrs[1] = {DTypeOf<T>::value};
  InferenceContext ic(op, in, 2, attrs, type_attrs);
  if (!op.shape_fn(ic).ok()) return;
  std::vector<Tensor> outputs(1);
  KernelContext kc{op, in, 2, attrs, type_attrs, ic.output_dtypes(), ic.output_shapes(), &outputs};
  const KernelFn kernel = op.kernels[static_cast<int>(DTypeOf<T>::value)];
  const double kernel_ns = time_ns([&] { (void)kernel(kc); }, reps);
  std::vector<Tensor> out;
  const double eager_ns = time_ns([&] { (void)execute_eager(op, in, 2, attrs, &out); }, reps);
  std::printf("MatMul %-7s %5lldx%-5lld kernel %12.1f ns   eager call %12.1f ns\n", dtype_name(DTypeOf<T>::value),
              static_cast<long long>(n), static_cast<long long>(n), kernel_ns, eager_ns);
}

}  // namespace

int main() {
  install_builtin_ops();
  for (int64_t n : {2, 4, 10, 16, 32}) bench<int32_t>(n, 200000 / (n * n) + 1000);
  for (int64_t n : {10, 16, 32, 40, 48, 64, 128}) bench<float>(n, 2000000 / (n * n) + 100);
  bench<int32_t>(128, 200);
  bench<double>(256, 20);
  bench<float>(1000, 5);
  return 0;
}
