// RecordingTape: what every tape on a thread's stack of recording tapes (autodiff/tape.h) shares,
// the eager Tape (autodiff/tape.h) and the GraphTape of a function being traced (autodiff/graph_tape.h):
// its kind, TF's watch_accessed_variables, and the variables it watches (tf.GradientTape's
// watched_variables()). Header-only: both kinds of tape include it.
#pragma once
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

// What identifies a watched variable: its resource, or, for a variable passed as an argument to a
// function being traced, the graph's resource placeholder that stands for it.
struct VariableKey {
  const void* resource = nullptr;  // the resource; for a placeholder, the graph holding it
  Endpoint placeholder{-1, 0};
  bool operator==(const VariableKey& o) const { return resource == o.resource && placeholder == o.placeholder; }
};

struct WatchedVariable {
  VariableKey key;
  int64_t order = 0;                   // the variable's creation number: TF lists them in that order
  std::shared_ptr<const void> owner;  // the caller's variable object (Python's Variable), opaque here
};

class RecordingTape {
 public:
  enum class Kind { kEager, kGraph };
  virtual ~RecordingTape() = default;

  Kind kind() const { return kind_; }
  bool watch_accessed_variables() const { return watch_accessed_variables_; }

  // Called when the tape is pushed on / popped off the stack of recording tapes: a GraphTape
  // remembers which nodes were added meanwhile; an eager tape is recorded into by dispatch.
  virtual void start() {}
  virtual void stop() {}

  bool watches_variable(const VariableKey& key) const {
    for (const WatchedVariable& v : watched_variables_) {
      if (v.key == key) return true;
    }
    return false;
  }
  // Remembers a watched variable once (by key), kept in creation order; false if already there.
  bool add_watched_variable(const VariableKey& key, int64_t order, std::shared_ptr<const void> owner) {
    if (watches_variable(key)) return false;
    auto at = watched_variables_.end();
    while (at != watched_variables_.begin() && std::prev(at)->order > order) --at;
    watched_variables_.insert(at, WatchedVariable{key, order, std::move(owner)});
    return true;
  }
  const std::vector<WatchedVariable>& watched_variables() const { return watched_variables_; }

 protected:
  RecordingTape(Kind kind, bool watch_accessed_variables)
      : kind_(kind), watch_accessed_variables_(watch_accessed_variables) {}

 private:
  Kind kind_;
  bool watch_accessed_variables_;
  std::vector<WatchedVariable> watched_variables_;
};

}  // namespace graphfn
