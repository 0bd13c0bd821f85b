#include "graphfn/ir/verifier.h"

#include "graphfn/core/resource.h"
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

// ---- control flow: the subgraphs take and return what the plan feeds and expects ----

// The variable shape a resource tensor is known to have: a captured variable's, or what a
// placeholder's "_handle_shape" claims; unknown otherwise.
Shape handle_shape(const Graph& graph, Endpoint e) {
  const Node& src = graph.node(e.node);
  if (const Tensor* value = src.const_value()) {
    if (value->dtype() == DType::kResource && value->num_elements() == 1) {
      auto var = std::dynamic_pointer_cast<VariableResource>(*value->data<ResourceHandle>());
      if (var) return var->shape();
    }
  }
  const AttrValue* claimed = src.attrs.find("_handle_shape");
  return claimed && std::holds_alternative<Shape>(*claimed) ? std::get<Shape>(*claimed) : Shape::unknown_rank();
}

// `f` is fed `inputs` of `graph`: as many arguments, same dtypes, shapes at least as general.
std::string check_arguments(const Graph& graph, const std::vector<Endpoint>& inputs, const Graph& f) {
  if (f.arguments.size() != inputs.size()) {
    return "it takes " + std::to_string(f.arguments.size()) + " arguments but is fed " + std::to_string(inputs.size());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Endpoint arg{f.arguments[i], 0};
    const std::string which = "argument " + std::to_string(i) + " ";
    if (f.dtype(arg) != graph.dtype(inputs[i])) return which + "has the wrong dtype";
    if (!covers(f.shape(arg), graph.shape(inputs[i]))) return which + "has a shape its input need not have";
    if (f.dtype(arg) == DType::kResource && !covers(handle_shape(f, arg), handle_shape(graph, inputs[i]))) {
      return which + "claims a variable shape its input need not have";
    }
  }
  return "";
}

// `f`'s results become tensors of the given dtypes and (at least as general) shapes.
std::string check_results(const Graph& f, const std::vector<DType>& dtypes, const std::vector<Shape>& shapes) {
  if (f.results.size() != dtypes.size()) {
    return "it returns " + std::to_string(f.results.size()) + " results, not " + std::to_string(dtypes.size());
  }
  for (size_t i = 0; i < dtypes.size(); ++i) {
    if (f.dtype(f.results[i]) != dtypes[i]) return "result " + std::to_string(i) + " has the wrong dtype";
    if (!covers(shapes[i], f.shape(f.results[i]))) {
      return "result " + std::to_string(i) + " has a shape its consumers do not expect";
    }
  }
  return "";
}

std::vector<DType> dtypes_of(const Graph& graph, const std::vector<Endpoint>& endpoints) {
  std::vector<DType> out;
  for (const Endpoint& e : endpoints) out.push_back(graph.dtype(e));
  return out;
}

Status verify_control_flow(const Graph& graph, const Node& node) {
  const OpDef::ControlFlow kind = node.op->control_flow;
  if (kind == OpDef::ControlFlow::kNone) return Status::OK();
  std::vector<std::pair<std::string, const Graph*>> functions;
  for (const auto& item : node.attrs.items()) {
    for_each_func(item.second, [&](const FuncAttr& f) { functions.emplace_back(item.first, f.graph.get()); });
  }
  auto missing = [&](const char* attr) {
    for (const auto& f : functions) {
      if (f.first == attr) return false;
    }
    return true;
  };
  for (const char* attr : kind == OpDef::ControlFlow::kIf ? std::vector<const char*>{"then_branch", "else_branch"}
                          : kind == OpDef::ControlFlow::kCase ? std::vector<const char*>{"branches"}
                                                               : std::vector<const char*>{"cond", "body"}) {
    if (missing(attr)) return broken(node, std::string("has no ") + attr + " function");
  }
  const bool is_while = kind == OpDef::ControlFlow::kWhile;
  const std::vector<Endpoint> fed(node.inputs.begin() + (is_while || node.inputs.empty() ? 0 : 1), node.inputs.end());
  const std::vector<DType>* declared = node.attrs.get_type_list(is_while ? "T" : "Tin");
  if (declared && *declared != dtypes_of(graph, fed)) {
    return broken(node, std::string("has a ") + (is_while ? "T" : "Tin") + " attr unlike its inputs");
  }
  for (const auto& [attr, f] : functions) {
    std::string problem = check_arguments(graph, fed, *f);
    if (problem.empty() && attr == "cond") {
      if (f->results.size() != 1) problem = "it must return one result";
    } else if (problem.empty() && attr == "body") {
      // The body's results are fed back to the body and cond, and are the node's outputs.
      std::vector<Shape> arg_shapes;
      for (int a : f->arguments) arg_shapes.push_back(f->node(a).output_shapes[0]);
      problem = check_results(*f, node.output_dtypes, arg_shapes);
      if (problem.empty()) problem = check_results(*f, node.output_dtypes, node.output_shapes);
    } else if (problem.empty()) {
      problem = check_results(*f, node.output_dtypes, node.output_shapes);
    }
    if (!problem.empty()) return broken(node, "has a " + attr + " function that does not fit it: " + problem);
  }
  if (is_while) {
    for (size_t i = 0; i < fed.size() && i < node.output_shapes.size(); ++i) {
      if (!covers(node.output_shapes[i], graph.shape(fed[i]))) {
        return broken(node, "has output " + std::to_string(i) + " whose shape its input need not have");
      }
    }
    if (fed.size() != node.output_dtypes.size()) return broken(node, "does not have as many outputs as inputs");
    const Graph* cond = node.attrs.get_func("cond")->graph.get();
    const Graph* body = node.attrs.get_func("body")->graph.get();
    const std::string problem = check_arguments(*body, body->results, *cond);
    if (!problem.empty()) return broken(node, "has a cond function that does not fit the body's results: " + problem);
  }
  return Status::OK();
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
  GRAPHFN_RETURN_IF_ERROR(verify_control_flow(graph, node));
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
