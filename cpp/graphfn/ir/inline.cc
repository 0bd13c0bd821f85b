#include "graphfn/ir/inline.h"

namespace graphfn {

Status inline_graph(Graph& dst, const Graph& fn, const std::vector<Endpoint>& inputs, const std::string& scope,
                    std::vector<Endpoint>* outputs) {
  if (inputs.size() != fn.arguments.size()) {
    return errors::InvalidArgument("the function takes ", fn.arguments.size(), " inputs, got ", inputs.size());
  }
  std::vector<int> argument(fn.num_nodes(), -1);
  for (size_t i = 0; i < fn.arguments.size(); ++i) argument[fn.arguments[i]] = static_cast<int>(i);
  std::vector<int> copy(fn.num_nodes(), -1);
  auto remap = [&](Endpoint e) { return argument[e.node] >= 0 ? inputs[argument[e.node]] : Endpoint{copy[e.node], e.index}; };
  for (int i = 0; i < fn.num_nodes(); ++i) {
    if (argument[i] >= 0) continue;
    const Node& node = fn.node(i);
    std::vector<Endpoint> node_inputs;
    for (const Endpoint& e : node.inputs) node_inputs.push_back(remap(e));
    GRAPHFN_RETURN_IF_ERROR(dst.add_node(*node.op, dst.unique_name(scope + node.name), node_inputs, node.attrs,
                                         &copy[i], /*name_reserved=*/true));
    dst.mutable_node(copy[i]).defined_at = node.defined_at;  // errors show where the callee made it
    for (int c : node.control_inputs) dst.add_control_input(copy[i], argument[c] >= 0 ? inputs[argument[c]].node : copy[c]);
  }
  outputs->clear();
  for (const Endpoint& e : fn.results) outputs->push_back(remap(e));
  return Status::OK();
}

}  // namespace graphfn
