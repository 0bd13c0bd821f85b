#include "graphfn/passes/auto_control_deps.h"

#include <algorithm>
#include <map>
#include <string>

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

namespace {

// TF leaves these out of the ops that must run: variable initializers may use them outside of
// program order (an unused tf.random.uniform is pruned).
bool is_legacy_random(const std::string& op) {
  static const char* const kOps[] = {"RandomUniform", "RandomUniformInt", "RandomStandardNormal",
                                     "TruncatedNormal", "RandomShuffle", "Multinomial", "RandomGamma",
                                     "RandomPoisson", "RandomPoissonV2", "ParameterizedTruncatedNormal"};
  return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* name) { return op == name; });
}

}  // namespace

int add_control_output_node(Graph& graph, const std::vector<Endpoint>& returned, const std::string& name_scope) {
  std::vector<bool> consumed(graph.num_nodes(), false);
  for (const Endpoint& r : returned) consumed[r.node] = true;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    for (const Endpoint& in : graph.node(id).inputs) consumed[in.node] = true;
  }
  std::vector<int> must_run;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const OpDef& op = *graph.node(id).op;
    const bool touches_resource = op.resource_access != OpDef::ResourceAccess::kNone;
    if (!op.stateful && !touches_resource) continue;
    if (is_legacy_random(op.name)) continue;
    if (op.resource_access == OpDef::ResourceAccess::kRead && !op.stateful && !consumed[id]) continue;
    must_run.push_back(id);
  }
  if (must_run.empty()) return -1;
  int no_op = -1;
  if (!graph.add_node("NoOp", name_scope + "NoOp", {}, AttrMap(), &no_op).ok()) return -1;
  for (int id : must_run) graph.add_control_input(no_op, id);
  return no_op;
}

}  // namespace graphfn
