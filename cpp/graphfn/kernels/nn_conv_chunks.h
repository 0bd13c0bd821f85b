// Work sharing for the convolution kernels (kernels/nn_conv*.{h,cc}): the range is cut into
// chunks fixed by the sizes alone, and every thread of the pool claims chunks from one counter
// until none is left. parallel_for makes one shard per thread, so on a loaded machine a thread
// the OS preempted in the middle of its half held the whole call up; with small chunks the
// others take over the rest. Each chunk writes only its own outputs (or its own fixed partial
// sum), so which thread runs it never changes a result.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>

#include "graphfn/core/thread_pool.h"

namespace graphfn {
namespace conv_chunks {

// Calls fn(begin, end) for the chunks [c * chunk, min(n, (c + 1) * chunk)) of [0, n), spread
// over the pool's threads (on the calling thread alone when there is one chunk).
template <typename Fn>
void for_each_chunk(int64_t n, int64_t chunk, Fn&& fn) {
  if (n <= 0) return;
  chunk = std::max<int64_t>(chunk, 1);
  const int64_t chunks = (n + chunk - 1) / chunk;
  if (chunks == 1 || parallel_threads() == 1) {
    for (int64_t c = 0; c < chunks; ++c) fn(c * chunk, std::min(n, (c + 1) * chunk));
    return;
  }
  std::atomic<int64_t> next{0};
  parallel_for(std::min<int64_t>(parallel_threads(), chunks), 1, [&](int64_t, int64_t) {
    for (int64_t c; (c = next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      fn(c * chunk, std::min(n, (c + 1) * chunk));
    }
  });
}

}  // namespace conv_chunks
}  // namespace graphfn
