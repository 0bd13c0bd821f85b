// The decomposition kernels of ops/linalg_more_ops.cc, on LAPACK (kernels/lapack.h): LU with
// partial pivoting (determinants, inverse, solve, Lu), Cholesky, the symmetric eigensolver, QR,
// SVD, and BLAS's triangular solve. TF's CPU kernels use Eigen's versions of the same
// algorithms; results agree to rounding (the sign of an eigen- or singular vector may differ,
// as between any two LAPACKs). Each matrix of a batch is factored on a row-major copy, the
// batch split over two threads when large (matrix_batches.h).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/lapack.h"
#include "graphfn/kernels/matrix_batches.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

using lapack::Routines;

// The routines for T and a, b as LAPACK dimensions, or the error that stops the kernel.
template <typename T>
Status prepare(const char* op, const Routines<T>** r, std::initializer_list<std::pair<int64_t, int*>> dims) {
  GRAPHFN_RETURN_IF_ERROR(lapack::routines<T>(r));
  for (const auto& [n, out] : dims) GRAPHFN_RETURN_IF_ERROR(lapack::lapack_dim(n, op, out));
  return Status::OK();
}

template <typename T>
bool all_finite(const T* p, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (!std::isfinite(p[i])) return false;
  }
  return true;
}

// TF's test after the factorization: the smallest pivot's magnitude is above zero (a NaN pivot
// fails it too).
template <typename T>
bool invertible(const T* lu, int64_t n) {
  T smallest = std::abs(lu[0]);
  for (int64_t i = 1; i < n; ++i) smallest = std::abs(lu[i * n + i]) < smallest ? std::abs(lu[i * n + i]) : smallest;
  return smallest > T(0);
}

// getrf's row swaps (1-based: row i was swapped with ipiv[i]) as the sign of the permutation.
int permutation_sign(const std::vector<int>& ipiv) {
  int sign = 1;
  for (size_t i = 0; i < ipiv.size(); ++i) {
    if (ipiv[i] != static_cast<int>(i) + 1) sign = -sign;
  }
  return sign;
}

// The sign and log |det| of a matrix from its LU factors, as TF's SLogDet (a zero pivot: sign 0,
// -inf).
template <typename T>
void slogdet(const T* lu, const std::vector<int>& ipiv, int64_t n, T* sign, T* log_abs) {
  T s = T(permutation_sign(ipiv)), total = T(0);
  for (int64_t i = 0; i < n; ++i) {
    const T d = lu[i * n + i];
    if (d == T(0)) {
      s = T(0);
      total = -std::numeric_limits<T>::infinity();
      break;
    }
    if (d < T(0)) s = -s;
    total += std::log(std::abs(d));
  }
  *sign = s;
  *log_abs = total;
}

// The determinant is sign * exp(log |det|), as TF's kernel computes it (so det([[1, 2], [3, 4]])
// is -2 in float32, where the product of the pivots rounds to -1.9999999).
template <typename T>
struct DeterminantKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    T* out = c.allocate_output(0).data<T>();
    if (n == 0) {
      std::fill_n(out, batches, T(1));
      return Status::OK();
    }
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("MatrixDeterminant", &r, {{n, &ni}}));
    for_each_matrix(batches, n, [&](int64_t b) {
      std::vector<T> lu(x.data<T>() + b * n * n, x.data<T>() + (b + 1) * n * n);
      std::vector<int> ipiv(n);
      r->getrf(lapack::kRowMajor, ni, ni, lu.data(), ni, ipiv.data());
      T sign, log_abs;
      slogdet(lu.data(), ipiv, n, &sign, &log_abs);
      out[b] = sign * std::exp(log_abs);
    });
    return Status::OK();
  }
};

template <typename T>
struct LogDeterminantKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    T* sign = c.allocate_output(0).data<T>();
    T* log_abs = c.allocate_output(1).data<T>();
    std::fill_n(sign, batches, T(1));
    std::fill_n(log_abs, batches, T(0));
    if (n == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("LogMatrixDeterminant", &r, {{n, &ni}}));
    std::vector<T> lu(n * n);
    std::vector<int> ipiv(n);
    for (int64_t b = 0; b < batches; ++b) {
      std::copy_n(x.data<T>() + b * n * n, n * n, lu.data());
      r->getrf(lapack::kRowMajor, ni, ni, lu.data(), ni, ipiv.data());
      slogdet(lu.data(), ipiv, n, &sign[b], &log_abs[b]);
    }
    return Status::OK();
  }
};

