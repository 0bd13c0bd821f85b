// graphfn's own float32 GEMM for CPUs with AVX-512 (kernels/gemm.cc calls it when
// cpu::has_avx512(); other CPUs keep OpenBLAS). Measurements behind it: docs/design.md,
// "Matrix products".
//
// C is computed in micro-tiles of 12 rows x 32 columns (24 zmm accumulators), reading op(A) and
// an untransposed B where they lie (no packing copy; only a transposed B is first copied into
// 32-column panels), over blocks of at most 512 of the inner dimension. Every element of C is
// summed the same way whichever thread computes its tile and however the tiles are shared out:
// a k-block's products in order with fused multiply-adds, then added to C block by block. So
// threaded results equal one-thread results bit for bit, and the tiles can be handed out
// dynamically (a thread whose core is busy with other work leaves its remaining tiles to the
// others).
#pragma once
#include <cstdint>

namespace graphfn {

// Whether the running CPU takes sgemm_avx512 (AVX-512 F/BW/DQ/VL, not capped by
// GRAPHFN_MAX_CPU_ISA=avx2).
bool sgemm_avx512_available();

// C[m, n] = op(A) * op(B), or += when `accumulate`, as gemm<float> in kernels/gemm.h (row-major,
// leading dimensions, transposes). m, n, k > 0. Large products are spread over the intra-op pool.
void sgemm_avx512(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
                  const float* b, int64_t ldb, float* c, int64_t ldc, bool accumulate);

// gemm_batched<float>'s products too small to split (kernels/gemm.h): C[i] = op(A[a_index[i]]) *
// op(B[b_index[i]]) for i < batches, dense matrices, whole products shared out over the pool;
// each product's tiles fetch the next product's operands into the cache while they compute.
void sgemm_avx512_batched(int64_t batches, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                          const float* a, const int64_t* a_index, const float* b, const int64_t* b_index, float* c);

}  // namespace graphfn
