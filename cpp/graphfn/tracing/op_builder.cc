#include "graphfn/tracing/op_builder.h"

#include "graphfn/ir/inline.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/graph_trace.h"

namespace graphfn {
namespace {

const std::string& name_scope_of(const Graph& graph) {
  static const std::string none;
  const GraphTrace* trace = find_trace(graph);
  return trace ? trace->name_scope : none;
}

Status capture_operand(Graph& graph, const Operand& operand, Endpoint* out) {
  GRAPHFN_RETURN_IF_ERROR(capture(graph, operand.graph, operand.endpoint, out));
  if (out->node < 0) return Status(Code::kInvalidArgument, "a tensor of a graph that does not enclose this one");
  return Status::OK();
}

}  // namespace

std::string reserve_op_name(Graph& graph, const std::string& hint) {
  if (!hint.empty() && hint.back() == '/') return hint.substr(0, hint.size() - 1);
  return graph.unique_name(name_scope_of(graph) + hint);
}

bool captures_resource_handles(const Graph& graph) { return enclosing_graph(graph) != nullptr; }

Status add_constant(Graph& graph, const Tensor& value, const std::string& name,
                    const std::shared_ptr<const SourceStack>& defined_at, int* id) {
  GRAPHFN_RETURN_IF_ERROR(graph.add_const(value, name, id));
  graph.mutable_node(*id).defined_at = defined_at;
  return Status::OK();
}

Status add_operand(Graph& graph, const OpDef& op, const std::string& name, const Operand& operand,
                   const std::shared_ptr<const SourceStack>& defined_at, Endpoint* out) {
  if (operand.graph) return capture_operand(graph, operand, out);
  if (operand.input < 0 || operand.input >= static_cast<int>(op.inputs.size())) {
    return Status(Code::kInvalidArgument, op.name + " has no input " + std::to_string(operand.input));
  }
  const std::string const_name = name + "/" + op.inputs[operand.input].name +
                                 (operand.position >= 0 ? "_" + std::to_string(operand.position) : "");
  if (operand.constant.dtype() == DType::kResource && captures_resource_handles(graph)) {
    return capture_resource(graph, operand.constant, const_name, out);
  }
  if (const uint64_t id = operand.constant.id_if_any()) {
    // Watched here or in a graph enclosing this branch or loop body: that Const (captured).
    for (Graph* g = &graph; g; g = enclosing_graph(*g)) {
      const GraphTrace* trace = find_trace(*g);
      if (!trace) break;
      auto it = trace->watched_eager_tensors.find(id);
      if (it != trace->watched_eager_tensors.end()) return capture(graph, g, it->second, out);
    }
  }
  *out = Endpoint{-1, 0};
  return add_constant(graph, operand.constant, const_name, defined_at, &out->node);
}

Status watched_eager_tensor(Graph& graph, const Tensor& value, bool create, Endpoint* out) {
  *out = Endpoint{-1, 0};
  const uint64_t id = create ? value.id() : value.id_if_any();
  if (id == 0) return Status::OK();
  GraphTrace& trace = trace_of(graph);
  auto it = trace.watched_eager_tensors.find(id);
  if (it != trace.watched_eager_tensors.end()) {
    *out = it->second;
    return Status::OK();
  }
  if (!create) return Status::OK();
  int node = -1;
  GRAPHFN_RETURN_IF_ERROR(add_constant(graph, value, trace.name_scope + "Const", nullptr, &node));
  *out = Endpoint{node, 0};
  trace.watched_eager_tensors.emplace(id, *out);
  return Status::OK();
}

Status add_op_node(Graph& graph, const OpDef& op, const std::string& name, const std::vector<Endpoint>& inputs,
                   const AttrMap& attrs, const std::shared_ptr<const SourceStack>& defined_at, int* id,
                   Graph::Failure* failure) {
  GRAPHFN_RETURN_IF_ERROR(graph.add_node(op, name, inputs, attrs, id, /*name_reserved=*/true, failure));
  graph.mutable_node(*id).defined_at = defined_at;
  return Status::OK();
}

Status add_argument(Graph& graph, DType dtype, const Shape& shape, const std::string& name, const Shape* handle_shape,
                    const std::shared_ptr<const SourceStack>& defined_at, int* id) {
  GRAPHFN_RETURN_IF_ERROR(graph.add_placeholder(dtype, shape, name, id));
  Node& node = graph.mutable_node(*id);
  if (handle_shape) node.attrs.set("_handle_shape", *handle_shape);
  node.attrs.set("_user_specified_name", name);
  node.defined_at = defined_at;
  graph.arguments.push_back(*id);
  return Status::OK();
}

Status inline_call(Graph& graph, const Graph& fn, const std::vector<Operand>& inputs, const std::string& name,
                   std::vector<Endpoint>* outputs) {
  const std::string& scope = name_scope_of(graph);
  std::vector<Endpoint> endpoints;
  for (const Operand& operand : inputs) {
    Endpoint e;
    if (operand.graph) {
      GRAPHFN_RETURN_IF_ERROR(capture_operand(graph, operand, &e));
    } else {
      GRAPHFN_RETURN_IF_ERROR(graph.add_const(operand.constant, scope + "Const", &e.node));
    }
    endpoints.push_back(e);
  }
  return inline_graph(graph, fn, endpoints, graph.unique_name(scope + name) + "/", outputs);
}

}  // namespace graphfn