// inv(A) by solving A^T-factored systems against the identity: a row-major buffer read as
// column-major is A^T, so factoring it in place and solving (A^T) X = I gives inv(A^T), which is
// inv(A) back in row-major order; with trans 'T' the same factors give inv(A)^T, the adjoint.
// This is LAPACK's getrs on a column-major matrix, without LAPACKE's row-major copies; getri was
// slower for the small matrices of a batch.
template <typename T>
struct InverseKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const bool adjoint = c.attrs.get_bool("adjoint", false);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    if (n == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("MatrixInverse", &r, {{n, &ni}}));
    std::atomic<bool> singular{false};
    for_each_matrix(batches, n, [&](int64_t b) {
      std::vector<T> lu(x.data<T>() + b * n * n, x.data<T>() + (b + 1) * n * n);
      std::vector<int> ipiv(n);
      r->getrf(lapack::kColMajor, ni, ni, lu.data(), ni, ipiv.data());
      if (!invertible(lu.data(), n)) {
        singular = true;
        return;
      }
      T* inv = out.data<T>() + b * n * n;
      std::fill_n(inv, n * n, T(0));
      for (int64_t i = 0; i < n; ++i) inv[i * n + i] = T(1);
      r->getrs(lapack::kColMajor, adjoint ? 'T' : 'N', ni, ni, lu.data(), ni, ipiv.data(), inv, ni);
    });
    if (singular) return errors::InvalidArgument("Input is not invertible.");
    return Status::OK();
  }
};

template <typename T>
struct SolveKernel {
  static Status compute(KernelContext& c) {
    const Tensor& a = c.input(0);
    const Tensor& rhs = c.input(1);
    const bool adjoint = c.attrs.get_bool("adjoint", false);
    const int64_t n = a.dim(a.rank() - 1), k = rhs.dim(rhs.rank() - 1), batches = matrix_batch_size(a.shape());
    Tensor& out = c.allocate_output(0);
    if (n == 0 || k == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0, ki = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("MatrixSolve", &r, {{n, &ni}, {k, &ki}}));
    std::vector<T> lu(n * n);
    std::vector<int> ipiv(n);
    for (int64_t b = 0; b < batches; ++b) {
      std::copy_n(a.data<T>() + b * n * n, n * n, lu.data());
      r->getrf(lapack::kRowMajor, ni, ni, lu.data(), ni, ipiv.data());
      if (!invertible(lu.data(), n)) {
        return errors::InvalidArgument("Input matrix is not invertible.");
      }
      T* x = out.data<T>() + b * n * k;
      std::copy_n(rhs.data<T>() + b * n * k, n * k, x);
      r->getrs(lapack::kRowMajor, adjoint ? 'T' : 'N', ni, ki, lu.data(), ni, ipiv.data(), x, ki);
    }
    return Status::OK();
  }
};

template <typename T>
struct LuKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    Tensor& perm = c.allocate_output(1);
    const bool idx64 = perm.dtype() == DType::kInt64;
    if (n == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("Lu", &r, {{n, &ni}}));
    std::vector<int> ipiv(n);
    std::vector<int64_t> rows(n);
    for (int64_t b = 0; b < batches; ++b) {
      T* lu = out.data<T>() + b * n * n;
      std::copy_n(x.data<T>() + b * n * n, n * n, lu);
      r->getrf(lapack::kRowMajor, ni, ni, lu, ni, ipiv.data());
      if (!invertible(lu, n)) {
        return errors::InvalidArgument("Input is not invertible.");
      }
      // TF's p lists, for each row of LU, the row of A it came from: replay getrf's swaps.
      for (int64_t i = 0; i < n; ++i) rows[i] = i;
      for (int64_t i = 0; i < n; ++i) std::swap(rows[i], rows[ipiv[i] - 1]);
      for (int64_t i = 0; i < n; ++i) {
        if (idx64) perm.data<int64_t>()[b * n + i] = rows[i];
        else perm.data<int32_t>()[b * n + i] = static_cast<int32_t>(rows[i]);
      }
    }
    return Status::OK();
  }
};

// A matrix that is not positive definite gives NaN factors, as TF 2.21's kernel (no error).
template <typename T>
struct CholeskyKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    if (n == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("Cholesky", &r, {{n, &ni}}));
    for_each_matrix(batches, n, [&](int64_t b) {
      const T* in = x.data<T>() + b * n * n;
      T* o = out.data<T>() + b * n * n;
      std::copy_n(in, n * n, o);
      // potrf reads and writes the lower triangle only, like TF's kernel.
      const bool ok = r->potrf(lapack::kRowMajor, 'L', ni, o, ni) == 0 && all_finite(in, n * n);
      const T upper = T(0), failed = std::numeric_limits<T>::quiet_NaN();
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          if (j > i) o[i * n + j] = upper;
          else if (!ok) o[i * n + j] = failed;
        }
      }
    });
    return Status::OK();
  }
};

