// Batches of matrices (the last two dims of a tensor), shared by the linalg kernels.
#pragma once
#include <cstdint>
#include <thread>

#include "graphfn/core/shape.h"

namespace graphfn {

// The number of matrices in a batch: the product of the dims before the last matrix_rank.
inline int64_t matrix_batch_size(const Shape& s, int matrix_rank = 2) {
  int64_t b = 1;
  for (int i = 0; i + matrix_rank < s.rank(); ++i) b *= s.dim(i);
  return b;
}

// Runs fn(b) for every matrix b of the batch, split over two threads when the batch holds
// enough work (about n^3 operations a matrix): TF's kernels shard batches over its threads too.
template <typename Fn>
void for_each_matrix(int64_t batches, int64_t n, Fn fn) {
  if (batches >= 2 && static_cast<double>(batches) * n * n * n >= (1 << 17)) {
    const int64_t half = batches / 2;
    std::thread helper([&] {
      for (int64_t b = half; b < batches; ++b) fn(b);
    });
    for (int64_t b = 0; b < half; ++b) fn(b);
    helper.join();
    return;
  }
  for (int64_t b = 0; b < batches; ++b) fn(b);
}

}  // namespace graphfn
