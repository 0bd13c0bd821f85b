// bfloat16 matrix products on CPUs with AVX-512 BF16 (kernels/gemm_bf16.cc): each pair of
// products summed into float by vdpbf16ps, the instruction TF's oneDNN kernels use there, and
// each result rounded once to the nearest bfloat16 (ties to even), as TF's MatMul rounds on
// those CPUs. Without the extension, kernels/dtype_matmul.cc widens to float and calls
// kernels/gemm.h instead.
#pragma once
#include <cstdint>

namespace graphfn {

// Whether gemm_bf16 can run on this CPU (cpu::has_avx512_bf16).
bool gemm_bf16_available();

// C[m, n] = op(A) * op(B) for bfloat16 values given as their 16 bits. op(A) is m x k: A is stored
// m x k (row stride lda) or, when transpose_a, k x m; op(B) is k x n likewise; ldc is C's row
// stride. Products run over the intra-op pool; the order of every sum depends on k only (not on
// the thread count), so threaded results equal one-thread ones bit for bit. As with the
// instruction, denormal inputs count as zero and denormal results become zero.
// Requires gemm_bf16_available().
void gemm_bf16(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const uint16_t* a, int64_t lda,
               const uint16_t* b, int64_t ldb, uint16_t* c, int64_t ldc);

}  // namespace graphfn
