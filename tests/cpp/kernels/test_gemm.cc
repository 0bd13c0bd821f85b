// kernels/gemm.h called directly, as the convolutions do: leading dimensions wider than the
// matrices, accumulation into C, k == 0, and batches with operand indices. Expected values are
// plain double-precision sums (OpenBLAS when it can be loaded, else Eigen's fallback).
#include "harness.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "graphfn/core/inter_op_pool.h"
#include "graphfn/kernels/gemm.h"
#include "graphfn/kernels/gemm_cuts.h"

using namespace graphfn;

namespace {

// op(X)[i][j] of X stored row-major with leading dimension ld.
double gemm_at(const std::vector<float>& x, int64_t ld, bool transposed, int64_t i, int64_t j) {
  return transposed ? x[j * ld + i] : x[i * ld + j];
}

std::vector<float> gemm_values(int64_t count, int seed) {
  std::vector<float> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) v[i] = static_cast<float>(((i * 37 + seed * 11) % 19) - 9) / 8.0f;
  return v;
}

void check_gemm_product(bool ta, bool tb, int64_t m, int64_t n, int64_t k, bool accumulate) {
  const int64_t pad = 3;  // every leading dimension is 3 wider than its matrix
  const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
  const std::vector<float> a = gemm_values((ta ? k : m) * lda, 1), b = gemm_values((tb ? n : k) * ldb, 2);
  std::vector<float> c = gemm_values(m * ldc, 3);
  const std::vector<float> before = c;
  gemm<float>(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      if (j >= n) {  // the padding is never written
        REQUIRE(c[i * ldc + j] == before[i * ldc + j]);
        continue;
      }
      double want = accumulate ? before[i * ldc + j] : 0.0, scale = std::fabs(want);
      for (int64_t p = 0; p < k; ++p) {
        want += gemm_at(a, lda, ta, i, p) * gemm_at(b, ldb, tb, p, j);
        scale += std::fabs(gemm_at(a, lda, ta, i, p) * gemm_at(b, ldb, tb, p, j));
      }
      REQUIRE(std::fabs(c[i * ldc + j] - want) <= 1e-5 * scale + 1e-30);
    }
  }
}

}  // namespace

TEST_CASE("gemm: strided operands, transposes and accumulation, tiny to threaded sizes") {
  for (bool accumulate : {false, true}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        check_gemm_product(ta, tb, 3, 5, 7, accumulate);        // the panel loop / Eigen
        check_gemm_product(ta, tb, 1, 1, 301, accumulate);      // a dot product
        check_gemm_product(ta, tb, 37, 29, 41, accumulate);     // the library, one thread
        check_gemm_product(ta, tb, 203, 131, 97, accumulate);   // row blocks over the pool
        check_gemm_product(ta, tb, 29, 301, 257, accumulate);   // column blocks over the pool
      }
    }
  }
}

TEST_CASE("gemm: k == 0 gives zeros, or leaves C when accumulating") {
  std::vector<float> c(6, 5.0f);
  gemm<float>(false, false, 2, 3, 0, nullptr, 0, nullptr, 3, c.data(), 3, true);
  REQUIRE(c == std::vector<float>(6, 5.0f));
  gemm<float>(false, false, 2, 3, 0, nullptr, 0, nullptr, 3, c.data(), 3, false);
  REQUIRE(c == std::vector<float>(6, 0.0f));
}

TEST_CASE("gemm_batched: operand indices pick the matrices, double precision") {
  const int64_t m = 70, n = 50, k = 60;
  std::vector<double> a(2 * m * k), b(3 * k * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>((i * 7) % 13) - 6;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>((i * 5) % 11) - 5;
  const std::vector<int64_t> ai = {1, 0, 1, 1}, bi = {2, 2, 0, 1};
  std::vector<double> c(4 * m * n, -1.0);
  gemm_batched<double>(4, false, false, m, n, k, a.data(), ai.data(), b.data(), bi.data(), c.data());
  for (int64_t t = 0; t < 4; ++t) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double want = 0;  // small integers: exact in double whatever the order
        for (int64_t p = 0; p < k; ++p) want += a[ai[t] * m * k + i * k + p] * b[bi[t] * k * n + p * n + j];
        REQUIRE(c[t * m * n + i * n + j] == want);
      }
    }
  }
}

