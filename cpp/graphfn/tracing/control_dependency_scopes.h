// tf.control_dependencies while tracing (TF's controller stack), for one graph. A node added
// inside open blocks gets their inputs as control inputs, except from a block that one of its
// data inputs was made in (that input already depends on them) and except its own data inputs.
// A block opened with `clear` (control_dependencies(None)) hides the blocks around it until it
// is closed.
#pragma once
#include <unordered_set>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

class ControlDependencyScopes {
 public:
  // Opens a block whose nodes wait for `inputs` (node ids of the graph); an input an active block
  // already has is not repeated.
  void push(const std::vector<int>& inputs, bool clear);
  // Closes the innermost block (nothing when none is open).
  void pop();
  bool empty() const { return blocks_.empty(); }
  // Gives a node being added the control inputs of the active blocks, and remembers it was made
  // in each of them.
  void apply(Node& node);

 private:
  struct Block {
    std::vector<int> inputs;
    bool clear = false;
    std::unordered_set<int> made_here;  // nodes added while this block was open and active
  };
  std::vector<Block> blocks_;
};

}  // namespace graphfn
