#include "graphfn/kernels/float_math.h"

#include <cmath>
#include <limits>

#include "graphfn/core/cpu_features.h"
#include "graphfn/kernels/simd_float.h"

// How the loops run (measured on an AMD EPYC Zen 4, docs/performance.md):
//  - one template per loop, on the vector width (simd::Float8, simd::Float16 in
//    kernels/simd_float.h); the AVX-512 variant is that template instantiated inside a
//    GRAPHFN_TARGET_AVX512 function, which inlines all of it.
//  - Exp and Tanh compute every element with the vector code: 16-float vectors (AVX-512) or
//    8-float ones, then at most one 8-float vector, then the last n % 8 in a masked one. (Eigen's
//    loop computed the elements before the first 32-byte boundary of the output and the last
//    n % 8 with scalar std::exp, so the last bits of a small tensor's exp depended on where
//    its buffer lay.)
//  - Softmax works row by row in three passes over a row (max; exp, stored and summed; scale),
//    each in the L1 cache for rows of up to a few thousand floats, where Eigen's expressions made
//    four. The sum adds packets of 8 in two interleaved chains (even and odd packets), as
//    Eigen's sum does: a 16-float accumulator is the two chains side by side, so both variants
//    add in the same order.

// The templates below pass 16-float vectors by value; they only ever run inlined into the
// AVX-512 variants, so GCC's note that such a call's ABI differs without AVX-512 does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace graphfn {
namespace float_math {

#if GRAPHFN_HAVE_SIMD_FLOAT
namespace {

using simd::Float8;

// exp: vector_math::pexp_float (kernels/vector_exp.h) in these operations. kNonPositive: every
// x_in is <= 0 or NaN (softmax's x - max), where the upper clamp and the final max with x_in
// change nothing, so they are left out.
template <class S, bool kNonPositive = false>
inline typename S::V exp_vector(typename S::V x_in) {
  using V = typename S::V;
  const V x = S::max(kNonPositive ? x_in : S::min(x_in, S::set1(88.723f)), S::set1(-104.0f));
  const V m = S::floor(S::fmadd(x, S::set1(1.44269504088896341f), S::set1(0.5f)));
  V r = S::fmadd(m, S::set1(-0.693359375f), x);
  r = S::fmadd(m, S::set1(2.12194440e-4f), r);
  const V r2 = S::mul(r, r);
  const V r3 = S::mul(r2, r);
  V y = S::fmadd(S::set1(1.9875691500E-4f), r, S::set1(1.3981999507E-3f));
  V y1 = S::fmadd(S::set1(4.1665795894E-2f), r, S::set1(1.6666665459E-1f));
  const V y2 = S::add(r, S::set1(1.0f));
  y = S::fmadd(y, r, S::set1(8.3334519073E-3f));
  y1 = S::fmadd(y1, r, S::set1(5.0000001201E-1f));
  y = S::fmadd(y, r3, y1);
  y = S::fmadd(y, r2, y2);
  const V e = S::scale_by_power_of_two(y, m);
  return kNonPositive ? e : S::max(e, x_in);
}

// tanh as TF 2.21's kernel computes it (the [9/8] rational function of the Eigen version TF is
// built with, clamped at +-7.90738964 where it reaches 1), with separate multiplies and adds as
// TF's build has no FMA: the same bits as TF's results. (This file is compiled with
// -ffp-contract=off, so the compiler does not fuse them either.)
template <class S>
inline typename S::V tanh_vector(typename S::V a) {
  using V = typename S::V;
  const V x = S::max(S::min(a, S::set1(7.90738964080810547f)), S::set1(-7.90738964080810547f));
  const V x2 = S::mul(x, x);
  const V x3 = S::mul(x2, x);
  V p = S::add(S::mul(S::set1(1.394553628e-8f), x2), S::set1(2.102733560e-5f));
  p = S::add(S::mul(p, x2), S::set1(3.520756727e-3f));
  p = S::add(S::mul(p, x2), S::set1(1.340216100e-1f));
  V q = S::add(S::mul(S::set1(8.015776984e-7f), x2), S::set1(3.326951409e-4f));
  q = S::add(S::mul(q, x2), S::set1(2.597254514e-2f));
  q = S::add(S::mul(q, x2), S::set1(4.673548340e-1f));
  q = S::add(S::mul(q, x2), S::set1(1.0f));
  return S::div(S::add(S::mul(x3, p), x), q);
}

// sigmoid as TF 2.21's kernel computes it (Eigen's logistic function of TF's build: exp(x / 2)
// by a degree-5 polynomial, squared, then e / (1 + e); 0 below -104; x clamped at 16.6355324,
// where the result is 1), with separate multiplies and adds as TF's build has no FMA. 2^m is
// a normal float for every m that reaches the result (-75 <= m <= 12), so scaling by it is exact
// however it is done.
template <class S>
inline typename S::V sigmoid_vector(typename S::V a) {
  using V = typename S::V;
  const V x = S::mul(S::min(a, S::set1(16.6355324f)), S::set1(0.5f));
  const V m = S::floor(S::add(S::mul(x, S::set1(1.44269504088896341f)), S::set1(0.5f)));
  V r = S::add(S::mul(m, S::set1(-0.693359375f)), x);
  r = S::add(S::mul(m, S::set1(2.12194440e-4f)), r);
  const V r2 = S::mul(r, r);
  const V even = S::add(S::mul(r2, S::set1(4.1898667812347412109375e-2f)), S::set1(0.49999141693115234375f));
  const V odd = S::add(S::mul(r2, S::set1(8.33471305668354034423828125e-3f)), S::set1(0.16666877269744873046875f));
  V p = S::add(S::mul(r, odd), even);
  p = S::add(S::mul(r2, p), S::add(r, S::set1(1.0f)));
  V e = S::scale_by_power_of_two(p, m);
  e = S::mul(e, e);
  return S::select_below(a, -104.0f, S::zero(), S::div(e, S::add(S::set1(1.0f), e)));
}

struct SigmoidOp {
  template <class S>
  static typename S::V vector(typename S::V x) {
    return sigmoid_vector<S>(x);
  }
};

struct ExpOp {
  template <class S>
  static typename S::V vector(typename S::V x) {
    return exp_vector<S>(x);
  }
};

struct TanhOp {
  template <class S>
  static typename S::V vector(typename S::V x) {
    return tanh_vector<S>(x);
  }
};

// y = Op(x) by whole vectors of S, then at most one of 8 floats, then the last n % 8 in a
// padded vector of 8: every element computed by the same instructions wherever it lies.
template <class S, class Op>
inline void map_floats_by_vectors(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + S::kWidth <= n; i += S::kWidth) S::store(y + i, Op::template vector<S>(S::load(x + i)));
  if (S::kWidth > 8 && i + 8 <= n) {
    Float8::store(y + i, Op::template vector<Float8>(Float8::load(x + i)));
    i += 8;
  }
  if (i < n) Float8::store_first(y + i, Op::template vector<Float8>(Float8::load_first(x + i, n - i)), n - i);
}

// The largest non-NaN value of a row (-inf when there is none), as TF's float kernels take it:
// a NaN makes its own entries NaN, not the whole row. (Where +0 and -0 are both largest, either
// may come back; x - m and so the results are the same.)
template <class S>
inline float row_max(const float* x, int64_t n) {
  int64_t i = 0;
  float m = -std::numeric_limits<float>::infinity();
  if (n >= S::kWidth) {
    // four chains, so that each max waits for the one four vectors back
    typename S::V v0 = S::set1(m), v1 = v0, v2 = v0, v3 = v0;
    for (; i + 4 * S::kWidth <= n; i += 4 * S::kWidth) {
      v0 = S::max_skipping_nan(v0, S::load(x + i));
      v1 = S::max_skipping_nan(v1, S::load(x + i + S::kWidth));
      v2 = S::max_skipping_nan(v2, S::load(x + i + 2 * S::kWidth));
      v3 = S::max_skipping_nan(v3, S::load(x + i + 3 * S::kWidth));
    }
    for (; i + S::kWidth <= n; i += S::kWidth) v0 = S::max_skipping_nan(v0, S::load(x + i));
    m = S::reduce_max(S::max_skipping_nan(S::max_skipping_nan(v0, v1), S::max_skipping_nan(v2, v3)));
  }
  if (S::kWidth > 8 && i + 8 <= n) {
    m = Float8::reduce_max(Float8::max_skipping_nan(Float8::set1(m), Float8::load(x + i)));
    i += 8;
  }
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// sum(exp(x - m)) over a row, storing each exp in y when kStore, except the last n % 8, which
// are left in *last (lanes beyond them 0) for the caller to store. Packets of 8 alternate between
// two chains of sums, added lane by lane at the end and then across the lanes (Float8's
// reduce_add); the last n % 8 follow one by one, computed by the vector exp too.
template <class S, bool kStore>
inline float exp_sum_row(const float* x, float m, int64_t n, float* y, __m256* last) {
  const typename S::V vm = S::set1(m);
  const int64_t packets = n / 8;
  int64_t i = 0;
  __m256 chain0 = _mm256_setzero_ps(), chain1 = _mm256_setzero_ps();
  if constexpr (S::kWidth == 16) {
    typename S::V both = S::zero();  // chain 0 in the low half, chain 1 in the high half
    for (; i + 16 <= packets * 8; i += 16) {
      const typename S::V e = exp_vector<S, true>(S::sub(S::load(x + i), vm));
      if (kStore) S::store(y + i, e);
      both = S::add(both, e);
    }
    chain0 = S::low_half(both);
    chain1 = S::high_half(both);
  } else {
    for (; i + 16 <= packets * 8; i += 16) {
      const __m256 e0 = exp_vector<Float8, true>(Float8::sub(Float8::load(x + i), vm));
      const __m256 e1 = exp_vector<Float8, true>(Float8::sub(Float8::load(x + i + 8), vm));
      if (kStore) {
        Float8::store(y + i, e0);
        Float8::store(y + i + 8, e1);
      }
      chain0 = Float8::add(chain0, e0);
      chain1 = Float8::add(chain1, e1);
    }
  }
  if (i < packets * 8) {  // an odd packet: the next of chain 0
    const __m256 e = exp_vector<Float8, true>(Float8::sub(Float8::load(x + i), Float8::set1(m)));
    if (kStore) Float8::store(y + i, e);
    chain0 = Float8::add(chain0, e);
    i += 8;
  }
  float sum = Float8::reduce_add(Float8::add(chain0, chain1));
  if (i < n) {
    alignas(32) float rest[8];
    const __m256 e = exp_vector<Float8, true>(Float8::sub(Float8::load_first(x + i, n - i), Float8::set1(m)));
    Float8::store(rest, e);
    *last = e;
    for (int64_t j = 0; i + j < n; ++j) sum += rest[j];
  }
  return sum;
}

template <class S>
inline void softmax_rows_at(const float* x, float* y, int64_t rows, int64_t n, bool nan_sum_as_inf) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    __m256 last;  // the last n % 8 exps, scaled and stored from the register (a masked store's
                  // data does not forward to a load that follows it soon)
    const float sum = exp_sum_row<S, true>(x, row_max<S>(x, n), n, y, &last);
    const float inverse = nan_sum_as_inf && std::isnan(sum) ? 0.0f : 1.0f / sum;
    const typename S::V vi = S::set1(inverse);
    int64_t i = 0;
    for (; i + S::kWidth <= n; i += S::kWidth) S::store(y + i, S::mul(S::load(y + i), vi));
    if (S::kWidth > 8 && i + 8 <= n) {
      Float8::store(y + i, Float8::mul(Float8::load(y + i), Float8::set1(inverse)));
      i += 8;
    }
    if (i < n) Float8::store_first(y + i, Float8::mul(last, Float8::set1(inverse)), n - i);
  }
}

