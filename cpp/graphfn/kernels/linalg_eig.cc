// Eig (tf.linalg.eig / eigvals): the eigenvalues and eigenvectors of general square matrices,
// complex results. TF's CPU kernel runs Eigen's ComplexEigenSolver on the matrix cast to the
// complex output type: a complex Schur decomposition A = U T U^H, the eigenvalues T's diagonal in
// the order the Schur form leaves them (TF's Eigen does not sort them; the Eigen graphfn bundles
// sorts by magnitude, so graphfn does not call its solver), the eigenvectors U X for the unit
// upper-triangular X with T X = X diag(T), each column scaled to unit 2-norm. TF's Eigen version
// reduces to Schur form with other choices than the bundled one: for some matrices the
// eigenvalues come in another order, and an eigenvector column can differ from TF's by a
// unit-modulus factor (docs/ops.md). LAPACK's geev (kernels/lapack.h) departs further from TF
// (other orders and phases), which is why this kernel is not on it.
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <atomic>
#include <cmath>
#include <complex>
#include <limits>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"

namespace graphfn {
namespace {

template <typename T>
struct ComplexOf {
  using type = std::complex<T>;
};
template <typename R>
struct ComplexOf<std::complex<R>> {
  using type = std::complex<R>;
};

template <typename T>
bool finite(const T& v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isfinite(v);
  } else {
    return std::isfinite(v.real()) && std::isfinite(v.imag());
  }
}

// The eigenvectors of A = U T U^H: column k of X solves (T - t_kk I) x = 0 with x_k = 1 and
// x_i = 0 below k, by back substitution upwards; equal eigenvalues get the gap eps * |T|_F
// instead of a zero divisor. V = U X, each column divided by its 2-norm (scaled, so no overflow).
template <typename Matrix>
Matrix eigenvectors(const Eigen::ComplexSchur<Matrix>& schur) {
  using C = typename Matrix::Scalar;
  using R = typename C::value_type;
  const Matrix& t = schur.matrixT();
  const Eigen::Index n = t.rows();
  const R tiny = std::max(t.norm(), std::numeric_limits<R>::min()) * std::numeric_limits<R>::epsilon();
  Matrix x = Matrix::Zero(n, n);
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    x(k, k) = C(1);
    for (Eigen::Index i = k - 1; i >= 0; --i) {
      C sum = -t(i, k);
      if (k - i - 1 > 0) sum -= (t.row(i).segment(i + 1, k - i - 1) * x.col(k).segment(i + 1, k - i - 1)).value();
      C gap = t(i, i) - t(k, k);
      if (gap == C(0)) gap = C(tiny);
      x(i, k) = sum / gap;
    }
  }
  Matrix v = schur.matrixU() * x;
  for (Eigen::Index k = 0; k < n; ++k) v.col(k).stableNormalize();
  return v;
}

template <typename T>
struct GeneralEigKernel {
  static Status compute(KernelContext& c) {
    using C = typename ComplexOf<T>::type;
    using Matrix = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Tensor& x = c.input(0);
    const DType want = DTypeOf<C>::value;
    const DType tout = c.attrs.get_type("Tout", want);
    if (tout != want) {
      return errors::InvalidArgument("Invalid output dtype ", static_cast<int>(tout), " vs ", static_cast<int>(want));
    }
    if (x.rank() < 2) return errors::InvalidArgument("Input tensor 0 must have rank >= 2, got ", x.rank());
    const int64_t n = x.dim(x.rank() - 1);
    if (x.dim(x.rank() - 2) != n) return errors::InvalidArgument("Input matrix must be square.");
    const bool compute_v = c.attrs.get_bool("compute_v", true);
    Tensor& e = c.allocate_output(0);
    Tensor& v = c.allocate_output(1);
    if (!compute_v) std::fill_n(v.data<C>(), v.num_elements(), C(0));
    const int64_t batches = matrix_batch_size(x.shape());
    std::atomic<bool> failed{false};
    for_each_matrix(batches, n, [&](int64_t b) {
      if (n == 0) return;
      const T* in = x.data<T>() + b * n * n;
      Matrix m(n, n);
      for (int64_t i = 0; i < n * n; ++i) {
        if (!finite(in[i])) {
          failed = true;
          return;
        }
        m.data()[i] = C(in[i]);
      }
      Eigen::ComplexSchur<Matrix> schur(m, compute_v);
      if (schur.info() != Eigen::Success) {
        failed = true;
        return;
      }
      const Matrix& t = schur.matrixT();
      for (int64_t i = 0; i < n; ++i) e.data<C>()[b * n + i] = t(i, i);
      if (compute_v) Eigen::Map<Matrix>(v.data<C>() + b * n * n, n, n) = eigenvectors(schur);
    });
    if (failed) return errors::InvalidArgument("Eigen decomposition was not successful. The input might not be valid.");
    return Status::OK();
  }
};

}  // namespace

void register_linalg_eig_kernels(OpRegistry& reg) {
  register_kernels<GeneralEigKernel>(reg, "Eig", TypeList<float, double, std::complex<float>, std::complex<double>>{});
}

}  // namespace graphfn
