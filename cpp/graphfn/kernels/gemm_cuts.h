// How kernels/gemm.cc cuts a large product C = op(A) * op(B) into library calls, one call per
// piece, the pieces shared out over the intra-op pool.
//
// The cut depends only on the product's shape and the machine's hardware threads, never on the
// pool's size, the load or whether the kernel runs beside other steps: with one thread the same
// pieces are computed one after the other. Each output element is therefore summed by the same
// library call in every run, so one thread and many give the same bits whatever the library does
// inside a call. (Cutting at the library's kernel row block and trusting that a block sums like
// the whole product does not hold on every CPU: OpenBLAS's AVX-512 sgemm switches to other
// kernels for smaller calls, so row blocks of 48 changed bits there.)
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace graphfn {

struct GemmCuts {
  bool by_rows = true;  // pieces are blocks of C's rows (else of its columns)
  int64_t pieces = 1;   // 1: the product is one call
  int64_t length = 0;   // C's rows (by_rows) or columns
  int64_t units = 0;    // length in units of kGranule

  // Piece boundaries fall on multiples of this many rows or columns (a vector register's floats).
  static constexpr int64_t kGranule = 16;
  // A piece is at least two granules long: a call packs the whole other operand, so thinner
  // pieces spend a growing share of their time on that.
  static constexpr int64_t kMinUnits = 2;

  // [begin(p), begin(p + 1)) is piece p's range of rows or columns.
  int64_t begin(int64_t p) const { return std::min(length, p * units / pieces * kGranule); }
};

// The cut of an m x n product with inner dimension k: along the longer side of C, into at most
// `max_pieces` pieces (the machine's hardware threads) of at least `min_work` multiply-adds each.
inline GemmCuts plan_gemm_cuts(int64_t m, int64_t n, int64_t k, int64_t max_pieces, double min_work) {
  GemmCuts cuts;
  cuts.by_rows = m >= n;
  cuts.length = cuts.by_rows ? m : n;
  cuts.units = (cuts.length + GemmCuts::kGranule - 1) / GemmCuts::kGranule;
  const double work = static_cast<double>(m) * n * k;
  const double by_work = std::max(1.0, std::floor(work / min_work));
  cuts.pieces = std::max<int64_t>(
      1, std::min({max_pieces, cuts.units / GemmCuts::kMinUnits, static_cast<int64_t>(std::min(by_work, 1e9))}));
  return cuts;
}

}  // namespace graphfn
