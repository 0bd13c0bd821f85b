// Hand-vectorised float32 loops of the hottest transcendental kernels (Exp, Tanh, Sigmoid,
// Softmax, LogSoftmax), each with an AVX-512 variant chosen at run time (core/cpu_features.h)
// beside the build's AVX2 code. Both variants give the same bits: every lane runs the same
// instructions, and sums add in the same order (kernels/float_math.cc).
#pragma once
#include <cstdint>

// The loops below exist in builds for AVX2 + FMA or better (GRAPHFN_SIMD=avx2, the default);
// other builds' kernels use Eigen's array functions.
#if defined(__AVX2__) && defined(__FMA__)
#define GRAPHFN_HAVE_SIMD_FLOAT 1
#else
#define GRAPHFN_HAVE_SIMD_FLOAT 0
#endif

namespace graphfn {
namespace float_math {

// y[i] = exp(x[i]) for i in [0, n): vector_math::pexp_float's values (kernels/vector_exp.h) for
// every element, wherever x and y lie.
void exp(const float* x, float* y, int64_t n);
// y[i] = tanh(x[i]): TF 2.21's float tanh, bit for bit (its rational approximation, unfused).
void tanh(const float* x, float* y, int64_t n);
// y[i] = 1 / (1 + exp(-x[i])): TF 2.21's float sigmoid, bit for bit but for denormal results
// (which TF flushes to zero).
void sigmoid(const float* x, float* y, int64_t n);

// Rows [0, rows) of n floats each (row r at x + r * n): y = exp(x - max) * (1 / sum), with the
// sum's order fixed (kernels/float_math.cc). nan_sum_as_inf: a row whose sum is NaN (it holds a
// NaN or +inf) gives NaN where exp(x - max) is NaN and 0 elsewhere, as TF's float32 and bfloat16
// kernels (oneDNN's) do; otherwise all NaN, as its float16 kernel (Eigen's) does.
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool nan_sum_as_inf);
// y = (x - max) - log(sum(exp(x - max))).
void log_softmax_rows(const float* x, float* y, int64_t rows, int64_t n);

}  // namespace float_math
}  // namespace graphfn