template <typename T>
struct EigKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const bool compute_v = c.attrs.get_bool("compute_v", true);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& e = c.allocate_output(0);
    Tensor& v = c.allocate_output(1);
    if (n == 0) return Status::OK();
    const Routines<T>* r = nullptr;
    int ni = 0;
    GRAPHFN_RETURN_IF_ERROR(prepare<T>("SelfAdjointEigV2", &r, {{n, &ni}}));
    std::atomic<bool> failed{false};
    for_each_matrix(batches, n, [&](int64_t b) {
      const T* in = x.data<T>() + b * n * n;
      if (!all_finite(in, n * n)) {
        failed = true;
        return;
      }
      // The lower triangle is read (TF's documented contract); the eigenvectors replace it.
      std::vector<T> scratch;
      T* a = compute_v ? v.data<T>() + b * n * n : (scratch.resize(n * n), scratch.data());
      std::copy_n(in, n * n, a);
      if (r->syevd(lapack::kRowMajor, compute_v ? 'V' : 'N', 'L', ni, a, ni, e.data<T>() + b * n) != 0) {
        failed = true;
      }
    });
    if (failed) {
      return errors::InvalidArgument("Self-adjoint eigen decomposition was not successful. The input might not be valid.");
    }
    return Status::OK();
  }
};

template <typename T>
struct QrKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const bool full = c.attrs.get_bool("full_matrices", false);
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), p = std::min(m, n);
    const int64_t qc = full ? m : p, batches = matrix_batch_size(x.shape());
    Tensor& q = c.allocate_output(0);
    Tensor& rt = c.allocate_output(1);
    const Routines<T>* r = nullptr;
    int mi = 0, ni = 0, pi = 0, qci = 0;
    if (m > 0 && n > 0) GRAPHFN_RETURN_IF_ERROR(prepare<T>("Qr", &r, {{m, &mi}, {n, &ni}, {p, &pi}, {qc, &qci}}));
    for_each_matrix(batches, std::max(m, n), [&](int64_t b) {
      T* qm = q.data<T>() + b * m * qc;
      T* rm = rt.data<T>() + b * qc * n;
      std::fill_n(rm, qc * n, T(0));
      if (m == 0 || n == 0) {
        std::fill_n(qm, m * qc, T(0));
        for (int64_t i = 0; i < std::min(m, qc); ++i) qm[i * qc + i] = T(1);
        return;
      }
      std::vector<T> a(x.data<T>() + b * m * n, x.data<T>() + (b + 1) * m * n), tau(p);
      r->geqrf(lapack::kRowMajor, mi, ni, a.data(), ni, tau.data());
      for (int64_t i = 0; i < std::min(qc, m); ++i) {
        for (int64_t j = i; j < n; ++j) rm[i * n + j] = a[i * n + j];
      }
      // Q: the first p reflectors, expanded to qc columns.
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < qc; ++j) qm[i * qc + j] = j < p ? a[i * n + j] : T(0);
      }
      r->orgqr(lapack::kRowMajor, mi, qci, pi, qm, qci, tau.data());
    });
    return Status::OK();
  }
};

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
    const Routines<T>* r = nullptr;
    int mi = 0, ni = 0, uci = 0;
    if (m > 0 && n > 0) GRAPHFN_RETURN_IF_ERROR(prepare<T>("Svd", &r, {{m, &mi}, {n, &ni}, {uc, &uci}}));
    const char job = !uv ? 'N' : full ? 'A' : 'S';
    const T nan = std::numeric_limits<T>::quiet_NaN();
    for_each_matrix(batches, std::max(m, n), [&](int64_t b) {
      T* sp = s.data<T>() + b * p;
      T* up = uv ? u.data<T>() + b * m * uc : nullptr;
      T* vp = uv ? v.data<T>() + b * n * vc : nullptr;
      if (m == 0 || n == 0) {
        if (uv) {  // the identity part of full U/V of an empty matrix
          for (int64_t i = 0; i < std::min(m, uc); ++i) up[i * uc + i] = full ? T(1) : T(0);
          for (int64_t i = 0; i < std::min(n, vc); ++i) vp[i * vc + i] = full ? T(1) : T(0);
        }
        return;
      }
      std::vector<T> a(x.data<T>() + b * m * n, x.data<T>() + (b + 1) * m * n);
      std::vector<T> vt(uv ? vc * n : 1);
      // A matrix with NaN or infinity gives NaN results, as TF's.
      bool ok = all_finite(a.data(), m * n);
      if (ok) {
        T dummy = T(0);
        ok = r->gesdd(lapack::kRowMajor, job, mi, ni, a.data(), ni, sp, uv ? up : &dummy, uv ? uci : 1,
                      uv ? vt.data() : &dummy, uv ? ni : 1) == 0;
      }
      if (!ok) {
        std::fill_n(sp, p, nan);
        if (uv) {
          std::fill_n(up, m * uc, nan);
          std::fill_n(vp, n * vc, nan);
        }
        return;
      }
      if (uv) {  // V = (V^T)^T
        for (int64_t i = 0; i < vc; ++i) {
          for (int64_t j = 0; j < n; ++j) vp[j * vc + i] = vt[i * n + j];
        }
      }
    });
    return Status::OK();
  }
};

