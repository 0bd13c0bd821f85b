// Float vectors for the hand-vectorised float kernels (kernels/float_math.cc): the same
// operations on 8 floats (AVX2 + FMA, the default build's level) and on 16 (AVX-512, used at run
// time by the GRAPHFN_TARGET_AVX512 variants, core/cpu_features.h). Code templated on one of these
// computes every lane with the same instructions at either width, so both give the same bits.
//
// Each operation is what Eigen's AVX packet function of the same name does (argument order of
// min/max included, which decides which operand a NaN comes from), so the loops reproduce
// Eigen's results bit for bit.
//
// The 16-float operations carry the AVX-512 target attribute without always_inline: a template
// instantiated for them is only ever used inlined into a GRAPHFN_TARGET_AVX512 (flatten) function.
#pragma once
#include <cstdint>

#include "graphfn/core/cpu_features.h"

#include "graphfn/kernels/float_math.h"  // GRAPHFN_HAVE_SIMD_FLOAT

#if GRAPHFN_HAVE_SIMD_FLOAT
#include <immintrin.h>
#endif

namespace graphfn {
namespace simd {

#if GRAPHFN_HAVE_SIMD_FLOAT

struct Float8 {
  using V = __m256;
  static constexpr int kWidth = 8;
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
  static V set1(float f) { return _mm256_set1_ps(f); }
  static V zero() { return _mm256_setzero_ps(); }
  // The first `count` (0-8) floats; the other lanes are 0 (loaded from nowhere), or left alone.
  static __m256i first_lanes(int64_t count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V load_first(const float* p, int64_t count) { return _mm256_maskload_ps(p, first_lanes(count)); }
  static void store_first(float* p, V v, int64_t count) { _mm256_maskstore_ps(p, first_lanes(count), v); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V fmadd(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  // Eigen's pmin(a, b) / pmax(a, b): a NaN in either gives a.
  static V min(V a, V b) { return _mm256_min_ps(b, a); }
  static V max(V a, V b) { return _mm256_max_ps(b, a); }
  // max(acc, x) where x is not NaN, else acc
  static V max_skipping_nan(V acc, V x) { return _mm256_max_ps(x, acc); }
  static V floor(V a) { return _mm256_floor_ps(a); }
  // b where a < t, else c
  static V select_below(V a, float t, V b, V c) {
    return _mm256_blendv_ps(c, b, _mm256_cmp_ps(a, set1(t), _CMP_LT_OQ));
  }
  // y * 2^m for integral m in [-150, 128] and y in [0.5, 2): two power-of-two factors, the first
  // exact, so the one rounding is the second's.
  static V scale_by_power_of_two(V y, V m) {
    const __m256i bias = _mm256_set1_epi32(127);
    const __m256i e = _mm256_cvttps_epi32(m);
    const __m256i e1 = _mm256_srai_epi32(e, 1);
    const V c1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(e1, bias), 23));
    const V c2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(e, e1), bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(y, c1), c2);
  }
  // Eigen's predux: (lanes 0-3 + 4-7), then (0 + 2, 1 + 3), then the two.
  static float reduce_add(V a) {
    __m128 t = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    t = _mm_add_ps(t, _mm_movehl_ps(t, t));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
  }
  static float reduce_max(V a) {
    __m128 t = _mm_max_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    t = _mm_max_ps(t, _mm_movehl_ps(t, t));
    return _mm_cvtss_f32(_mm_max_ss(t, _mm_shuffle_ps(t, t, 1)));
  }
};

#if GRAPHFN_HAVE_AVX512_VARIANTS
#define GRAPHFN_AVX512_OP \
  static __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,bmi,bmi2,lzcnt,popcnt")))

struct Float16 {
  using V = __m512;
  static constexpr int kWidth = 16;
  GRAPHFN_AVX512_OP V load(const float* p) { return _mm512_loadu_ps(p); }
  GRAPHFN_AVX512_OP void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  GRAPHFN_AVX512_OP V set1(float f) { return _mm512_set1_ps(f); }
  GRAPHFN_AVX512_OP V zero() { return _mm512_setzero_ps(); }
  GRAPHFN_AVX512_OP V add(V a, V b) { return _mm512_add_ps(a, b); }
  GRAPHFN_AVX512_OP V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  GRAPHFN_AVX512_OP V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  GRAPHFN_AVX512_OP V div(V a, V b) { return _mm512_div_ps(a, b); }
  GRAPHFN_AVX512_OP V fmadd(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  GRAPHFN_AVX512_OP V min(V a, V b) { return _mm512_min_ps(b, a); }
  GRAPHFN_AVX512_OP V max(V a, V b) { return _mm512_max_ps(b, a); }
  GRAPHFN_AVX512_OP V max_skipping_nan(V acc, V x) { return _mm512_max_ps(x, acc); }
  GRAPHFN_AVX512_OP V floor(V a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  GRAPHFN_AVX512_OP V select_below(V a, float t, V b, V c) {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, _mm512_set1_ps(t), _CMP_LT_OQ), c, b);
  }
  GRAPHFN_AVX512_OP __m256 low_half(V a) { return _mm512_castps512_ps256(a); }
  GRAPHFN_AVX512_OP __m256 high_half(V a) { return _mm512_extractf32x8_ps(a, 1); }
  // vscalefps: y * 2^m rounded once, the value Float8's two factors give.
  GRAPHFN_AVX512_OP V scale_by_power_of_two(V y, V m) { return _mm512_scalef_ps(y, m); }
  // As two 8-float vectors (low + high) reduced like Float8's.
  GRAPHFN_AVX512_OP float reduce_add(V a) { return Float8::reduce_add(_mm256_add_ps(low_half(a), high_half(a))); }
  GRAPHFN_AVX512_OP float reduce_max(V a) { return Float8::reduce_max(_mm256_max_ps(low_half(a), high_half(a))); }
};
#undef GRAPHFN_AVX512_OP
#endif  // GRAPHFN_HAVE_AVX512_VARIANTS

#endif  // GRAPHFN_HAVE_SIMD_FLOAT

}  // namespace simd
}  // namespace graphfn
