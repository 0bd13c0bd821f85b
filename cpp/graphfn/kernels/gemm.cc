#include "graphfn/kernels/gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>
#include <type_traits>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/gemm_cuts.h"
#include "graphfn/kernels/gemm_panels.h"
#include "graphfn/kernels/lapack.h"
#include "graphfn/kernels/sgemm_avx512.h"

namespace graphfn {
namespace {

// Multiply-adds (m*k*n) from which a product goes to the library instead of the panel loop.
constexpr double kLibraryWork = 16.0 * 16 * 16;
// Above this many multiply-adds, a float product on an AVX-512 CPU (alone or in a batch) goes to
// graphfn's own kernel (kernels/sgemm_avx512.h) unless it is a matrix-vector product (one row, or
// fewer than 8 columns): up to it OpenBLAS's AVX-512 small-matrix kernels were 5-15 % faster, and
// its gemv-like kernels up to 6x on the thin shapes (docs/design.md, "Matrix products").
constexpr double kOwnKernelWork = 1e6;
// The least work worth a piece (and a thread) of its own: the pool's hand-off costs a few
// microseconds, about what OpenBLAS does in 2^19 multiply-adds on one core.
constexpr double kShardWork = 1 << 19;
// Products below this many multiply-adds are spread over the pool batch by batch; larger ones
// are split inside, one after the other.
constexpr double kSplitInsideWork = 1 << 22;

// OpenBLAS's routines, or null when the library cannot be loaded (then Eigen does the work).
template <typename T>
const lapack::Routines<T>* blas() {
  static const lapack::Routines<T>* const routines = [] {
    const lapack::Routines<T>* r = nullptr;
    return lapack::routines<T>(&r).ok() ? r : nullptr;
  }();
  return routines;
}

bool fits_int(std::initializer_list<int64_t> values) {
  for (int64_t v : values) {
    if (v > std::numeric_limits<int>::max()) return false;
  }
  return true;
}

template <typename T>
void eigen_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
                int64_t ldb, T* c, int64_t ldc, bool accumulate) {
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<const Mat, 0, Stride> A(a, ta ? k : m, ta ? m : k, Stride(lda));
  Eigen::Map<const Mat, 0, Stride> B(b, tb ? n : k, tb ? k : n, Stride(ldb));
  Eigen::Map<Mat, 0, Stride> C(c, m, n, Stride(ldc));
  auto assign = [&](const auto& x, const auto& y) {
    if (accumulate) {
      C.noalias() += x * y;
    } else {
      C.noalias() = x * y;
    }
  };
  if (!ta && !tb) assign(A, B);
  if (!ta && tb) assign(A, B.transpose());
  if (ta && !tb) assign(A.transpose(), B);
  if (ta && tb) assign(A.transpose(), B.transpose());
}

// The most pieces a product is cut into: the machine's hardware threads (the pool's default
// size), fixed for the process whatever the pool's configured size, so that the cut, and with it
// every result bit, is the same with one thread and with many (kernels/gemm_cuts.h).
int64_t max_gemm_pieces() {
  static const int64_t pieces = std::max(1u, std::thread::hardware_concurrency());
  return pieces;
}

// C = op(A) * op(B) through cblas_?gemm: one call, or one call per piece of the cut over the
// pool when the product holds work for more than one thread.
template <typename T>
void blas_gemm(const lapack::Routines<T>& r, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a,
               int64_t lda, const T* b, int64_t ldb, T* c, int64_t ldc, bool accumulate) {
  // The product of op(A)'s rows [i0, i1) and op(B)'s columns [j0, j1).
  auto block = [&](int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
    r.gemm(lapack::kRowMajor, ta ? lapack::kCblasTrans : lapack::kCblasNoTrans,
           tb ? lapack::kCblasTrans : lapack::kCblasNoTrans, static_cast<int>(i1 - i0), static_cast<int>(j1 - j0),
           static_cast<int>(k), T(1), ta ? a + i0 : a + i0 * lda, static_cast<int>(lda), tb ? b + j0 * ldb : b + j0,
           static_cast<int>(ldb), accumulate ? T(1) : T(0), c + i0 * ldc + j0, static_cast<int>(ldc));
  };
  const GemmCuts cuts = plan_gemm_cuts(m, n, k, max_gemm_pieces(), kShardWork);
  if (cuts.pieces < 2) return block(0, m, 0, n);
  parallel_for(cuts.pieces, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      if (cuts.by_rows) {
        block(cuts.begin(p), cuts.begin(p + 1), 0, n);
      } else {
        block(0, m, cuts.begin(p), cuts.begin(p + 1));
      }
    }
  });
}

}  // namespace

