// MatrixSolve on complex64/complex128 (tf.linalg.solve, and the gradient of tf.linalg.eig):
// Eigen's partial-pivoting LU, the algorithm of TF's CPU kernel. The real dtypes are solved by
// LAPACK (linalg_decompositions.cc), which graphfn loads for float and double only.
#include <Eigen/Core>
#include <Eigen/LU>
#include <complex>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"

namespace graphfn {
namespace {

template <typename T>
struct ComplexSolveKernel {
  static Status compute(KernelContext& c) {
    using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Tensor& a = c.input(0);
    const Tensor& rhs = c.input(1);
    const bool adjoint = c.attrs.get_bool("adjoint", false);
    const int64_t n = a.dim(a.rank() - 1), k = rhs.dim(rhs.rank() - 1), batches = matrix_batch_size(a.shape());
    Tensor& out = c.allocate_output(0);
    if (n == 0 || k == 0) return Status::OK();
    for (int64_t b = 0; b < batches; ++b) {
      Eigen::Map<const Matrix> m(a.data<T>() + b * n * n, n, n);
      Eigen::PartialPivLU<Matrix> lu = adjoint ? Eigen::PartialPivLU<Matrix>(m.adjoint()) : Eigen::PartialPivLU<Matrix>(m);
      // TF's test: the smallest pivot's magnitude is above zero (a NaN pivot fails it too).
      const auto pivots = lu.matrixLU().diagonal().cwiseAbs();
      if (!(pivots.minCoeff() > 0)) return errors::InvalidArgument("Input matrix is not invertible.");
      Eigen::Map<Matrix>(out.data<T>() + b * n * k, n, k) = lu.solve(Eigen::Map<const Matrix>(rhs.data<T>() + b * n * k, n, k));
    }
    return Status::OK();
  }
};

}  // namespace

void register_linalg_complex_solve_kernels(OpRegistry& reg) {
  register_kernels<ComplexSolveKernel>(reg, "MatrixSolve", ComplexTypes{});
}

}  // namespace graphfn
