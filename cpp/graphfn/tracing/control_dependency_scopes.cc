#include "graphfn/tracing/control_dependency_scopes.h"

#include <algorithm>
#include <iterator>

namespace graphfn {
namespace {

// The innermost blocks that apply: those after the last clearing one (which applies itself).
template <typename Blocks>
auto active_begin(Blocks& blocks) {
  auto it = blocks.end();
  while (it != blocks.begin() && !std::prev(it)->clear) --it;
  return it == blocks.begin() ? it : std::prev(it);
}

bool contains(const std::vector<int>& ids, int id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); }

}  // namespace

void ControlDependencyScopes::push(const std::vector<int>& inputs, bool clear) {
  Block block;
  block.clear = clear;
  for (int c : inputs) {
    bool known = contains(block.inputs, c);
    if (!clear) {
      for (auto it = active_begin(blocks_); it != blocks_.end() && !known; ++it) known = contains(it->inputs, c);
    }
    if (!known) block.inputs.push_back(c);
  }
  blocks_.push_back(std::move(block));
}

void ControlDependencyScopes::pop() {
  if (!blocks_.empty()) blocks_.pop_back();
}

void ControlDependencyScopes::apply(Node& node) {
  for (auto it = active_begin(blocks_); it != blocks_.end(); ++it) {
    bool dominated = false;
    for (const Endpoint& in : node.inputs) dominated = dominated || it->made_here.count(in.node) > 0;
    if (!dominated) {
      for (int c : it->inputs) {
        const bool is_input = std::any_of(node.inputs.begin(), node.inputs.end(),
                                          [c](const Endpoint& in) { return in.node == c; });
        if (!is_input && !contains(node.control_inputs, c)) node.control_inputs.push_back(c);
      }
    }
    it->made_here.insert(node.id);
  }
}

}  // namespace graphfn
