// kernels/sgemm_avx512: every edge of its tiling (1..12 rows left over, 1..31 columns, k-blocks
// of 512, a packed transposed or wide B), leading dimensions wider than the matrices,
// accumulation, batches; against double-precision sums, and threaded against one thread bit for
// bit. Skipped on CPUs without AVX-512 (there gemm<float> is OpenBLAS, tested in test_gemm.cc).
#include "harness.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "graphfn/core/inter_op_pool.h"
#include "graphfn/kernels/sgemm_avx512.h"

using namespace graphfn;

namespace {

struct Shape3 {
  int64_t m, n, k;
};

std::vector<float> uniform_values(int64_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(count));
  for (float& x : v) x = u(rng);
  return v;
}

// Runs C (+)= op(A) op(B) with leading dimensions 5 wider than the matrices; checks the result
// against double sums and that C's padding is untouched; returns C.
std::vector<float> check_product(const Shape3& s, bool ta, bool tb, bool accumulate, unsigned seed) {
  const int64_t pad = 5;
  const int64_t lda = (ta ? s.m : s.k) + pad, ldb = (tb ? s.k : s.n) + pad, ldc = s.n + pad;
  const std::vector<float> a = uniform_values((ta ? s.k : s.m) * lda, seed);
  const std::vector<float> b = uniform_values((tb ? s.n : s.k) * ldb, seed + 1);
  std::vector<float> c = uniform_values(s.m * ldc, seed + 2);
  const std::vector<float> before = c;
  sgemm_avx512(ta, tb, s.m, s.n, s.k, a.data(), lda, b.data(), ldb, c.data(), ldc, accumulate);
  int64_t padding_changed = 0, wrong = 0;
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      const float got = c[i * ldc + j];
      if (j >= s.n) {
        padding_changed += got != before[i * ldc + j];
        continue;
      }
      double want = accumulate ? before[i * ldc + j] : 0.0, scale = std::fabs(want);
      for (int64_t p = 0; p < s.k; ++p) {
        const double x = ta ? a[p * lda + i] : a[i * lda + p], y = tb ? b[j * ldb + p] : b[p * ldb + j];
        want += x * y;
        scale += std::fabs(x * y);
      }
      wrong += !(std::fabs(got - want) <= 2e-6 * scale + 1e-30);
    }
  }
  INFO(s.m << "x" << s.n << "x" << s.k << " ta " << ta << " tb " << tb << " acc " << accumulate);
  REQUIRE(padding_changed == 0);
  REQUIRE(wrong == 0);
  return c;
}

}  // namespace

TEST_CASE("sgemm_avx512: edge tiles, k-blocks, transposes, strides and accumulation") {
  if (!sgemm_avx512_available()) return;  // no AVX-512 here (or GRAPHFN_MAX_CPU_ISA=avx2)
  // Rows 1..13 (every row count of the last tile), columns around 16 and 32, k around 512.
  const Shape3 shapes[] = {{1, 7, 3},    {2, 16, 17},   {3, 17, 1},    {5, 31, 40},   {7, 32, 64},
                           {11, 33, 9},  {12, 48, 100}, {13, 15, 511}, {25, 47, 512}, {37, 65, 513},
                           {50, 97, 1100}, {131, 70, 300}, {97, 200, 700}};
  unsigned seed = 1;
  for (const Shape3& s : shapes) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        for (bool accumulate : {false, true}) check_product(s, ta, tb, accumulate, seed++);
      }
    }
  }
}

TEST_CASE("sgemm_avx512: threaded products equal one-thread ones bit for bit") {
  if (!sgemm_avx512_available()) return;  // no AVX-512 here (or GRAPHFN_MAX_CPU_ISA=avx2)
  // Row chunks over the pool, few rows (column chunks), a transposed A packed per block, odd
  // sizes.
  const Shape3 shapes[] = {{400, 515, 301}, {17, 1001, 129}, {203, 131, 97}, {700, 37, 600}, {130, 600, 520}};
  unsigned seed = 100;
  for (const Shape3& s : shapes) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        const std::vector<float> pooled = check_product(s, ta, tb, false, seed);
        std::vector<float> serial;
        {
          InlineKernelsScope one_thread;
          serial = check_product(s, ta, tb, false, seed);
        }
        INFO(s.m << "x" << s.n << "x" << s.k << " ta " << ta << " tb " << tb);
        REQUIRE(std::memcmp(pooled.data(), serial.data(), pooled.size() * sizeof(float)) == 0);
        ++seed;
      }
    }
  }
}

TEST_CASE("sgemm_avx512_batched: operand indices, transposes, threaded equal to one thread") {
  if (!sgemm_avx512_available()) return;  // no AVX-512 here (or GRAPHFN_MAX_CPU_ISA=avx2)
  const int64_t batches = 9, m = 29, n = 35, k = 130;
  const std::vector<float> a = uniform_values(3 * m * k, 7), b = uniform_values(4 * k * n, 8);
  const std::vector<int64_t> ai = {0, 1, 2, 2, 1, 0, 0, 1, 2}, bi = {3, 2, 1, 0, 0, 1, 2, 3, 3};
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      std::vector<float> pooled(batches * m * n), serial(batches * m * n);
      sgemm_avx512_batched(batches, ta, tb, m, n, k, a.data(), ai.data(), b.data(), bi.data(), pooled.data());
      {
        InlineKernelsScope one_thread;
        sgemm_avx512_batched(batches, ta, tb, m, n, k, a.data(), ai.data(), b.data(), bi.data(), serial.data());
      }
      REQUIRE(std::memcmp(pooled.data(), serial.data(), pooled.size() * sizeof(float)) == 0);
      for (int64_t t = 0; t < batches; ++t) {
        const float* at = a.data() + ai[t] * m * k;
        const float* bt = b.data() + bi[t] * k * n;
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            double want = 0, scale = 0;
            for (int64_t p = 0; p < k; ++p) {
              const double x = ta ? at[p * m + i] : at[i * k + p], y = tb ? bt[j * k + p] : bt[p * n + j];
              want += x * y;
              scale += std::fabs(x * y);
            }
            REQUIRE(std::fabs(pooled[(t * m + i) * n + j] - want) <= 2e-6 * scale);
          }
        }
      }
    }
  }
}
