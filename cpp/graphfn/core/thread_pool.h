// One process-wide pool of worker threads for heavy kernels (matmul, convolutions, pooling,
// element-wise ops, reductions, softmax above a size threshold). parallel_for splits a range
// into contiguous shards, which the calling thread and the pool's workers claim one by one, and
// returns when all are done. Safe to call from several threads at once; a call from inside a
// shard (nested) runs inline.
//
// Shard boundaries depend only on the range, the minimum shard and the thread count, never on
// timing (only which thread runs a shard does), so a kernel whose shards each compute their own
// outputs gives the same bits run to run (docs/performance.md, "Determinism").
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>

namespace graphfn {

// Threads a parallel_for can use, fixed at the first call: the intra-op setting when it is
// positive (tf.config.threading.set_intra_op_parallelism_threads), else GRAPHFN_NUM_THREADS when
// set, else the machine's hardware threads (at least 1).
int parallel_threads();

// Runs fn(begin, end) over shards covering [0, n), each at least `min_shard` items long (so small
// ranges stay on the calling thread), at most parallel_threads() of them.
void parallel_for(int64_t n, int64_t min_shard, const std::function<void(int64_t, int64_t)>& fn);

// parallel_for for hot kernels: a range too short for two shards (or a one-thread pool) runs
// fn(0, n) directly, without building a std::function or touching the pool.
template <typename Fn>
void parallel_for_if_large(int64_t n, int64_t min_shard, Fn&& fn) {
  if (n < 2 * min_shard || parallel_threads() == 1) {
    fn(int64_t{0}, n);
    return;
  }
  parallel_for(n, min_shard, std::cref(fn));  // a reference_wrapper: no allocation
}

// Like parallel_for_if_large, but every shard boundary is a multiple of `block` items (e.g. a
// cache line of elements), so vectorised loops see the same aligned packets however the range
// is split.
template <typename Fn>
void parallel_for_blocks(int64_t n, int64_t min_shard, int64_t block, Fn&& fn) {
  const int64_t blocks = (n + block - 1) / block;
  const int64_t min_blocks = (min_shard + block - 1) / block;
  parallel_for_if_large(blocks, min_blocks > 0 ? min_blocks : 1, [&](int64_t b0, int64_t b1) {
    fn(b0 * block, b1 * block < n ? b1 * block : n);
  });
}

// ---- configuration (tf.config.threading) ----

// Requests a pool size before the pool exists: n > 0 threads, 0 for the default (see
// parallel_threads), n < 0 for no workers (every kernel on its calling thread; TF aborts on
// these). Returns false, changing nothing, once parallel_threads() has been fixed.
bool set_intra_op_threads(int n);
// The inter-op setting (tf.config.threading), read by core/inter_op_pool.h when a plan first
// runs independent nodes at once; the same rules as set_intra_op_threads.
bool set_inter_op_threads(int n);
int inter_op_threads();

// Whether the runtime has started: a kernel has run or the pool size was fixed. Like TF's
// context initialisation, after it the thread counts can no longer change.
bool runtime_started();
namespace thread_pool_detail {
extern std::atomic<bool> kernel_ran;
}
// Called on each kernel run (one relaxed load once set).
inline void note_kernel_run() {
  if (!thread_pool_detail::kernel_ran.load(std::memory_order_relaxed)) {
    thread_pool_detail::kernel_ran.store(true, std::memory_order_relaxed);
  }
}

}  // namespace graphfn
