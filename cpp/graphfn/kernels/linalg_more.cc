// Kernels of ops/linalg_more_ops.cc. Decompositions are Eigen's (as TF's CPU kernels): LU with
// partial pivoting (determinants, inverse, solve, Lu), LLT (Cholesky), SelfAdjointEigenSolver,
// HouseholderQR (Svd: linalg_svd.cc); each runs once per matrix of the batch on row-major Maps.
#include <Eigen/Dense>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ConstMap = Eigen::Map<const Mat<T>>;
template <typename T>
using MutMap = Eigen::Map<Mat<T>>;

template <typename T>
struct DeterminantKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    T* out = c.allocate_output(0).data<T>();
    for_each_matrix(batches, n, [&](int64_t b) {
      out[b] = n == 0 ? T(1) : Eigen::PartialPivLU<Mat<T>>(ConstMap<T>(x.data<T>() + b * n * n, n, n)).determinant();
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
    for (int64_t b = 0; b < batches; ++b) {
      sign[b] = T(1);
      log_abs[b] = T(0);
      if (n == 0) continue;
      ConstMap<T> m(x.data<T>() + b * n * n, n, n);
      Eigen::PartialPivLU<Mat<T>> lu(m);
      T s = static_cast<T>(lu.permutationP().determinant()), total = T(0);
      for (int64_t i = 0; i < n; ++i) {
        const T d = lu.matrixLU()(i, i);
        if (d == T(0)) {
          s = T(0);
          total = -std::numeric_limits<T>::infinity();
          break;
        }
        if (d < T(0)) s = -s;
        total += std::log(std::abs(d));
      }
      sign[b] = s;
      log_abs[b] = total;
    }
    return Status::OK();
  }
};

template <typename T>
bool invertible(const Eigen::PartialPivLU<Mat<T>>& lu) {
  return lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0);
}

