// float16 kernels of the two tf.linalg decompositions TF 2.21's CPU kernels take in float16:
// MatrixInverse (Eigen's LU in float, rounded once) and Qr (Eigen's Householder QR in float16
// arithmetic), as TF's kernels compute them. The other decompositions have no float16 kernel in TF: graphfn gives TF's
// NotFoundError for them.
#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/matrix_batches.h"

namespace graphfn {
namespace {

Tensor half_tensor_to_float(const Tensor& in) {
  Tensor out(DType::kFloat32, in.shape());
  const Eigen::half* src = in.data<Eigen::half>();
  float* dst = out.data<float>();
  for (int64_t i = 0; i < in.num_elements(); ++i) dst[i] = static_cast<float>(src[i]);
  return out;
}

// Each matrix (or its adjoint) inverted by Eigen's partial-pivoting LU in float, as TF's kernel
// computes float16, then rounded once.
Status half_inverse_kernel(KernelContext& c) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Tensor& x = c.input(0);
  if (x.rank() < 2) return errors::InvalidArgument("Input tensor 0 must have rank >= 2, got ", x.rank());
  const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1);
  if (m != n) return errors::InvalidArgument("Input matrix must be square.");
  const bool adjoint = c.attrs.get_bool("adjoint", false);
  const Tensor wide = half_tensor_to_float(x);
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, x.shape(), &out));
  const int64_t batches = matrix_batch_size(x.shape());
  Matrix in(m, m), inverse(m, m);
  for (int64_t b = 0; b < batches; ++b) {
    if (m == 0) break;
    const Eigen::Map<const Matrix> src(wide.data<float>() + b * m * m, m, m);
    if (adjoint) in = src.adjoint(); else in = src;
    const Eigen::PartialPivLU<Matrix> lu(in);
    if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > 0.0f)) {
      return errors::InvalidArgument("Input is not invertible.");
    }
    inverse = lu.inverse();
    Eigen::half* dst = out->data<Eigen::half>() + b * m * m;
    for (int64_t i = 0; i < m * m; ++i) dst[i] = static_cast<Eigen::half>(inverse.data()[i]);
  }
  return Status::OK();
}

// Q (m x m, or m x min(m, n)) and R (m x n, or min(m, n) x n) of each matrix, from Eigen's
// HouseholderQR in float16.
Status half_qr_kernel(KernelContext& c) {
  using Matrix = Eigen::Matrix<Eigen::half, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using MatrixMap = Eigen::Map<const Matrix>;
  const Tensor& x = c.input(0);
  if (x.rank() < 2) return errors::InvalidArgument("Input tensor 0 must have rank >= 2, got ", x.rank());
  const bool full = c.attrs.get_bool("full_matrices", false);
  const int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1), k = std::min(m, n);
  std::vector<int64_t> batch(x.shape().dims().begin(), x.shape().dims().end() - 2);
  std::vector<int64_t> q_dims = batch, r_dims = batch;
  q_dims.insert(q_dims.end(), {m, full ? m : k});
  r_dims.insert(r_dims.end(), {full ? m : k, n});
  Tensor *q = nullptr, *r = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape(q_dims), &q));
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape(r_dims), &r));
  const int64_t batches = matrix_batch_size(x.shape());
  for (int64_t b = 0; b < batches; ++b) {
    Eigen::Map<Matrix> q_out(q->data<Eigen::half>() + b * q->dim(q->rank() - 2) * q->dim(q->rank() - 1),
                             q->dim(q->rank() - 2), q->dim(q->rank() - 1));
    Eigen::Map<Matrix> r_out(r->data<Eigen::half>() + b * r->dim(r->rank() - 2) * n, r->dim(r->rank() - 2), n);
    if (m == 0 || n == 0) {
      q_out.setIdentity();
      r_out.setZero();
      continue;
    }
    const Eigen::HouseholderQR<Matrix> qr(MatrixMap(x.data<Eigen::half>() + b * m * n, m, n));
    const Matrix q_full = qr.householderQ();
    if (full) {
      q_out = q_full;
      r_out = qr.matrixQR().template triangularView<Eigen::Upper>();
    } else {
      q_out = q_full.leftCols(k);
      r_out = qr.matrixQR().topRows(k).template triangularView<Eigen::Upper>();
    }
  }
  return Status::OK();
}

}  // namespace

void register_linalg_half_kernels(OpRegistry& reg) {
  reg.set_kernel("MatrixInverse", DType::kHalf, half_inverse_kernel);
  reg.set_kernel("Qr", DType::kHalf, half_qr_kernel);
}

}  // namespace graphfn