template <class S>
inline void log_softmax_rows_at(const float* x, float* y, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    const float m = row_max<S>(x, n);
    __m256 last;
    const float log_sum = std::log(exp_sum_row<S, false>(x, m, n, nullptr, &last));
    const typename S::V vm = S::set1(m), vl = S::set1(log_sum);
    int64_t i = 0;
    for (; i + S::kWidth <= n; i += S::kWidth) S::store(y + i, S::sub(S::sub(S::load(x + i), vm), vl));
    const __m256 m8 = Float8::set1(m), l8 = Float8::set1(log_sum);
    if (S::kWidth > 8 && i + 8 <= n) {
      Float8::store(y + i, Float8::sub(Float8::sub(Float8::load(x + i), m8), l8));
      i += 8;
    }
    if (i < n) Float8::store_first(y + i, Float8::sub(Float8::sub(Float8::load_first(x + i, n - i), m8), l8), n - i);
  }
}

#if GRAPHFN_HAVE_AVX512_VARIANTS
using simd::Float16;
GRAPHFN_TARGET_AVX512 void exp_avx512(const float* x, float* y, int64_t n) {
  map_floats_by_vectors<Float16, ExpOp>(x, y, n);
}
GRAPHFN_TARGET_AVX512 void tanh_avx512(const float* x, float* y, int64_t n) {
  map_floats_by_vectors<Float16, TanhOp>(x, y, n);
}
GRAPHFN_TARGET_AVX512 void sigmoid_avx512(const float* x, float* y, int64_t n) {
  map_floats_by_vectors<Float16, SigmoidOp>(x, y, n);
}
GRAPHFN_TARGET_AVX512 void softmax_avx512(const float* x, float* y, int64_t rows, int64_t n, bool nan_sum_as_inf) {
  softmax_rows_at<Float16>(x, y, rows, n, nan_sum_as_inf);
}
GRAPHFN_TARGET_AVX512 void log_softmax_avx512(const float* x, float* y, int64_t rows, int64_t n) {
  log_softmax_rows_at<Float16>(x, y, rows, n);
}
bool use_avx512() {
  static const bool value = cpu::has_avx512();
  return value;
}
#else
bool use_avx512() { return false; }
#endif

}  // namespace

