// One process-wide pool of worker threads for heavy kernels (convolutions, pooling), sized by
// the machine's cores. parallel_for splits a range into contiguous shards, runs one on the
// calling thread and the others on the pool, and returns when all are done. Safe to call from
// several threads at once; a call from inside a shard (nested) runs inline.
#pragma once
#include <cstdint>
#include <functional>

namespace graphfn {

// Threads a parallel_for can use (hardware_concurrency, at least 1; GRAPHFN_NUM_THREADS
// overrides it when set at the first use).
int parallel_threads();

// Runs fn(begin, end) over shards covering [0, n), each at least `min_shard` items long (so small
// ranges stay on the calling thread), at most parallel_threads() of them.
void parallel_for(int64_t n, int64_t min_shard, const std::function<void(int64_t, int64_t)>& fn);

}  // namespace graphfn