template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
          T* c, int64_t ldc, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate) {
      for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, T(0));
    }
    return;
  }
  if (m == 1 && n == 1) {
    // A dot product (einsum's 'ij,ij->i' and 'ij,ij->' land here): Eigen's, vectorised along k;
    // the panel loop would make one scalar chain of k multiply-adds, and cblas_sgemm took 10x
    // longer than this for k = 10^6. (op(A) is one row: stride 1 unless stored as a column.)
    using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
    using Strided = Eigen::Map<const Vec, 0, Eigen::InnerStride<>>;
    const int64_t sa = ta ? lda : 1, sb = tb ? 1 : ldb;
    const T dot = sa == 1 && sb == 1 ? Eigen::Map<const Vec>(a, k).dot(Eigen::Map<const Vec>(b, k))
                                     : Strided(a, k, Eigen::InnerStride<>(sa)).dot(Strided(b, k, Eigen::InnerStride<>(sb)));
    *c = accumulate ? *c + dot : dot;
    return;
  }
  const double work = static_cast<double>(m) * n * k;
  if (work < kLibraryWork) {
    const bool dense = lda == (ta ? m : k) && ldb == (tb ? k : n) && ldc == n;
    if (dense && !accumulate) {
      // Transposed operands are copied; the buffers stay with the thread (small: < 16^3 items).
      thread_local std::vector<T> ta_buf, tb_buf;
      return panel_gemm::product(a, b, c, m, k, n, ta, tb, &ta_buf, &tb_buf);
    }
    return eigen_gemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
  }
  if constexpr (std::is_same_v<T, float>) {
    if (work > kOwnKernelWork && m >= 2 && n >= 8 && sgemm_avx512_available()) {
      return sgemm_avx512(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
    }
  }
  const lapack::Routines<T>* r = blas<T>();
  if (r != nullptr && fits_int({m, n, k, lda, ldb, ldc})) return blas_gemm(*r, ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
  eigen_gemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

template <typename T>
void gemm_batched(int64_t batches, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a,
                  const int64_t* a_index, const T* b, const int64_t* b_index, T* c) {
  const int64_t lda = ta ? m : k, ldb = tb ? k : n;
  auto one = [&](int64_t i) {
    const int64_t ai = a_index ? a_index[i] : i, bi = b_index ? b_index[i] : i;
    gemm<T>(ta, tb, m, n, k, a + ai * m * k, lda, b + bi * k * n, ldb, c + i * m * n, n);
  };
  const double work = static_cast<double>(m) * n * k;
  if constexpr (std::is_same_v<T, float>) {
    if (batches >= 2 && work > kOwnKernelWork && m >= 2 && n >= 8 && work < kSplitInsideWork &&
        sgemm_avx512_available()) {
      return sgemm_avx512_batched(batches, ta, tb, m, n, k, a, a_index, b, b_index, c);
    }
  }
  if (batches >= 2 && work < kSplitInsideWork && work * batches >= 2 * kShardWork && parallel_threads() > 1) {
    // (Nested in a shard, gemm's own parallel_for runs inline.)
    const int64_t min_batches = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(kShardWork / std::max(work, 1.0))));
    parallel_for(batches, min_batches, [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) one(i);
    });
    return;
  }
  for (int64_t i = 0; i < batches; ++i) one(i);
}

template void gemm<float>(bool, bool, int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t,
                          float*, int64_t, bool);
template void gemm<double>(bool, bool, int64_t, int64_t, int64_t, const double*, int64_t, const double*, int64_t,
                           double*, int64_t, bool);
template void gemm_batched<float>(int64_t, bool, bool, int64_t, int64_t, int64_t, const float*, const int64_t*,
                                  const float*, const int64_t*, float*);
template void gemm_batched<double>(int64_t, bool, bool, int64_t, int64_t, int64_t, const double*, const int64_t*,
                                   const double*, const int64_t*, double*);

}  // namespace graphfn
