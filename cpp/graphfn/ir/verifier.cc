#include "graphfn/ir/verifier.h"

#include "graphfn/ir/type_check.h"

namespace graphfn {
namespace {

Status broken(const Node& node, const std::string& what) {
  return errors::Internal("invalid graph: node '", node.name, "' (", node.op ? node.op->name : "?", ") ", what);
}

bool valid_endpoint(const Graph& graph, Endpoint e, int before) {
  return e.node >= 0 && e.node < before && e.index >= 0 &&
         e.index < static_cast<int>(graph.node(e.node).output_dtypes.size());
}

Status verify_node(const Graph& graph, const Node& node) {
  if (!node.op) return broken(node, "has no op");
  if (node.output_dtypes.size() != node.output_shapes.size()) return broken(node, "has mismatched output lists");
  const int n = static_cast<int>(node.inputs.size());
  std::vector<DType> dtypes(n);
  for (int i = 0; i < n; ++i) {
    if (!valid_endpoint(graph, node.inputs[i], node.id)) {
      return broken(node, "input " + std::to_string(i) + " is not an earlier output");
    }
    dtypes[i] = graph.dtype(node.inputs[i]);
  }
  for (int c : node.control_inputs) {
    if (c < 0 || c >= node.id) return broken(node, "has a control input that is not an earlier node");
  }
  Status s = check_input_count(*node.op, n);
  DType type_attrs[kMaxTypeAttrs];
  if (s.ok()) s = resolve_type_attrs(*node.op, dtypes.data(), n, node.attrs, type_attrs);
  if (!s.ok()) return broken(node, "has inputs its op rejects: " + s.message());
  if (node.type_attrs.size() != node.op->type_attr_names.size()) {
    return broken(node, "has the wrong number of type attrs");
  }
  for (size_t t = 0; t < node.type_attrs.size(); ++t) {
    if (node.type_attrs[t] != type_attrs[t]) {
      return broken(node, "has type attr " + node.op->type_attr_names[t] + " unlike its inputs");
    }
  }
  Status sub;
  for (const auto& item : node.attrs.items()) {
    for_each_func(item.second, [&](const FuncAttr& f) {
      if (!sub.ok()) return;
      if (!f.graph) {
        sub = broken(node, "has a function attr without a graph");
        return;
      }
      sub = verify_graph(*f.graph);
      if (!sub.ok()) sub = broken(node, "has an invalid function " + f.name + ": " + sub.message());
    });
  }
  GRAPHFN_RETURN_IF_ERROR(sub);
  if (const Tensor* value = node.const_value()) {
    if (node.output_dtypes.size() != 1 || node.output_dtypes[0] != value->dtype() ||
        node.output_shapes[0] != value->shape()) {
      return broken(node, "is a Const whose output differs from its value");
    }
  }
  return Status::OK();
}

}  // namespace

Status verify_graph(const Graph& graph) {
  for (int id = 0; id < graph.num_nodes(); ++id) {
    const Node& node = graph.node(id);
    if (node.id != id) return broken(node, "has id " + std::to_string(node.id) + " at position " + std::to_string(id));
    GRAPHFN_RETURN_IF_ERROR(verify_node(graph, node));
  }
  for (int arg : graph.arguments) {
    if (arg < 0 || arg >= graph.num_nodes() || graph.node(arg).output_dtypes.size() != 1) {
      return errors::Internal("invalid graph: argument ", arg, " is not a single-output node");
    }
  }
  for (const Endpoint& e : graph.results) {
    if (!valid_endpoint(graph, e, graph.num_nodes())) {
      return errors::Internal("invalid graph: a result refers to no output");
    }
  }
  return Status::OK();
}

}  // namespace graphfn
