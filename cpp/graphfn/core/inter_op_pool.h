// The inter-op pool: worker threads on which a plan runs independent nodes of one graph at once
// (runtime/plan_parallel.cc). It is separate from the intra-op pool of core/thread_pool.h, so a
// kernel running on an inter-op worker splits its work over the intra-op workers as on any other
// thread, and no thread ever waits for work queued behind itself.
#pragma once
#include <functional>

namespace graphfn {

// Threads that may run a graph's nodes at once, the calling thread included, fixed at the first
// call: tf.config.threading.set_inter_op_parallelism_threads(n) when n > 0, 1 when n < 0 (TF
// then runs every op on the caller's thread), else the machine's hardware threads (TF's default).
int inter_op_parallelism();

// Runs `task` on one of the pool's inter_op_parallelism() - 1 workers (there must be one).
void schedule_inter_op(std::function<void()> task);

// While one lives, parallel_for on this thread runs inline (one shard): a kernel running beside
// other nodes leaves the cores to them instead of splitting its own work. Nests.
class InlineKernelsScope {
 public:
  InlineKernelsScope();
  ~InlineKernelsScope();
  InlineKernelsScope(const InlineKernelsScope&) = delete;
  InlineKernelsScope& operator=(const InlineKernelsScope&) = delete;

 private:
  bool was_inline_;
};

}  // namespace graphfn
