// Several threads using the intra-op pool at once, as Python threads calling eager kernels do:
// threaded GEMMs, element-wise shards and nested loops run concurrently with the
// tf.config.threading getters, and every result equals the one computed alone. Built with
// -fsanitize=thread, this is the ThreadSanitizer check of the pool (docs/fuzzing.md).
#include "harness.h"

#include <atomic>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "graphfn/core/thread_pool.h"
#include "graphfn/kernels/gemm.h"
#include "graphfn/kernels/parallel_loops.h"

namespace graphfn {
namespace {

std::vector<float> stress_values(int64_t count, int seed) {
  std::vector<float> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) v[i] = static_cast<float>(((i * 31 + seed * 7) % 23) - 11) / 16.0f;
  return v;
}

// One thread's work: a product split over the pool (odd sizes), a batch of small products
// spread over it, and an element-wise pass with a nested loop in each shard.
struct StressCase {
  int64_t m = 203, n = 97, k = 301;
  std::vector<float> a = stress_values(m * k, 1), b = stress_values(k * n, 2);
  int64_t batches = 37, bm = 9, bn = 11, bk = 13;
  std::vector<float> ba = stress_values(batches * bm * bk, 3), bb = stress_values(batches * bk * bn, 4);
  int64_t elements = 300007;
  std::vector<float> x = stress_values(elements, 5);

  std::vector<float> run() const {
    std::vector<float> out(static_cast<size_t>(m * n + batches * bm * bn + elements));
    gemm<float>(false, true, m, n, k, a.data(), k, b.data(), k, out.data(), n);  // b read as [n, k]
    gemm_batched<float>(batches, false, false, bm, bn, bk, ba.data(), nullptr, bb.data(), nullptr,
                        out.data() + m * n);
    float* y = out.data() + m * n + batches * bm * bn;
    parallel_elementwise(y, elements, 4096, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) y[i] = std::tanh(x[i]);
      parallel_for(end - begin, 1, [&](int64_t b0, int64_t b1) {  // nested: inline
        for (int64_t i = begin + b0; i < begin + b1; ++i) y[i] *= 2;
      });
    });
    return out;
  }
};

TEST_CASE("several threads share the pool with the threading getters; results equal the serial ones",
          "[core][thread_pool][stress]") {
  const StressCase work;
  const std::vector<float> expected = work.run();
  std::atomic<bool> stop{false};
  std::atomic<int64_t> getter_calls{0}, bad_getters{0};
  std::thread getters([&] {  // tf.config.threading's getters while kernels run
    while (!stop.load()) {
      const bool fine = parallel_threads() >= 1 && runtime_started() && inter_op_threads() >= 0 &&
                        !set_intra_op_threads(parallel_threads() + 1);
      if (!fine) ++bad_getters;  // (Catch2's assertions are not thread-safe)
      ++getter_calls;
    }
  });
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int round = 0; round < 5; ++round) {
        if (work.run() != expected) ++mismatches;
      }
    });
  }
  for (auto& t : threads) t.join();
  stop = true;
  getters.join();
  CHECK(mismatches.load() == 0);
  CHECK(getter_calls.load() > 0);
  CHECK(bad_getters.load() == 0);
}

TEST_CASE("a shard's exception reaches the caller after every shard ran, and the pool stays usable",
          "[core][thread_pool]") {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int64_t> covered{0};
    bool thrown = false;
    try {
      parallel_for(1000, 1, [&](int64_t begin, int64_t end) {
        covered += end - begin;
        if (begin == 0) throw std::bad_alloc();  // the first shard, on whichever thread claims it
      });
    } catch (const std::bad_alloc&) {
      thrown = true;
    }
    CHECK(thrown);
    CHECK(covered.load() == 1000);  // the other shards were not abandoned
  }
  // The calling thread is no longer marked as inside a shard: a new loop is split again.
  std::atomic<int> shards{0};
  parallel_for(1000, 1, [&](int64_t, int64_t) { ++shards; });
  CHECK(shards.load() == std::min(parallel_threads(), 1000));
}

}  // namespace
}  // namespace graphfn
