#include "graphfn/runtime/session_plan.h"

#include "graphfn/ir/graph_copy.h"

namespace graphfn {
namespace {

bool valid(const Graph& graph, const Endpoint& e) {
  return e.node >= 0 && e.node < graph.num_nodes() && e.index >= 0 &&
         e.index < static_cast<int>(graph.node(e.node).output_dtypes.size());
}

// The nodes to run: reached from the roots through data and control inputs, stopping at fed
// tensors.
std::vector<bool> nodes_to_run(const Graph& graph, const EndpointMap& fed, const std::vector<Endpoint>& fetches,
                               const std::vector<int>& targets) {
  std::vector<bool> run(graph.num_nodes(), false);
  std::vector<int> stack(targets);
  for (const Endpoint& e : fetches) {
    if (!fed.count(e)) stack.push_back(e.node);
  }
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (run[id]) continue;
    run[id] = true;
    const Node& node = graph.node(id);
    for (const Endpoint& in : node.inputs) {
      if (!fed.count(in)) stack.push_back(in.node);
    }
    for (int c : node.control_inputs) stack.push_back(c);
  }
  return run;
}

Status unfed_placeholder(const Node& node) {
  const Shape& shape = node.output_shapes[0];
  return errors::InvalidArgument("You must feed a value for placeholder tensor '", node.name, "' with dtype ",
                                 dtype_tf_string(node.output_dtypes[0]),
                                 shape.known_rank() && shape.rank() > 0 ? " and shape " + shape.to_string() : std::string());
}

}  // namespace

Status build_session_plan(const Graph& graph, const std::vector<Endpoint>& feeds,
                          const std::vector<Endpoint>& fetches, const std::vector<int>& targets,
                          std::shared_ptr<const Plan>* out) {
  for (const Endpoint& e : feeds) {
    if (!valid(graph, e)) return errors::InvalidArgument("session: a fed tensor is not in the graph");
  }
  for (const Endpoint& e : fetches) {
    if (!valid(graph, e)) return errors::InvalidArgument("session: a fetched tensor is not in the graph");
  }
  for (int id : targets) {
    if (id < 0 || id >= graph.num_nodes()) return errors::InvalidArgument("session: a target is not in the graph");
  }
  EndpointMap fed;
  for (const Endpoint& e : feeds) fed.emplace(e, Endpoint{});
  if (fed.size() != feeds.size()) return errors::InvalidArgument("session: a tensor is fed twice");
  const std::vector<bool> run = nodes_to_run(graph, fed, fetches, targets);

  Graph pruned;
  // Each fed tensor becomes a placeholder, named as its node when that node does not run.
  for (const Endpoint& e : feeds) {
    const Node& node = graph.node(e.node);
    const std::string name = run[e.node] || e.index > 0 ? node.name + "/fed_" + std::to_string(e.index) : node.name;
    int id = -1;
    GRAPHFN_RETURN_IF_ERROR(pruned.add_placeholder(graph.dtype(e), graph.shape(e), name, &id));
    pruned.arguments.push_back(id);
    fed[e] = Endpoint{id, 0};
  }
  // The nodes that run, in creation order (a topological order), keeping names and control edges.
  std::vector<int> copy_of(graph.num_nodes(), -1);
  for (int i = 0; i < graph.num_nodes(); ++i) {
    if (!run[i]) continue;
    const Node& node = graph.node(i);
    if (node.op->name == "Placeholder") return unfed_placeholder(node);
    std::vector<Endpoint> inputs;
    for (const Endpoint& in : node.inputs) {
      auto it = fed.find(in);
      inputs.push_back(it != fed.end() ? it->second : Endpoint{copy_of[in.node], in.index});
    }
    GRAPHFN_RETURN_IF_ERROR(pruned.add_node(*node.op, node.name, inputs, node.attrs, &copy_of[i]));
    pruned.mutable_node(copy_of[i]).defined_at = node.defined_at;
    for (int c : node.control_inputs) pruned.add_control_input(copy_of[i], copy_of[c]);
  }
  for (const Endpoint& e : fetches) {
    auto it = fed.find(e);
    pruned.results.push_back(it != fed.end() ? it->second : Endpoint{copy_of[e.node], e.index});
  }
  return Plan::build(pruned, pruned.arguments, pruned.results, out, "session");
}

}  // namespace graphfn
