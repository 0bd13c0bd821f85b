#include "graphfn/kernels/random_streams.h"

#include <atomic>
#include <list>
#include <mutex>
#include <random>
#include <unordered_map>

namespace graphfn {
namespace {

struct StreamId {
  const OpDef* op;
  const void* node;     // the graph node, or null for eager calls (which share a stream)
  uint64_t scope;       // the dataset iterator's RandomStreamScope, or 0
  uint64_t type_attrs;  // the op's resolved type attrs, one byte each (ops have at most 8)
  int64_t seed;
  int64_t seed2;
  bool operator==(const StreamId& o) const {
    return op == o.op && node == o.node && scope == o.scope && type_attrs == o.type_attrs && seed == o.seed &&
           seed2 == o.seed2;
  }
};

struct StreamIdHash {
  size_t operator()(const StreamId& id) const {
    uint64_t h = reinterpret_cast<uintptr_t>(id.op) ^ (reinterpret_cast<uintptr_t>(id.node) << 1);
    for (uint64_t v : {id.scope, id.type_attrs, static_cast<uint64_t>(id.seed), static_cast<uint64_t>(id.seed2)}) {
      h = (h ^ v) * 0x9E3779B97F4A7C15ull;
      h ^= h >> 29;
    }
    return static_cast<size_t>(h);
  }
};

// LRU: most recently used at the front of `order`.
struct StreamTable {
  std::mutex mu;
  std::list<std::pair<StreamId, philox::Stream>> order;
  std::unordered_map<StreamId, decltype(order)::iterator, StreamIdHash> index;
};

StreamTable& table() {
  static StreamTable* t = new StreamTable();  // never destroyed: usable during static teardown
  return *t;
}

philox::Stream new_stream(int64_t seed, int64_t seed2) {
  philox::Stream s;
  if (seed == 0 && seed2 == 0) {
    std::random_device rd;
    s.key = {rd(), rd()};
    s.nonce = (uint64_t{rd()} << 32) | rd();
  } else {
    s.key = {static_cast<uint32_t>(seed), static_cast<uint32_t>(static_cast<uint64_t>(seed) >> 32)};
    s.nonce = static_cast<uint64_t>(seed2);
  }
  return s;
}

thread_local uint64_t current_scope = 0;
std::atomic<uint64_t> next_scope{1};

}  // namespace

uint64_t new_random_stream_scope() { return next_scope.fetch_add(1, std::memory_order_relaxed); }

RandomStreamScope::RandomStreamScope(uint64_t scope) : previous_(current_scope) { current_scope = scope; }
RandomStreamScope::~RandomStreamScope() { current_scope = previous_; }

philox::Stream reserve_random_blocks(const KernelContext& c, int64_t seed, int64_t seed2, uint64_t blocks) {
  StreamId id{&c.op, c.node, current_scope, 0, seed, seed2};
  for (size_t i = 0; i < c.op.type_attr_names.size() && i < 8; ++i) {
    id.type_attrs |= uint64_t{static_cast<uint8_t>(c.type_attrs[i])} << (8 * i);
  }
  StreamTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.index.find(id);
  if (it == t.index.end()) {
    if (t.order.size() >= kMaxRandomStreams) {
      t.index.erase(t.order.back().first);
      t.order.pop_back();
    }
    t.order.emplace_front(id, new_stream(seed, seed2));
    it = t.index.emplace(id, t.order.begin()).first;
  } else {
    t.order.splice(t.order.begin(), t.order, it->second);  // mark as most recently used
  }
  philox::Stream& stream = it->second->second;
  const philox::Stream reserved = stream;
  stream.first_block += blocks;
  return reserved;
}

void reset_random_streams() {
  StreamTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.index.clear();
  t.order.clear();
}

size_t num_random_streams() {
  StreamTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.order.size();
}

}  // namespace graphfn
