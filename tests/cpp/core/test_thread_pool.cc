// parallel_for: shards cover the range exactly once, small ranges stay on the caller, nested
// calls run inline, and several threads may call at once.
#include "harness.h"

#include <atomic>
#include <thread>
#include <vector>

#include "graphfn/core/thread_pool.h"

namespace graphfn {
namespace {

TEST_CASE("parallel_for covers [0, n) exactly once in contiguous shards", "[core][thread_pool]") {
  for (int64_t n : {0, 1, 7, 100, 1001}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> shards{0};
    parallel_for(n, 3, [&](int64_t begin, int64_t end) {
      CHECK(begin < end);
      CHECK(end - begin >= 3 - (n < 3 ? 3 : 0));
      ++shards;
      for (int64_t i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
    });
    for (auto& h : hits) CHECK(h.load() == 1);
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

}  // namespace
}  // namespace graphfn