template <typename T>
struct InverseKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const bool adjoint = c.attrs.get_bool("adjoint", false);
    const int64_t n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    if (n == 0) return Status::OK();
    std::atomic<bool> singular{false};
    for_each_matrix(batches, n, [&](int64_t b) {
      ConstMap<T> m(x.data<T>() + b * n * n, n, n);
      Eigen::PartialPivLU<Mat<T>> lu = adjoint ? Eigen::PartialPivLU<Mat<T>>(m.transpose()) : Eigen::PartialPivLU<Mat<T>>(m);
      if (!invertible(lu)) {
        singular = true;
        return;
      }
      MutMap<T>(out.data<T>() + b * n * n, n, n) = lu.inverse();
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
    for (int64_t b = 0; b < batches; ++b) {
      ConstMap<T> m(a.data<T>() + b * n * n, n, n);
      Eigen::PartialPivLU<Mat<T>> lu = adjoint ? Eigen::PartialPivLU<Mat<T>>(m.transpose()) : Eigen::PartialPivLU<Mat<T>>(m);
      if (!invertible(lu)) return errors::InvalidArgument("Input matrix is not invertible.");
      MutMap<T>(out.data<T>() + b * n * k, n, k) = lu.solve(ConstMap<T>(rhs.data<T>() + b * n * k, n, k));
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
    for (int64_t b = 0; b < batches; ++b) {
      Eigen::PartialPivLU<Mat<T>> lu(ConstMap<T>(x.data<T>() + b * n * n, n, n));
      if (!invertible(lu)) return errors::InvalidArgument("Input is not invertible.");
      MutMap<T>(out.data<T>() + b * n * n, n, n) = lu.matrixLU();
      // Eigen's P sends row i of A to row indices()[i] of LU; TF's p lists, for each row of LU,
      // the row of A it came from.
      const auto& to = lu.permutationP().indices();
      for (int64_t i = 0; i < n; ++i) {
        if (idx64) perm.data<int64_t>()[b * n + to[i]] = i;
        else perm.data<int32_t>()[b * n + to[i]] = static_cast<int32_t>(i);
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
    for_each_matrix(batches, n, [&](int64_t b) {
      ConstMap<T> m(x.data<T>() + b * n * n, n, n);
      MutMap<T> o(out.data<T>() + b * n * n, n, n);
      Eigen::LLT<Mat<T>, Eigen::Lower> llt(m);
      if (llt.info() == Eigen::Success && m.allFinite()) {
        o = llt.matrixL();
        return;
      }
      o.setZero();
      o.template triangularView<Eigen::Lower>().setConstant(std::numeric_limits<T>::quiet_NaN());
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
    std::atomic<bool> failed{false};
    for_each_matrix(batches, n, [&](int64_t b) {
      ConstMap<T> m(x.data<T>() + b * n * n, n, n);
      if (!m.allFinite()) {
        failed = true;
        return;
      }
      Eigen::SelfAdjointEigenSolver<Mat<T>> es(m, compute_v ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
      if (es.info() != Eigen::Success) {
        failed = true;
        return;
      }
      Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(e.data<T>() + b * n, n) = es.eigenvalues();
      if (compute_v) MutMap<T>(v.data<T>() + b * n * n, n, n) = es.eigenvectors();
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
    Tensor& r = c.allocate_output(1);
    for_each_matrix(batches, std::max(m, n), [&](int64_t b) {
      MutMap<T> qm(q.data<T>() + b * m * qc, m, qc);
      MutMap<T> rm(r.data<T>() + b * qc * n, qc, n);
      if (m == 0 || n == 0) {
        qm.setIdentity();
        rm.setZero();
        return;
      }
      Eigen::HouseholderQR<Mat<T>> qr(ConstMap<T>(x.data<T>() + b * m * n, m, n));
      qm = qr.householderQ() * Mat<T>::Identity(m, qc);
      rm = qr.matrixQR().topRows(qc).template triangularView<Eigen::Upper>();
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
    for (int64_t o = 0; o < nout; ++o) {
      ConstMap<T> m(a.data<T>() + ia[o] * n * n, n, n);
      MutMap<T> x(out.data<T>() + o * n * k, n, k);
      x = ConstMap<T>(rhs.data<T>() + ib[o] * n * k, n, k);
      if (n == 0) continue;
      if (!adjoint) {
        if (lower) m.template triangularView<Eigen::Lower>().solveInPlace(x);
        else m.template triangularView<Eigen::Upper>().solveInPlace(x);
      } else {
        if (lower) m.transpose().template triangularView<Eigen::Upper>().solveInPlace(x);
        else m.transpose().template triangularView<Eigen::Lower>().solveInPlace(x);
      }
    }
    return Status::OK();
  }
};

template <typename T>
struct BandPartKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    std::vector<int64_t> lo, hi;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &lo));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(2), &hi));
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    Tensor& out = c.allocate_output(0);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const int64_t at = (b * m + i) * n + j;
          const bool keep = (lo[0] < 0 || i - j <= lo[0]) && (hi[0] < 0 || j - i <= hi[0]);
          o[at] = keep ? in[at] : T();
        }
      }
    }
    return Status::OK();
  }
};

// The diagonals k in [lo, hi] of an m x n matrix, TF's packing: one row per diagonal (hi first),
// `max_len` entries, each diagonal aligned left or right per `align`.
struct DiagLayout {
  int64_t m, n, lo, hi, max_len;
  bool left_super, left_sub;  // align of superdiagonals / subdiagonals
  int64_t length(int64_t d) const { return std::min(m + std::min<int64_t>(0, d), n - std::max<int64_t>(0, d)); }
  int64_t offset(int64_t d) const {
    const bool left = (d >= 0 && left_super) || (d <= 0 && left_sub);
    return left ? 0 : max_len - length(d);
  }
  // Calls fn(row_in_pack, pos_in_pack, i, j) for every element of every diagonal.
  template <typename Fn>
  void each(Fn fn) const {
    for (int64_t d = hi; d >= lo; --d) {
      const int64_t len = length(d), off = offset(d);
      for (int64_t t = 0; t < len; ++t) {
        const int64_t i = t - std::min<int64_t>(0, d), j = t + std::max<int64_t>(0, d);
        fn(hi - d, off + t, i, j);
      }
    }
  }
};

Status read_k(const Tensor& k, int64_t* lo, int64_t* hi) {
  std::vector<int64_t> v;
  GRAPHFN_RETURN_IF_ERROR(int_values(k, &v));
  *lo = v.empty() ? 0 : v[0];
  *hi = v.size() > 1 ? v[1] : *lo;
  return Status::OK();
}

DiagLayout layout(const AttrMap& attrs, int64_t m, int64_t n, int64_t lo, int64_t hi) {
  const std::string* a = attrs.get_string("align");
  const std::string align = a ? *a : "RIGHT_LEFT";
  DiagLayout l{m, n, lo, hi, 0, align.rfind("LEFT_", 0) == 0, align.size() >= 4 && align.substr(align.size() - 4) == "LEFT"};
  for (int64_t d = lo; d <= hi; ++d) l.max_len = std::max(l.max_len, l.length(d));
  return l;
}

template <typename T>
struct DiagPartKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    int64_t lo = 0, hi = 0;
    GRAPHFN_RETURN_IF_ERROR(read_k(c.input(1), &lo, &hi));
    const T pad = c.input(2).data<T>()[0];
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    const DiagLayout l = layout(c.attrs, m, n, lo, hi);
    Tensor& out = c.allocate_output(0);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::fill_n(out.data<T>(), out.num_elements(), pad);
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = x.data<T>() + b * m * n;
      T* o = out.data<T>() + b * per;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[row * l.max_len + pos] = in[i * n + j]; });
    }
    return Status::OK();
  }
};

