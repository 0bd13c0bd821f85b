// parallel_for: shards cover the range exactly once, small ranges stay on the caller, nested
// calls run inline, and several threads may call at once.
#include "harness.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

TEST_CASE("parallel_for covers [0, n) exactly once in contiguous shards", "[core][thread_pool]") {
  for (int64_t n : {0, 1, 7, 100, 1001}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> shards{0}, bad_shards{0};
    parallel_for(n, 3, [&](int64_t begin, int64_t end) {
      // (Catch2's assertions are not thread-safe: shards on workers only count.)
      if (begin >= end || end - begin < 3 - (n < 3 ? 3 : 0)) ++bad_shards;
      ++shards;
      for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
    });
    for (auto& h : hits) CHECK(h.load() == 1);
    CHECK(bad_shards.load() == 0);
    CHECK(shards.load() <= parallel_threads());
  }
}

TEST_CASE("parallel_for keeps a range below the minimum shard on the calling thread", "[core][thread_pool]") {
  const std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  parallel_for(10, 100, [&](int64_t begin, int64_t end) {
    CHECK(std::this_thread::get_id() == caller);
    CHECK(begin == 0);
    CHECK(end == 10);
    ++calls;
  });
  CHECK(calls == 1);
}

TEST_CASE("parallel_for nested inside a shard and from several threads completes", "[core][thread_pool]") {
  std::atomic<int64_t> total{0};
  auto work = [&] {
    parallel_for(64, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t i = b0; i < b1; ++i) {
        parallel_for(16, 1, [&](int64_t c0, int64_t c1) { total += c1 - c0; });
      }
    });
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  CHECK(total.load() == 4 * 64 * 16);
}


TEST_CASE("a nested parallel_for runs inline on the shard's own thread", "[core][thread_pool]") {
  std::atomic<int> mismatches{0};
  parallel_for(8, 1, [&](int64_t, int64_t) {
    const std::thread::id outer = std::this_thread::get_id();
    int inner_calls = 0;
    parallel_for(1000, 1, [&](int64_t begin, int64_t end) {
      if (std::this_thread::get_id() != outer || begin != 0 || end != 1000) ++mismatches;
      ++inner_calls;
    });
    if (inner_calls != 1) ++mismatches;
  });
  CHECK(mismatches.load() == 0);
}

TEST_CASE("parallel_for_if_large runs a small range directly", "[core][thread_pool]") {
  const std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  parallel_for_if_large(99, 50, [&](int64_t begin, int64_t end) {
    CHECK(std::this_thread::get_id() == caller);
    CHECK(begin == 0);
    CHECK(end == 99);
    ++calls;
  });
  CHECK(calls == 1);
}

TEST_CASE("parallel_for_blocks splits only at multiples of the block", "[core][thread_pool]") {
  for (int64_t n : {1, 7, 64, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::mutex mu;
    std::set<int64_t> begins;
    std::atomic<int> past_end{0};
    parallel_for_blocks(n, 100, 16, [&](int64_t begin, int64_t end) {
      {
        std::lock_guard<std::mutex> lock(mu);
        begins.insert(begin);
      }
      if (end > n) ++past_end;
      for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
    });
    for (auto& h : hits) CHECK(h.load() == 1);
    CHECK(past_end.load() == 0);
    for (int64_t b : begins) CHECK(b % 16 == 0);
  }
}

TEST_CASE("parallel_elementwise starts every later shard on a 64-byte boundary of the output", "[core][thread_pool]") {
  std::vector<float> storage(200000);
  for (int offset : {0, 1, 3, 15}) {
    const float* out = storage.data() + offset;
    const int64_t n = 100003;
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> misaligned{0};
    parallel_elementwise(out, n, 1000, [&](int64_t begin, int64_t end) {
      if (begin != 0 && reinterpret_cast<uintptr_t>(out + begin) % 64 != 0) ++misaligned;
      for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
    });
    for (auto& h : hits) CHECK(h.load() == 1);
    CHECK(misaligned.load() == 0);
  }
}

TEST_CASE("thread counts are fixed once the pool is in use", "[core][thread_pool]") {
  const int threads = parallel_threads();  // fixes the pool size
  CHECK(threads >= 1);
  CHECK(runtime_started());
  CHECK_FALSE(set_intra_op_threads(threads + 1));
  CHECK_FALSE(set_inter_op_threads(7));
  CHECK(parallel_threads() == threads);
}

}  // namespace
}  // namespace graphfn
