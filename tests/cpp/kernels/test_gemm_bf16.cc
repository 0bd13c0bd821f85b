// kernels/gemm_bf16.h called directly: leading dimensions wider than the matrices, every
// transpose, k odd and long enough for several blocks of k, C wider and taller than a work
// unit. The expected values follow vdpbf16ps's definition: per pair of k values, the second
// product then the first added to a float sum (bfloat16 products are exact in float), the sum
// rounded once to bfloat16, ties to even.
#include "harness.h"

#include <cstring>
#include <random>
#include <vector>

#include "graphfn/kernels/gemm_bf16.h"

using namespace graphfn;

namespace {

float bf16_to_float(uint16_t v) {
  const uint32_t bits = static_cast<uint32_t>(v) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t float_to_bf16_nearest_even(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);  // finite values only
}

std::vector<uint16_t> random_bf16(int64_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<uint16_t> v(static_cast<size_t>(count));
  for (auto& x : v) x = float_to_bf16_nearest_even(normal(rng));
  return v;
}

void check_bf16_product(bool ta, bool tb, int64_t m, int64_t n, int64_t k) {
  const int64_t pad = 3;
  const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
  const std::vector<uint16_t> a = random_bf16((ta ? k : m) * lda, 1), b = random_bf16((tb ? n : k) * ldb, 2);
  std::vector<uint16_t> c = random_bf16(m * ldc, 3);
  const std::vector<uint16_t> before = c;
  gemm_bf16(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(), ldc);
  auto at = [](const std::vector<uint16_t>& x, int64_t ld, bool t, int64_t i, int64_t j) {
    return bf16_to_float(t ? x[j * ld + i] : x[i * ld + j]);
  };
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < ldc; ++j) {
      if (j >= n) {  // the padding is never written
        REQUIRE(c[i * ldc + j] == before[i * ldc + j]);
        continue;
      }
      float sum = 0.0f;
      for (int64_t p = 0; p < k; p += 2) {
        if (p + 1 < k) sum += at(a, lda, ta, i, p + 1) * at(b, ldb, tb, p + 1, j);
        sum += at(a, lda, ta, i, p) * at(b, ldb, tb, p, j);
      }
      INFO("ta=" << ta << " tb=" << tb << " m=" << m << " n=" << n << " k=" << k << " at " << i << "," << j);
      REQUIRE(c[i * ldc + j] == float_to_bf16_nearest_even(sum));
    }
  }
}

}  // namespace

TEST_CASE("gemm_bf16 sums as vdpbf16ps does, for every transpose and odd sizes", "[kernels][gemm]") {
  if (!gemm_bf16_available()) {
    WARN("this CPU has no AVX-512 BF16 (or GRAPHFN_MAX_CPU_ISA caps it): gemm_bf16 is not used here");
    REQUIRE_FALSE(gemm_bf16_available());
    return;
  }
  const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 5}, {13, 33, 17}, {12, 32, 512}, {97, 70, 513}, {5, 9, 1100},
                               {100, 300, 7}, {1, 1, 301}};
  for (const auto& s : shapes) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) check_bf16_product(ta, tb, s[0], s[1], s[2]);
    }
  }
}

TEST_CASE("gemm_bf16 with k == 0 writes zeros and with m or n == 0 nothing", "[kernels][gemm]") {
  if (!gemm_bf16_available()) {
    REQUIRE_FALSE(gemm_bf16_available());
    return;
  }
  std::vector<uint16_t> c(6, 0x3f80);  // 1.0
  gemm_bf16(false, false, 2, 3, 0, nullptr, 1, nullptr, 3, c.data(), 3);
  for (uint16_t v : c) REQUIRE(v == 0);
  std::vector<uint16_t> untouched(4, 0x3f80);
  gemm_bf16(false, false, 0, 2, 2, nullptr, 2, nullptr, 2, untouched.data(), 2);
  for (uint16_t v : untouched) REQUIRE(v == 0x3f80);
}
