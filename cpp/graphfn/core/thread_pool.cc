#include "graphfn/core/thread_pool.h"
#include "graphfn/core/inter_op_pool.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
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

// Whether this thread is running a shard: a parallel_for inside one runs inline.
thread_local bool in_shard = false;

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

int inter_op_parallelism() {
  static const int threads = [] {
    const int requested = inter_op_threads();
    if (requested > 0) return requested;
    if (requested < 0) return 1;
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return threads;
}

void schedule_inter_op(std::function<void()> task) {
  // Never destroyed, like the intra-op pool: a run may still be going while statics are.
  static Eigen::ThreadPool* const workers =
      inter_op_parallelism() > 1 ? new Eigen::ThreadPool(inter_op_parallelism() - 1) : nullptr;
  if (workers == nullptr) {
    task();
    return;
  }
  workers->Schedule(std::move(task));
}

InlineKernelsScope::InlineKernelsScope() : was_inline_(in_shard) { in_shard = true; }
InlineKernelsScope::~InlineKernelsScope() { in_shard = was_inline_; }

bool runtime_started() {
  std::lock_guard<std::mutex> lock(config_mutex);
  return intra_fixed || thread_pool_detail::kernel_ran.load();
}

void parallel_for(int64_t n, int64_t min_shard, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  min_shard = std::max<int64_t>(1, min_shard);
  const int64_t shards = std::min<int64_t>(parallel_threads(), n / min_shard);
  Eigen::ThreadPool* workers = shards > 1 ? pool() : nullptr;
  if (workers == nullptr || in_shard) {  // one shard, or nested in a shard: inline
    fn(0, n);
    return;
  }
  // The shards are fixed by (n, shards) alone; which thread runs which is first come, first
  // served: the caller and up to shards - 1 workers claim them from a counter, so a worker the
  // OS has not scheduled yet (a loaded machine) never holds the caller up, it finds nothing left.
  // The state is shared with the workers' tasks, which may start after this call has returned.
  struct Job {
    std::atomic<int64_t> next{0};
    int64_t finished = 0;      // under mu
    std::exception_ptr error;  // the first exception a shard threw (std::bad_alloc), under mu
    std::mutex mu;
    std::condition_variable all_done;
  };
  auto job = std::make_shared<Job>();
  const int64_t base = n / shards, extra = n % shards;
  auto begin_of = [base, extra](int64_t s) { return s * base + std::min(s, extra); };
  // Runs shards until none is left; `fn` is only used for a shard claimed while the caller waits.
  auto run_shards = [job, shards, begin_of, fn_ptr = &fn] {
    in_shard = true;
    int64_t ran = 0;
    std::exception_ptr error;
    // A shard's exception must not end a worker (std::terminate) nor unwind the caller while
    // workers still run shards with its `fn`: it is kept and rethrown once every shard is done.
    for (int64_t s; (s = job->next.fetch_add(1)) < shards; ++ran) {
      try {
        (*fn_ptr)(begin_of(s), begin_of(s + 1));
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    in_shard = false;
    if (ran == 0) return;
    std::lock_guard<std::mutex> lock(job->mu);
    if (error && !job->error) job->error = error;
    job->finished += ran;
    if (job->finished == shards) job->all_done.notify_one();
  };
  for (int64_t s = 1; s < shards; ++s) workers->Schedule(run_shards);
  run_shards();
  std::unique_lock<std::mutex> lock(job->mu);
  job->all_done.wait(lock, [&] { return job->finished == shards; });
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace graphfn
