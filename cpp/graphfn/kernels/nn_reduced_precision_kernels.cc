// float16 and bfloat16 kernels of ReluGrad, Softmax and LogSoftmax: what a mixed-precision model
// (Keras's mixed_float16 / mixed_bfloat16 policies) runs in its layers and their gradients
// (BiasAdd and BiasAddGrad for these dtypes are in wide_dtype_kernels.cc). Elements are computed
// in float and rounded once; softmax's normaliser accumulates in float, as TF's kernels do.
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {

template <typename T>
struct ReducedReluGradKernel {
  static Status compute(KernelContext& c) {
    Tensor& out = c.allocate_output(0);
    const T* g = c.input(0).data<T>();
    const T* f = c.input(1).data<T>();
    T* po = out.data<T>();
    for (int64_t i = 0; i < out.num_elements(); ++i) po[i] = static_cast<float>(f[i]) > 0.0f ? g[i] : T(0.0f);
    return Status::OK();
  }
};

// Row by row over the last dimension: m = max, e = exp(x - m), softmax = e / sum(e),
// log_softmax = x - m - log(sum(e)).
template <typename T, bool kLog>
struct ReducedSoftmaxKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    Tensor& out = c.allocate_output(0);
    const int64_t n = x.dim(x.rank() - 1);
    if (n == 0) return Status::OK();
    const int64_t rows = x.num_elements() / n;
    std::vector<float> shifted(n);
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = x.data<T>() + r * n;
      T* o = out.data<T>() + r * n;
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<float>(row[i]));
      float sum = 0.0f;
      for (int64_t i = 0; i < n; ++i) {
        shifted[i] = static_cast<float>(row[i]) - m;
        sum += std::exp(shifted[i]);
      }
      if (kLog) {
        const float log_sum = std::log(sum);
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(shifted[i] - log_sum);
      } else {
        const float inverse = 1.0f / sum;
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(std::exp(shifted[i]) * inverse);
      }
    }
    return Status::OK();
  }
};

template <typename T>
using ReducedSoftmax = ReducedSoftmaxKernel<T, false>;
template <typename T>
using ReducedLogSoftmax = ReducedSoftmaxKernel<T, true>;

}  // namespace

void register_nn_reduced_precision_kernels(OpRegistry& reg) {
  using ReducedFloats = TypeList<Eigen::half, Eigen::bfloat16>;
  register_kernels<ReducedReluGradKernel>(reg, "ReluGrad", ReducedFloats{});
  register_kernels<ReducedSoftmax>(reg, "Softmax", ReducedFloats{});
  register_kernels<ReducedLogSoftmax>(reg, "LogSoftmax", ReducedFloats{});
}

}  // namespace graphfn
