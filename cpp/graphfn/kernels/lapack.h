// LAPACK and BLAS routines of OpenBLAS (the scipy-openblas32 package, a dependency of graphfn),
// loaded on first use: the linalg kernels factor matrices with them instead of instantiating
// Eigen's decompositions per dtype, which cost more compile time than the rest of the kernels
// together and ran 1.3-2x slower (docs/building.md). Nothing is loaded until a linalg kernel
// runs, so importing graphfn does not pay for OpenBLAS's start-up.
#pragma once
#include <string>

#include "graphfn/core/status.h"

namespace graphfn {
namespace lapack {

// The LAPACKE / CBLAS C interfaces (row-major 101, column-major 102), 32-bit integers.
constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kCblasNoTrans = 111, kCblasTrans = 112, kCblasUpper = 121, kCblasLower = 122,
              kCblasNonUnit = 131, kCblasLeft = 141;

template <typename T>
struct Routines {
  int (*getrf)(int layout, int m, int n, T* a, int lda, int* ipiv);
  int (*getri)(int layout, int n, T* a, int lda, const int* ipiv);
  int (*getrs)(int layout, char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
  int (*potrf)(int layout, char uplo, int n, T* a, int lda);
  int (*syevd)(int layout, char jobz, char uplo, int n, T* a, int lda, T* w);
  int (*geqrf)(int layout, int m, int n, T* a, int lda, T* tau);
  int (*orgqr)(int layout, int m, int n, int k, T* a, int lda, const T* tau);
  int (*gesdd)(int layout, char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt);
  void (*trsm)(int layout, int side, int uplo, int trans, int diag, int m, int n, T alpha, const T* a,
               int lda, T* b, int ldb);
  // C = alpha * op(A) * op(B) + beta * C (row- or column-major by `layout`).
  void (*gemm)(int layout, int trans_a, int trans_b, int m, int n, int k, T alpha, const T* a,
               int lda, const T* b, int ldb, T beta, T* c, int ldc);
};

// Where the library is. The Python module sets the path of the installed scipy_openblas32
// package's library; the environment variable GRAPHFN_OPENBLAS_LIBRARY, when set, wins; with
// neither, the dynamic linker's own search is tried.
void set_library_path(const std::string& path);

// The routines for float or double, loading the library on the first call (thread-safe). An
// error names the library and what to install when it cannot be loaded.
template <typename T>
Status routines(const Routines<T>** out);

// A dimension as LAPACK's 32-bit integer, or TF's error for a matrix too large for it.
Status lapack_dim(int64_t n, const char* op, int* out);

}  // namespace lapack
}  // namespace graphfn