template <typename T>
struct TriangularSolveKernel {
  static Status compute(KernelContext& c) {
    const Tensor& a = c.input(0);
    const Tensor& rhs = c.input(1);
    const bool lower = c.attrs.get_bool("lower", true), adjoint = c.attrs.get_bool("adjoint", false);
    Tensor& out = c.allocate_output(0);
    const int64_t n = a.dim(a.rank() - 1), k = rhs.dim(rhs.rank() - 1);
    if (out.num_elements() == 0) return Status::OK();
    // Batch pairs by broadcasting: index tensors through the broadcast view.
    const Shape ab(std::vector<int64_t>(a.shape().dims().begin(), a.shape().dims().end() - 2));
    const Shape bb(std::vector<int64_t>(rhs.shape().dims().begin(), rhs.shape().dims().end() - 2));
    const Shape ob(std::vector<int64_t>(out.shape().dims().begin(), out.shape().dims().end() - 2));
    const int64_t nout = ob.num_elements();
    std::vector<int64_t> ia(nout), ib(nout), seq_a(ab.num_elements()), seq_b(bb.num_elements());
    for (size_t i = 0; i < seq_a.size(); ++i) seq_a[i] = static_cast<int64_t>(i);
    for (size_t i = 0; i < seq_b.size(); ++i) seq_b[i] = static_cast<int64_t>(i);
    strided_copy(seq_a.data(), broadcast_view(ab, ob), ia.data());
    strided_copy(seq_b.data(), broadcast_view(bb, ob), ib.data());
    const Routines<T>* r = nullptr;
    int ni = 0, ki = 0;
    if (n > 0) GRAPHFN_RETURN_IF_ERROR(prepare<T>("MatrixTriangularSolve", &r, {{n, &ni}, {k, &ki}}));
    for (int64_t o = 0; o < nout; ++o) {
      T* x = out.data<T>() + o * n * k;
      std::copy_n(rhs.data<T>() + ib[o] * n * k, n * k, x);
      if (n == 0) continue;
      // No singularity check: a zero on the diagonal gives inf/NaN, as TF's Eigen solve.
      r->trsm(lapack::kRowMajor, lapack::kCblasLeft, lower ? lapack::kCblasLower : lapack::kCblasUpper,
              adjoint ? lapack::kCblasTrans : lapack::kCblasNoTrans, lapack::kCblasNonUnit, ni, ki, T(1),
              a.data<T>() + ia[o] * n * n, ni, x, ki);
    }
    return Status::OK();
  }
};

}  // namespace

// Called by register_linalg_more_kernels.
void register_linalg_decomposition_kernels(OpRegistry& reg) {
  register_kernels<DeterminantKernel>(reg, "MatrixDeterminant", FloatTypes{});
  register_kernels<LogDeterminantKernel>(reg, "LogMatrixDeterminant", FloatTypes{});
  register_kernels<InverseKernel>(reg, "MatrixInverse", FloatTypes{});
  register_kernels<SolveKernel>(reg, "MatrixSolve", FloatTypes{});
  register_kernels<LuKernel>(reg, "Lu", FloatTypes{});
  register_kernels<CholeskyKernel>(reg, "Cholesky", FloatTypes{});
  register_kernels<EigKernel>(reg, "SelfAdjointEigV2", FloatTypes{});
  register_kernels<SvdKernel>(reg, "Svd", FloatTypes{});
  register_kernels<QrKernel>(reg, "Qr", FloatTypes{});
  register_kernels<TriangularSolveKernel>(reg, "MatrixTriangularSolve", FloatTypes{});
}

}  // namespace graphfn
