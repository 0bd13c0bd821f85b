// The matrix product every float/double kernel calls (MatMul, BatchMatMul, einsum, the
// convolutions' im2col products): row-major operands with leading dimensions, optional
// transposes, C = op(A) * op(B) or C += op(A) * op(B).
//
// How it runs (measurements in benchmarks/cpp/gemm_libraries_bench.cc and docs/design.md,
// "Matrix products"):
//  - tiny products (m*k*n < 16^3): an i-k-j loop over column panels, no library call, no
//    thread dispatch, no allocation for untransposed operands;
//  - larger ones: OpenBLAS's cblas_?gemm (scipy-openblas32, loaded on first use by
//    kernels/lapack.cc) on one thread per call; a product holding enough work is cut into
//    pieces (row or column blocks, kernels/gemm_cuts.h) shared out over the intra-op pool
//    (core/thread_pool.h). The cut depends on the shape and the machine only, not on the
//    pool's size, so threaded results equal one-thread ones bit for bit.
//  - float products above 10^6 multiply-adds (not matrix-vector shapes) on CPUs with AVX-512:
//    graphfn's own kernel (kernels/sgemm_avx512.h), whose bits do not depend on the threads either.
//  - without a loadable OpenBLAS: Eigen's GEMM on the calling thread.
#pragma once
#include <cstdint>

namespace graphfn {

// C[m, n] = op(A) * op(B) (or += when `accumulate`), T = float or double. op(A) is m x k: A is
// stored m x k (row stride lda) or, when transpose_a, k x m. op(B) is k x n likewise. ldc is
// C's row stride. Any of m, n, k may be 0 (k == 0 gives zeros, or leaves C when accumulating).
template <typename T>
void gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda,
          const T* b, int64_t ldb, T* c, int64_t ldc, bool accumulate = false);

// `batches` contiguous products C[i] = op(A[a_index[i]]) * op(B[b_index[i]]), each matrix
// stored densely (A's are m*k apart, B's k*n, C's m*n); a null index array means i. Small
// products are spread over the pool batch by batch, large ones are split inside.
template <typename T>
void gemm_batched(int64_t batches, bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                  const T* a, const int64_t* a_index, const T* b, const int64_t* b_index, T* c);

}  // namespace graphfn
