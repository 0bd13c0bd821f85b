#include "graphfn/passes/auto_control_deps.h"

#include <map>

#include "graphfn/core/resource.h"

namespace graphfn {
namespace {

// Which resource an input refers to: the captured handle's state (for a Const of dtype
// resource) or the node that feeds it (a Placeholder argument).
const void* resource_key(const Graph& graph, Endpoint e) {
  const Node& src = graph.node(e.node);
  if (const Tensor* value = src.const_value()) {
    if (value->dtype() == DType::kResource) return value->data<ResourceHandle>()->get();
  }
  return &src;
}

struct ResourceState {
  int last_write = -1;
  std::vector<int> reads_since_write;
};

}  // namespace

void add_auto_control_deps(Graph& graph) {
  std::map<const void*, ResourceState> resources;
  int last_stateful = -1;  // the chain of stateful ops without resources
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    const OpDef::ResourceAccess access = node.op->resource_access;
    bool touches_resource = false;
    for (const Endpoint& in : node.inputs) {
      if (graph.dtype(in) != DType::kResource || access == OpDef::ResourceAccess::kNone) continue;
      touches_resource = true;
      ResourceState& state = resources[resource_key(graph, in)];
      if (state.last_write >= 0 && state.last_write != id) graph.add_control_input(id, state.last_write);
      if (access == OpDef::ResourceAccess::kRead) {
        state.reads_since_write.push_back(id);
      } else {
        for (int r : state.reads_since_write) {
          if (r != id) graph.add_control_input(id, r);
        }
        state.reads_since_write.clear();
        state.last_write = id;
      }
    }
    if (node.op->stateful && !touches_resource) {
      if (last_stateful >= 0) graph.add_control_input(id, last_stateful);
      last_stateful = id;
    }
  }
}

}  // namespace graphfn