TEST_CASE("gemm cuts: along C's longer side, on multiples of 16, shape and machine only") {
  constexpr double kWork = 1 << 19;
  // The MLP's forward product (64 x 784 x 128): two column blocks of 64 on two threads.
  GemmCuts c = plan_gemm_cuts(64, 128, 784, 2, kWork);
  REQUIRE_FALSE(c.by_rows);
  REQUIRE(c.pieces == 2);
  REQUIRE(c.begin(0) == 0);
  REQUIRE(c.begin(1) == 64);
  REQUIRE(c.begin(2) == 128);
  // Its weight gradient (784 x 64 x 128): row blocks; 49 units of 16 rows, the last one short.
  c = plan_gemm_cuts(784, 128, 64, 2, kWork);
  REQUIRE(c.by_rows);
  REQUIRE(c.pieces == 2);
  REQUIRE(c.begin(1) == 24 * 16);
  REQUIRE(c.begin(2) == 784);
  // Many hardware threads: pieces stay at least two units long, and carry kWork each.
  c = plan_gemm_cuts(64, 128, 784, 64, kWork);
  REQUIRE(c.pieces == 4);
  c = plan_gemm_cuts(1000, 1000, 1000, 64, kWork);
  REQUIRE(c.pieces == 31);
  for (int64_t p = 0; p < c.pieces; ++p) {
    REQUIRE(c.begin(p) % GemmCuts::kGranule == 0);
    REQUIRE(c.begin(p + 1) - c.begin(p) >= 2 * GemmCuts::kGranule);
  }
  REQUIRE(c.begin(c.pieces) == 1000);
  // Too little work, or too thin, for two pieces: one call.
  REQUIRE(plan_gemm_cuts(100, 100, 100, 2, kWork).pieces == 1);
  REQUIRE(plan_gemm_cuts(8, 31, 100000, 2, kWork).pieces == 1);
  REQUIRE(plan_gemm_cuts(64, 128, 784, 1, kWork).pieces == 1);
}

TEST_CASE("gemm: a cut product gives the same bits over the pool as on one thread") {
  // Shapes whose row blocks at OpenBLAS's kernel block changed bits on its AVX-512 kernels, the
  // MLP's products, and column cuts; on one thread (an InlineKernelsScope runs every piece on
  // the calling thread) the pieces are the same library calls.
  struct Case {
    int64_t m, n, k;
    bool ta, tb;
  };
  const Case cases[] = {{259, 190, 641, true, false}, {117, 70, 646, true, true}, {287, 5, 867, false, true},
                        {291, 172, 91, false, true},  {64, 128, 784, false, false}, {784, 128, 64, true, false},
                        {64, 784, 128, false, true},  {33, 1001, 257, false, false}};
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const Case& t : cases) {
    std::vector<float> a(t.m * t.k), b(t.k * t.n), pooled(t.m * t.n), inline_c(t.m * t.n);
    for (float& v : a) v = uniform(rng);
    for (float& v : b) v = uniform(rng);
    const int64_t lda = t.ta ? t.m : t.k, ldb = t.tb ? t.k : t.n;
    gemm<float>(t.ta, t.tb, t.m, t.n, t.k, a.data(), lda, b.data(), ldb, pooled.data(), t.n);
    {
      InlineKernelsScope one_thread;
      gemm<float>(t.ta, t.tb, t.m, t.n, t.k, a.data(), lda, b.data(), ldb, inline_c.data(), t.n);
    }
    INFO(t.m << "x" << t.k << "x" << t.n << " ta " << t.ta << " tb " << t.tb);
    REQUIRE(std::memcmp(pooled.data(), inline_c.data(), pooled.size() * sizeof(float)) == 0);
  }
}
