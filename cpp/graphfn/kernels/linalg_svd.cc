// The Svd kernel (ops/linalg_more_ops.cc): Eigen's BDCSVD, as TF's CPU kernel. It is in a file
// of its own, compiled outside the unity batches (cpp/CMakeLists.txt): it is the most expensive
// code of the build to compile (BDCSVD and its JacobiSVD fallback, per dtype), and alone it
// starts early and runs beside the other batches.
#include <Eigen/Dense>
#include <algorithm>
#include <limits>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"

namespace graphfn {
namespace {

template <typename T>
using RowMajorMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
template <typename T>
using ConstRowMajorMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

template <typename T>
struct SvdKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const bool uv = c.attrs.get_bool("compute_uv", true), full = c.attrs.get_bool("full_matrices", false);
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), p = std::min(m, n);
    const int64_t batches = matrix_batch_size(x.shape());
    Tensor& s = c.allocate_output(0);
    Tensor& u = c.allocate_output(1);
    Tensor& v = c.allocate_output(2);
    const int64_t uc = full ? m : p, vc = full ? n : p;
    if (u.num_elements() > 0) std::fill_n(u.data<T>(), u.num_elements(), T(0));
    if (v.num_elements() > 0) std::fill_n(v.data<T>(), v.num_elements(), T(0));
    for_each_matrix(batches, std::max(m, n), [&](int64_t b) {
      T* sp = s.data<T>() + b * p;
      if (m == 0 || n == 0) {
        if (uv) {  // the identity part of full U/V of an empty matrix
          for (int64_t i = 0; i < std::min(m, uc); ++i) u.data<T>()[b * m * uc + i * uc + i] = full ? T(1) : T(0);
          for (int64_t i = 0; i < std::min(n, vc); ++i) v.data<T>()[b * n * vc + i * vc + i] = full ? T(1) : T(0);
        }
        return;
      }
      ConstRowMajorMap<T> a(x.data<T>() + b * m * n, m, n);
      if (!a.allFinite()) {  // Eigen's BDCSVD fails on these; TF then returns NaN
        const T nan = std::numeric_limits<T>::quiet_NaN();
        std::fill_n(sp, p, nan);
        if (uv) {
          std::fill_n(u.data<T>() + b * m * uc, m * uc, nan);
          std::fill_n(v.data<T>() + b * n * vc, n * vc, nan);
        }
        return;
      }
      const unsigned opts = !uv ? 0 : full ? (Eigen::ComputeFullU | Eigen::ComputeFullV)
                                            : (Eigen::ComputeThinU | Eigen::ComputeThinV);
      // On a column-major copy: BDCSVD copies its input into column-major storage anyway, and
      // its row-major instantiation cost a fifth more compile time (docs/building.md).
      Eigen::BDCSVD<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> svd(a, opts);
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(sp, p) = svd.singularValues();
      if (uv) {
        RowMajorMap<T>(u.data<T>() + b * m * uc, m, uc) = svd.matrixU();
        RowMajorMap<T>(v.data<T>() + b * n * vc, n, vc) = svd.matrixV();
      }
    });
    return Status::OK();
  }
};

}  // namespace

// Called by register_linalg_more_kernels.
void register_linalg_svd_kernels(OpRegistry& reg) {
  register_kernels<SvdKernel>(reg, "Svd", FloatTypes{});
}

}  // namespace graphfn
