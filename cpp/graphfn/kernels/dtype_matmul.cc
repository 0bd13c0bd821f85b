// MatMul and BatchMatMulV2/V3 for float16, bfloat16, complex64 and complex128 (the dtypes TF
// registers beyond the real ones of kernels/matmul.cc). float16/bfloat16 multiply in float
// (kernels/gemm.h) and round each result element once; complex products use Eigen's
// complex GEMM; BatchMatMul's adj_x/adj_y conjugate complex operands, as TF's do.
#include <Eigen/Core>
#include <complex>
#include <memory>
#include <vector>

#ifdef __F16C__
#include <immintrin.h>
#endif

#include "graphfn/kernels/gemm.h"
#include "graphfn/kernels/gemm_bf16.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"

namespace graphfn {
namespace {

template <typename T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Operand `p` (stored rows x cols, row-major) as the compute-type matrix the product uses:
// transposed when `transpose`, conjugated too when `conjugate` (complex adjoints).
template <typename T>
RowMajor<ComputeType<T>> operand(const T* p, int64_t rows, int64_t cols, bool transpose, bool conjugate) {
  using C = ComputeType<T>;
  Eigen::Map<const RowMajor<T>> stored(p, rows, cols);
  RowMajor<C> m = stored.template cast<C>();
  if constexpr (!std::is_same_v<C, float>) {
    if (conjugate) m = m.conjugate().eval();
  }
  if (transpose) return m.transpose();
  return m;
}

// n reduced-precision values as floats (exact). float16 converts eight at a time with F16C's
// vcvtph2ps where the build has it (x86-64-v3, the default; Eigen's own casts convert one value
// per instruction), bfloat16 is a 16-bit shift that the compiler vectorises.
template <typename T>
void widen_to_float(const T* src, float* dst, int64_t n) {
  int64_t i = 0;
#ifdef __F16C__
  if constexpr (std::is_same_v<T, Eigen::half>) {
    for (; i + 8 <= n; i += 8) {
      const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
  }
#endif
  if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    const uint16_t* bits = reinterpret_cast<const uint16_t*>(src);
    for (; i < n; ++i) dst[i] = Eigen::numext::bit_cast<float>(static_cast<uint32_t>(bits[i]) << 16);
  }
  for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

// n float products rounded to T, as TF's kernels round them: float16 to nearest-even (F16C's
// vcvtps2ph, the instruction Eigen's scalar conversion uses too, eight at a time); bfloat16 by
// truncation (measured: [[0.1, 1.5], [-2.25, 3.3]] x [[0.3, -1.5], [2, 0.7]] gives 3.015625 in
// TF where rounding would give 3.03125).
template <typename T>
void narrow_from_float(const float* src, T* dst, int64_t n) {
  int64_t i = 0;
  if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    uint16_t* bits = reinterpret_cast<uint16_t*>(dst);
    for (; i < n; ++i) bits[i] = static_cast<uint16_t>(Eigen::numext::bit_cast<uint32_t>(src[i]) >> 16);
  } else {
#ifdef __F16C__
    for (; i + 8 <= n; i += 8) {
      const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
    }
#endif
    for (; i < n; ++i) dst[i] = static_cast<T>(src[i]);
  }
}

// How a bfloat16 product is computed, as TF 2.21 computes it on x86: MatMul and BatchMatMulV2 go
// to oneDNN, which on CPUs with AVX-512 BF16 sums pairs of products with vdpbf16ps and rounds each
// result to nearest-even (kernels/gemm_bf16.h); elsewhere, and always for BatchMatMulV3, Eigen
// sums in float and truncates (narrow_from_float).
enum class Bf16Path { kDotInstruction, kFloat };

Bf16Path bf16_path(bool op_uses_onednn) {
  return op_uses_onednn && gemm_bf16_available() ? Bf16Path::kDotInstruction : Bf16Path::kFloat;
}

// out[m, n] = op(a) * op(b) for one pair of matrices.
template <typename T>
void matmul_wide_2d(const T* a, int64_t a_rows, int64_t a_cols, bool ta, bool ca, const T* b, int64_t b_rows,
               int64_t b_cols, bool tb, bool cb, T* out, Bf16Path bf16 = Bf16Path::kFloat) {
  if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    if (bf16 == Bf16Path::kDotInstruction) {
      const int64_t m = ta ? a_cols : a_rows, k = ta ? a_rows : a_cols, n = tb ? b_rows : b_cols;
      gemm_bf16(ta, tb, m, n, k, reinterpret_cast<const uint16_t*>(a), a_cols, reinterpret_cast<const uint16_t*>(b),
                b_cols, reinterpret_cast<uint16_t*>(out), n);
      return;
    }
  }
  if constexpr (kReducedFloat<T>) {
    // Converted to float once, one float GEMM (kernels/gemm.h), each result rounded once.
    const int64_t m = ta ? a_cols : a_rows, k = ta ? a_rows : a_cols, n = tb ? b_rows : b_cols;
    const std::unique_ptr<float[]> fa(new float[a_rows * a_cols]), fb(new float[b_rows * b_cols]),
        product(new float[m * n]);
    widen_to_float(a, fa.get(), a_rows * a_cols);
    widen_to_float(b, fb.get(), b_rows * b_cols);
    gemm<float>(ta, tb, m, n, k, fa.get(), a_cols, fb.get(), b_cols, product.get(), n);
    narrow_from_float(product.get(), out, m * n);
  } else {
    using C = ComputeType<T>;
    const RowMajor<C> product = operand(a, a_rows, a_cols, ta, ca) * operand(b, b_rows, b_cols, tb, cb);
    Eigen::Map<RowMajor<T>>(out, product.rows(), product.cols()) = product.template cast<T>();
  }
}

template <typename T>
struct MatMulWideKernel {
  static Status compute(KernelContext& c) {
    const Tensor& a = c.input(0);
    const Tensor& b = c.input(1);
    Tensor& out = c.allocate_output(0);
    if (out.num_elements() == 0) return Status::OK();
    const bool ta = c.attrs.get_bool("transpose_a", false), tb = c.attrs.get_bool("transpose_b", false);
    matmul_wide_2d(a.data<T>(), a.dim(0), a.dim(1), ta, false, b.data<T>(), b.dim(0), b.dim(1), tb, false, out.data<T>(),
                   bf16_path(true));
    return Status::OK();
  }
};

// The flat batch index of an operand (batch dims `dims`, right-aligned to the output's) for
// the output's batch position `index`: broadcast dims (size 1) stay at 0.
int64_t operand_batch(const std::vector<int64_t>& dims, const std::vector<int64_t>& index) {
  int64_t flat = 0;
  const size_t offset = index.size() - dims.size();
  for (size_t d = 0; d < dims.size(); ++d) flat = flat * dims[d] + (dims[d] == 1 ? 0 : index[offset + d]);
  return flat;
}

template <typename T, bool kOneDnnInTf>
struct BatchMatMulKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const Tensor& y = c.input(1);
    Tensor& out = c.allocate_output(0);
    if (out.num_elements() == 0) return Status::OK();
    const bool adj_x = c.attrs.get_bool("adj_x", false), adj_y = c.attrs.get_bool("adj_y", false);
    const int xr = x.rank(), yr = y.rank(), orank = out.rank();
    const int64_t xm = x.dim(xr - 2), xk = x.dim(xr - 1), ym = y.dim(yr - 2), yk = y.dim(yr - 1);
    const std::vector<int64_t> xb(x.shape().dims().begin(), x.shape().dims().end() - 2);
    const std::vector<int64_t> yb(y.shape().dims().begin(), y.shape().dims().end() - 2);
    const std::vector<int64_t> ob(out.shape().dims().begin(), out.shape().dims().end() - 2);
    const int64_t out_matrix = out.dim(orank - 2) * out.dim(orank - 1);
    std::vector<int64_t> index(ob.size(), 0);
    for (int64_t batch = 0; batch < out.num_elements() / out_matrix; ++batch) {
      const T* xp = x.data<T>() + operand_batch(xb, index) * xm * xk;
      const T* yp = y.data<T>() + operand_batch(yb, index) * ym * yk;
      matmul_wide_2d(xp, xm, xk, adj_x, adj_x, yp, ym, yk, adj_y, adj_y, out.data<T>() + batch * out_matrix,
                     bf16_path(kOneDnnInTf));
      for (int d = static_cast<int>(ob.size()) - 1; d >= 0; --d) {  // the odometer over batch dims
        if (++index[d] < ob[d]) break;
        index[d] = 0;
      }
    }
    return Status::OK();
  }
};

template <typename T>
using BatchMatMulV2Kernel = BatchMatMulKernel<T, true>;
template <typename T>
using BatchMatMulV3Kernel = BatchMatMulKernel<T, false>;

}  // namespace

void register_dtype_matmul_kernels(OpRegistry& reg) {
  using Types = Concat<HalfTypes, ComplexTypes>;
  register_kernels<MatMulWideKernel>(reg, "MatMul", Types{});
  register_kernels<BatchMatMulV2Kernel>(reg, "BatchMatMulV2", Types{});
  register_kernels<BatchMatMulV3Kernel>(reg, "BatchMatMulV3", Types{});
}

}  // namespace graphfn
