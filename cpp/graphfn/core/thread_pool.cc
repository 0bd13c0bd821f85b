#include "graphfn/core/thread_pool.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace graphfn {
namespace thread_pool_detail {
std::atomic<bool> kernel_ran{false};
}  // namespace thread_pool_detail

namespace {

// The configuration and whether parallel_threads() has read it (after which it is fixed).
std::mutex config_mutex;
int requested_intra = 0;
int requested_inter = 0;
bool intra_fixed = false;

int default_threads() {
  if (const char* env = std::getenv("GRAPHFN_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

int fix_intra_threads() {
  std::lock_guard<std::mutex> lock(config_mutex);
  intra_fixed = true;
  if (requested_intra > 0) return requested_intra;
  if (requested_intra < 0) return 1;
  return default_threads();
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
  static const int threads = fix_intra_threads();
  return threads;
}

bool set_intra_op_threads(int n) {
  std::lock_guard<std::mutex> lock(config_mutex);
  if (intra_fixed || thread_pool_detail::kernel_ran.load()) return n == requested_intra;
  requested_intra = n;
  return true;
}

bool set_inter_op_threads(int n) {
  std::lock_guard<std::mutex> lock(config_mutex);
  if (intra_fixed || thread_pool_detail::kernel_ran.load()) return n == requested_inter;
  requested_inter = n;
  return true;
}

int inter_op_threads() {
  std::lock_guard<std::mutex> lock(config_mutex);
  return requested_inter;
}

bool runtime_started() {
  std::lock_guard<std::mutex> lock(config_mutex);
  return intra_fixed || thread_pool_detail::kernel_ran.load();
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
