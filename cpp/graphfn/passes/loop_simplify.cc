#include "graphfn/passes/loop_simplify.h"

namespace graphfn {
namespace {

// Which outputs of node `id` the graph reads (as inputs, control inputs or results).
std::vector<bool> used_outputs(const Graph& graph, int id) {
  std::vector<bool> used(graph.node(id).output_dtypes.size(), false);
  bool control = false;
  for (int i = id + 1; i < graph.num_nodes(); ++i) {
    for (const Endpoint& in : graph.node(i).inputs) {
      if (in.node == id) used[in.index] = true;
    }
    for (int c : graph.node(i).control_inputs) control = control || c == id;
  }
  for (const Endpoint& e : graph.results) {
    if (e.node == id) used[e.index] = true;
  }
  if (control) used.assign(used.size(), true);  // a control edge waits for the whole loop
  return used;
}

}  // namespace

bool prune_dead_loop_variables(Graph& graph) {
  bool changed = false;
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    if (node.op->control_flow != OpDef::ControlFlow::kWhile) continue;
    const FuncAttr* cond = node.attrs.get_func("cond");
    const FuncAttr* body = node.attrs.get_func("body");
    if (!cond || !body) continue;
    const Graph& b = *body->graph;
    const int n = static_cast<int>(b.arguments.size());
    if (static_cast<int>(b.results.size()) != n) continue;
    const std::vector<bool> used = used_outputs(graph, id);
    const std::vector<bool> cond_needs = needed_nodes(*cond->graph, cond->graph->results);
    std::vector<int> dead;
    for (int k = 0; k < n; ++k) {
      const Endpoint passthrough{b.arguments[k], 0};
      if (used[k] || b.results[k] == passthrough || cond_needs[cond->graph->arguments[k]]) continue;
      std::vector<Endpoint> others;
      for (int j = 0; j < n; ++j) {
        if (j != k) others.push_back(b.results[j]);
      }
      if (!needed_nodes(b, others)[b.arguments[k]]) dead.push_back(k);
    }
    if (dead.empty()) continue;
    std::unique_ptr<Graph> pruned = b.clone();
    for (int k : dead) pruned->results[k] = Endpoint{pruned->arguments[k], 0};
    graph.mutable_node(id).attrs.set("body", FuncAttr{body->name, std::move(pruned)});
    changed = true;
  }
  return changed;
}

}  // namespace graphfn
