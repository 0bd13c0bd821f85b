#include "graphfn/core/thread_pool.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace graphfn {
namespace {

int configured_threads() {
  if (const char* env = std::getenv("GRAPHFN_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Workers for all but the calling thread's shard. Never destroyed: kernels may still run
// while static destructors do at exit.
Eigen::ThreadPool* pool() {
  static Eigen::ThreadPool* const workers =
      parallel_threads() > 1 ? new Eigen::ThreadPool(parallel_threads() - 1) : nullptr;
  return workers;
}

}  // namespace

int parallel_threads() {
  static const int threads = configured_threads();
  return threads;
}

void parallel_for(int64_t n, int64_t min_shard, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  min_shard = std::max<int64_t>(1, min_shard);
  int64_t shards = std::min<int64_t>(parallel_threads(), n / min_shard);
  Eigen::ThreadPool* workers = shards > 1 ? pool() : nullptr;
  if (workers == nullptr || workers->CurrentThreadId() != -1) shards = 1;  // nested: inline
  if (shards <= 1) {
    fn(0, n);
    return;
  }
  const int64_t base = n / shards, extra = n % shards;
  auto begin_of = [&](int64_t s) { return s * base + std::min(s, extra); };
  Eigen::Barrier done(static_cast<unsigned>(shards - 1));
  for (int64_t s = 1; s < shards; ++s) {
    workers->Schedule([&, s] {
      fn(begin_of(s), begin_of(s + 1));
      done.Notify();
    });
  }
  fn(0, begin_of(1));
  done.Wait();
}

}  // namespace graphfn