template <typename T>
struct DiagKernel {
  static Status compute(KernelContext& c) {
    const Tensor& d = c.input(0);
    int64_t lo = 0, hi = 0;
    GRAPHFN_RETURN_IF_ERROR(read_k(c.input(1), &lo, &hi));
    const T pad = c.input(4).data<T>()[0];
    Tensor& out = c.allocate_output(0);
    const int64_t m = out.dim(out.rank() - 2), n = out.dim(out.rank() - 1), batches = matrix_batch_size(out.shape());
    DiagLayout l = layout(c.attrs, m, n, lo, hi);
    l.max_len = d.dim(d.rank() - 1);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::fill_n(out.data<T>(), out.num_elements(), pad);
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = d.data<T>() + b * per;
      T* o = out.data<T>() + b * m * n;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[i * n + j] = in[row * l.max_len + pos]; });
    }
    return Status::OK();
  }
};

template <typename T>
struct SetDiagKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const Tensor& d = c.input(1);
    int64_t lo = 0, hi = 0;
    GRAPHFN_RETURN_IF_ERROR(read_k(c.input(2), &lo, &hi));
    Tensor& out = c.allocate_output(0);
    const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), batches = matrix_batch_size(x.shape());
    const DiagLayout l = layout(c.attrs, m, n, lo, hi);
    const int64_t per = (hi - lo + 1) * l.max_len;
    std::copy_n(x.data<T>(), x.num_elements(), out.data<T>());
    for (int64_t b = 0; b < batches; ++b) {
      const T* in = d.data<T>() + b * per;
      T* o = out.data<T>() + b * m * n;
      l.each([&](int64_t row, int64_t pos, int64_t i, int64_t j) { o[i * n + j] = in[row * l.max_len + pos]; });
    }
    return Status::OK();
  }
};

template <typename T, bool = std::is_integral_v<T>>
struct WrapType { using type = T; };
template <typename T>
struct WrapType<T, true> { using type = std::make_unsigned_t<T>; };

template <typename T>
struct CrossKernel {
  static Status compute(KernelContext& c) {
    const T* a = c.input(0).data<T>();
    const T* b = c.input(1).data<T>();
    Tensor& out = c.allocate_output(0);
    T* o = out.data<T>();
    using W = typename WrapType<T>::type;  // integers wrap
    for (int64_t v = 0; v < out.num_elements() / 3; ++v) {
      const W* x = reinterpret_cast<const W*>(a + 3 * v);
      const W* y = reinterpret_cast<const W*>(b + 3 * v);
      o[3 * v] = static_cast<T>(W(x[1] * y[2]) - W(x[2] * y[1]));
      o[3 * v + 1] = static_cast<T>(W(x[2] * y[0]) - W(x[0] * y[2]));
      o[3 * v + 2] = static_cast<T>(W(x[0] * y[1]) - W(x[1] * y[0]));
    }
    return Status::OK();
  }
};

using StructureTypes = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>;

}  // namespace

void register_linalg_svd_kernels(OpRegistry& reg);

void register_linalg_more_kernels(OpRegistry& reg) {
  register_kernels<DeterminantKernel>(reg, "MatrixDeterminant", FloatTypes{});
  register_kernels<LogDeterminantKernel>(reg, "LogMatrixDeterminant", FloatTypes{});
  register_kernels<InverseKernel>(reg, "MatrixInverse", FloatTypes{});
  register_kernels<SolveKernel>(reg, "MatrixSolve", FloatTypes{});
  register_kernels<LuKernel>(reg, "Lu", FloatTypes{});
  register_kernels<CholeskyKernel>(reg, "Cholesky", FloatTypes{});
  register_kernels<EigKernel>(reg, "SelfAdjointEigV2", FloatTypes{});
  register_linalg_svd_kernels(reg);  // linalg_svd.cc
  register_kernels<QrKernel>(reg, "Qr", FloatTypes{});
  register_kernels<TriangularSolveKernel>(reg, "MatrixTriangularSolve", FloatTypes{});
  register_kernels<BandPartKernel>(reg, "MatrixBandPart", StructureTypes{});
  register_kernels<DiagPartKernel>(reg, "MatrixDiagPartV3", StructureTypes{});
  register_kernels<DiagKernel>(reg, "MatrixDiagV3", StructureTypes{});
  register_kernels<SetDiagKernel>(reg, "MatrixSetDiagV3", StructureTypes{});
  register_kernels<CrossKernel>(reg, "Cross", TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t>{});
}

}  // namespace graphfn
