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

// The variables a subgraph's nodes use through captured handles (resource Consts), at any depth.
void subgraph_resources(const Graph& graph, std::vector<const void*>* out) {
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Tensor* value = graph.node(id).const_value();
    if (value && value->dtype() == DType::kResource) out->push_back(value->data<ResourceHandle>()->get());
  }
  graph.for_each_subgraph([&](const Node&, const FuncAttr& f) { subgraph_resources(*f.graph, out); });
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
    const OpDef* op = node.op;  // `node` may be copied (on write) once control inputs are added
    OpDef::ResourceAccess access = op->resource_access;
    std::vector<const void*> keys;
    // A stateful If/While may write any resource it is given or its subgraphs capture.
    if (op->control_flow != OpDef::ControlFlow::kNone && op->stateful) {
      access = OpDef::ResourceAccess::kWrite;
      for (const auto& item : node.attrs.items()) {
        for_each_func(item.second, [&](const FuncAttr& f) { subgraph_resources(*f.graph, &keys); });
      }
    }
    for (const Endpoint& in : node.inputs) {
      if (graph.dtype(in) == DType::kResource && access != OpDef::ResourceAccess::kNone) {
        keys.push_back(resource_key(graph, in));
      }
    }
    for (const void* key : keys) {
      ResourceState& state = resources[key];
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
    // Stateful ops without resources run in program order; so do stateful If/While nodes, whose
    // subgraphs may also print or assert.
    if (op->stateful && (keys.empty() || op->control_flow != OpDef::ControlFlow::kNone)) {
      if (last_stateful >= 0) graph.add_control_input(id, last_stateful);
      last_stateful = id;
    }
  }
}

}  // namespace graphfn
