#include "graphfn/ir/graph_copy.h"

namespace graphfn {

Status copy_const(const Graph& graph, int id, Graph* out, Endpoint* copy) {
  const Node& node = graph.node(id);
  int new_id = -1;
  GRAPHFN_RETURN_IF_ERROR(out->add_const(*node.const_value(), node.name, &new_id));
  *copy = Endpoint{new_id, 0};
  return Status::OK();
}

Status copy_subgraph(const Graph& graph, int first, const std::vector<Endpoint>& roots, Graph* out,
                     EndpointMap* mapped, const ExternalFn& external, std::vector<Endpoint>* out_roots) {
  const int n = graph.num_nodes();
  // Nodes to copy: those from `first` on that the roots reach without going through a mapped one.
  std::vector<bool> copy(n, false);
  std::vector<int> stack;
  auto visit = [&](Endpoint e) {
    if (e.node >= first && !mapped->count(e)) stack.push_back(e.node);
  };
  for (const Endpoint& e : roots) visit(e);
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    if (copy[id]) continue;
    copy[id] = true;
    for (const Endpoint& in : graph.node(id).inputs) visit(in);
    for (int c : graph.node(id).control_inputs) {
      if (c >= first) stack.push_back(c);
    }
  }
  auto resolve = [&](Endpoint e, Endpoint* result) -> Status {
    auto it = mapped->find(e);
    if (it != mapped->end()) {
      *result = it->second;
      return Status::OK();
    }
    if (e.node >= first) {
      return errors::Internal("copy_subgraph: node ", graph.node(e.node).name, " was not copied");
    }
    GRAPHFN_RETURN_IF_ERROR(external(e, result));
    (*mapped)[e] = *result;
    return Status::OK();
  };
  std::vector<int> new_id(n, -1);
  for (int id = first; id < n; ++id) {
    if (!copy[id]) continue;
    const Node& node = graph.node(id);
    std::vector<Endpoint> inputs;
    inputs.reserve(node.inputs.size());
    for (const Endpoint& in : node.inputs) {
      Endpoint r;
      GRAPHFN_RETURN_IF_ERROR(resolve(in, &r));
      inputs.push_back(r);
    }
    GRAPHFN_RETURN_IF_ERROR(out->add_node(*node.op, node.name, inputs, node.attrs, &new_id[id]));
    out->mutable_node(new_id[id]).defined_at = node.defined_at;
    for (int c : node.control_inputs) {
      if (c >= first && new_id[c] >= 0) out->add_control_input(new_id[id], new_id[c]);
    }
    for (size_t k = 0; k < node.output_dtypes.size(); ++k) {
      (*mapped)[Endpoint{id, static_cast<int>(k)}] = Endpoint{new_id[id], static_cast<int>(k)};
    }
  }
  out_roots->clear();
  for (const Endpoint& e : roots) {
    Endpoint r;
    GRAPHFN_RETURN_IF_ERROR(resolve(e, &r));
    out_roots->push_back(r);
  }
  return Status::OK();
}

}  // namespace graphfn