void exp(const float* x, float* y, int64_t n) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (use_avx512()) return exp_avx512(x, y, n);
#endif
  map_floats_by_vectors<Float8, ExpOp>(x, y, n);
}

void tanh(const float* x, float* y, int64_t n) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (use_avx512()) return tanh_avx512(x, y, n);
#endif
  map_floats_by_vectors<Float8, TanhOp>(x, y, n);
}

void sigmoid(const float* x, float* y, int64_t n) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (use_avx512()) return sigmoid_avx512(x, y, n);
#endif
  map_floats_by_vectors<Float8, SigmoidOp>(x, y, n);
}

void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool nan_sum_as_inf) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (use_avx512()) return softmax_avx512(x, y, rows, n, nan_sum_as_inf);
#endif
  softmax_rows_at<Float8>(x, y, rows, n, nan_sum_as_inf);
}

void log_softmax_rows(const float* x, float* y, int64_t rows, int64_t n) {
#if GRAPHFN_HAVE_AVX512_VARIANTS
  if (use_avx512()) return log_softmax_avx512(x, y, rows, n);
#endif
  log_softmax_rows_at<Float8>(x, y, rows, n);
}

#else  // no AVX2 + FMA in this build: the kernels use Eigen's array functions

void exp(const float*, float*, int64_t) {}
void tanh(const float*, float*, int64_t) {}
void sigmoid(const float*, float*, int64_t) {}
void softmax_rows(const float*, float*, int64_t, int64_t, bool) {}
void log_softmax_rows(const float*, float*, int64_t, int64_t) {}

#endif

}  // namespace float_math
}  // namespace graphfn
