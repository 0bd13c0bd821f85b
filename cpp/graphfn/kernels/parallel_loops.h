// Threaded loops for the cheap-per-element kernels (element-wise ops, casts, reductions,
// softmax): the pool is used only above a size threshold, so small tensors run the plain loop
// on the calling thread with no dispatch and no allocation.
//
// Thresholds (elements per shard; a range needs two shards' worth to be split): handing a shard
// to a worker and waiting for it costs ~5-15 us, so a shard must carry ~15 us of work or more.
// (Chosen from per-element costs; the shared 2-core machine they were tried on was too loaded
// to pin the crossover down: re-measure with benchmarks/bench_elementwise.py sizes.)
#pragma once
#include <cstdint>

#include "graphfn/core/thread_pool.h"

namespace graphfn {

// Transcendental and other costly element-wise functions (exp, tanh, sigmoid, softmax: ~1 ns
// an element).
constexpr int64_t kCostlyElementsPerShard = 16 * 1024;
// Memory-bound element-wise work (add, compare, cast, select, sums: ~0.1-0.3 ns an element).
constexpr int64_t kCheapElementsPerShard = 64 * 1024;

// Calls fn(begin, end) over [0, n), threaded when n is large. Every shard but the first starts
// at an element of `out` on a 64-byte boundary, so Eigen's vectorised loops run the same packets
// (and scalar head and tail) however the range is split: threaded results equal the
// single-threaded ones bit for bit.
template <typename T, typename Fn>
void parallel_elementwise(const T* out, int64_t n, int64_t min_shard, Fn&& fn) {
  if (n < 2 * min_shard || parallel_threads() == 1) {
    fn(int64_t{0}, n);
    return;
  }
  constexpr int64_t kLine = 64;
  constexpr int64_t kBlock = sizeof(T) >= kLine ? 1 : kLine / static_cast<int64_t>(sizeof(T));
  const auto misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(out) % kLine);
  int64_t head = misalign % static_cast<int64_t>(sizeof(T)) != 0 ? 0 : ((kLine - misalign) % kLine) / sizeof(T);
  if (head > n) head = n;
  parallel_for_blocks(n - head, min_shard, kBlock, [&](int64_t b, int64_t e) {
    fn(b == 0 ? int64_t{0} : head + b, head + e);
  });
}

// Calls fn(first_row, last_row) over `rows` rows of `row_elements` each, threaded when the
// rows hold many elements; each row is handled whole by one shard.
template <typename Fn>
void parallel_rows(int64_t rows, int64_t row_elements, int64_t min_shard_elements, Fn&& fn) {
  const int64_t per_row = row_elements > 0 ? row_elements : 1;
  const int64_t min_rows = (min_shard_elements + per_row - 1) / per_row;
  parallel_for_if_large(rows, min_rows, fn);
}

}  // namespace graphfn
