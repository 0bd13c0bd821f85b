// Where each random op call reads its bits: the eager analogue of TF's per-kernel Philox state.
//
// Seed state is split between the two languages:
//  - Python (graphfn/framework/random_seed.py) owns the global seed and the op-seed counter and
//    turns them into the (seed, seed2) attrs, like TF's eager context.
//  - C++ (here) owns one stream position per (op, type attrs, seed, seed2), like TF's cached
//    kernels: calling the same op with the same attrs again continues the stream (fresh samples),
//    and reset_random_streams() (run by tf.random.set_seed) rewinds them all, so re-running a
//    sequence after set_seed reproduces it. (seed, seed2) = (0, 0) means "unseeded": that stream
//    gets a key from std::random_device when first used after a reset.
// The table is an LRU cache bounded at kMaxRandomStreams entries, so loops that use a new op seed
// per call (global seed set, op seed not) do not grow memory without bound.
// In graphs the key also holds the node (KernelContext::node), so each random node has its own
// stream, as each TF graph node has its own kernel: two nodes with the same seeds give equal
// values within one call, and both advance from call to call.
#pragma once
#include <cstdint>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/philox.h"

namespace graphfn {

constexpr size_t kMaxRandomStreams = size_t{1} << 16;

// Reserves `blocks` Philox blocks from the stream of this call's op, type attrs and (seed, seed2),
// and returns a Stream whose block(0) is the first reserved one.
philox::Stream reserve_random_blocks(const KernelContext& c, int64_t seed, int64_t seed2, uint64_t blocks);

// Random ops run by a function that a dataset iterator calls draw from streams of that iterator:
// TF instantiates the function's kernels per iterator, so a seeded random op in `map` gives the
// same values on every pass over the dataset. An iterator takes a scope number once
// (new_random_stream_scope) and opens a RandomStreamScope on the calling thread around each call;
// outside one, the scope is 0 (eager ops and ordinary function calls).
uint64_t new_random_stream_scope();
class RandomStreamScope {
 public:
  explicit RandomStreamScope(uint64_t scope);
  ~RandomStreamScope();
  RandomStreamScope(const RandomStreamScope&) = delete;
  RandomStreamScope& operator=(const RandomStreamScope&) = delete;

 private:
  uint64_t previous_;
};

// Forgets every stream position (tf.random.set_seed).
void reset_random_streams();
// Number of streams currently tracked (tests).
size_t num_random_streams();

}  // namespace graphfn
