#include "graphfn/tracing/control_flow_builder.h"

#include <algorithm>
#include <atomic>

#include "graphfn/core/shape_merge.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/tracing/capture.h"

namespace graphfn {
namespace {

std::atomic<int> g_function_uid{1};

// A unique library name for a subgraph: "cond_true_12", "while_body_5" (TF numbers them too).
std::string function_name(const std::string& node_name, const std::string& kind) {
  std::string base;
  for (char c : node_name) base += c == '/' ? '_' : c;
  return base + "_" + kind + "_" + std::to_string(g_function_uid++);
}

// The outer tensors every subgraph captured, each once, in first-seen order.
std::vector<Endpoint> union_of_captures(const std::vector<Graph*>& graphs) {
  std::vector<Endpoint> all;
  for (Graph* g : graphs) {
    for (const Capture& c : trace_of(*g).captures) {
      if (std::find(all.begin(), all.end(), c.outer) == all.end()) all.push_back(c.outer);
    }
  }
  return all;
}

// Appends to `graph`'s arguments a placeholder for each of `outer` (its capture, or an unused
// placeholder when this subgraph did not capture it); *placeholders lists them in that order.
Status add_capture_arguments(Graph& graph, const std::vector<Endpoint>& outer, std::vector<int>* placeholders) {
  const GraphTrace& trace = trace_of(graph);
  for (const Endpoint& e : outer) {
    int id = -1;
    for (const Capture& c : trace.captures) {
      if (c.outer == e) id = c.placeholder;
    }
    if (id < 0) {
      Status s = graph.add_placeholder(trace.enclosing->dtype(e), trace.enclosing->shape(e),
                                       trace.name_scope + "Placeholder", &id);
      if (!s.ok()) return s;
    }
    graph.arguments.push_back(id);
    if (placeholders) placeholders->push_back(id);
  }
  return Status::OK();
}

std::vector<DType> dtypes_of(const Graph& graph, const std::vector<Endpoint>& endpoints) {
  std::vector<DType> out;
  for (const Endpoint& e : endpoints) out.push_back(graph.dtype(e));
  return out;
}

bool is_subgraph_of(const Graph& sub, const Graph& outer) { return enclosing_graph(sub) == &outer; }

// A subgraph stops referring to the graph it was traced in once its node owns it; its library
// name is what the node's function attr calls it.
FuncAttr finished_subgraph(const std::shared_ptr<Graph>& graph, std::string name) {
  GraphTrace& trace = trace_of(*graph);
  trace.enclosing = nullptr;
  trace.function_name = name;
  return FuncAttr{std::move(name), graph};
}

Status invalid(const std::string& what) { return Status(Code::kInvalidArgument, what); }

void forward_control_captures(TraceContext& context, const std::shared_ptr<Graph>& outer,
                              const std::vector<std::shared_ptr<Graph>>& subgraphs, int node) {
  for (const auto& g : subgraphs) {
    for (ControlCapture& c : context.take_control_captures(g.get())) {
      if (c.owner == outer) {
        outer->add_control_input(node, c.node);
      } else if (is_subgraph(*outer)) {
        context.capture_control(outer, std::move(c));
      }
    }
  }
}

}  // namespace

Status build_branches(TraceContext& context, const std::shared_ptr<Graph>& outer_ptr, const std::string& name, Endpoint selector,
                      const std::vector<std::shared_ptr<Graph>>& branches, bool is_case,
                      const std::shared_ptr<const SourceStack>& defined_at, std::vector<Endpoint>* outputs) {
  Graph& outer = *outer_ptr;
  if (branches.empty() || (!is_case && branches.size() != 2)) return invalid(name + ": wrong number of branches");
  const Graph& first = *branches[0];
  const size_t n = first.results.size();
  std::vector<Graph*> all;
  for (const auto& b : branches) {
    if (!b || !is_subgraph_of(*b, outer)) return invalid(name + ": a branch is not a subgraph being traced here");
    if (b->results.size() != n || dtypes_of(*b, b->results) != dtypes_of(first, first.results)) {
      return invalid(name + ": branches must return the same number and types of tensors");
    }
    all.push_back(b.get());
  }
  const std::vector<Endpoint> captured = union_of_captures(all);
  for (const auto& b : branches) {
    Status s = add_capture_arguments(*b, captured, nullptr);
    if (!s.ok()) return s;
  }

  std::vector<Endpoint> inputs{selector};
  inputs.insert(inputs.end(), captured.begin(), captured.end());
  std::vector<Shape> shapes;
  for (size_t i = 0; i < n; ++i) {
    Shape shape = first.shape(first.results[i]);
    for (const auto& b : branches) shape = most_specific_common_shape(shape, b->shape(b->results[i]));
    shapes.push_back(std::move(shape));
  }
  bool stateful = false;
  for (const auto& b : branches) stateful = stateful || b->is_stateful();
  AttrMap attrs;
  attrs.set("Tin", dtypes_of(outer, captured));
  attrs.set("Tout", dtypes_of(first, first.results));
  std::vector<FuncAttr> funcs;
  for (size_t k = 0; k < branches.size(); ++k) {
    const std::string kind = is_case ? "branch" + std::to_string(k) : (k == 0 ? "true" : "false");
    funcs.push_back(finished_subgraph(branches[k], function_name(name, kind)));
  }
  if (!is_case) {
    attrs.set("then_branch", funcs[0]);
    attrs.set("else_branch", funcs[1]);
  } else {
    attrs.set("branches", std::move(funcs));
  }
  attrs.set("output_shapes", shapes);
  const char* op_name = is_case ? (stateful ? "Case" : "StatelessCase") : (stateful ? "If" : "StatelessIf");
  int id = 0;
  Status s = outer.add_node(*OpRegistry::global().find(op_name), name, inputs, std::move(attrs), &id,
                            /*name_reserved=*/true);
  if (!s.ok()) return s;
  outer.mutable_node(id).defined_at = defined_at;
  forward_control_captures(context, outer_ptr, branches, id);
  outputs->clear();
  for (size_t i = 0; i < n; ++i) {
    int identity = 0;
    s = outer.add_node("Identity", name + "/Identity", {Endpoint{id, static_cast<int>(i)}}, AttrMap(), &identity);
    if (!s.ok()) return s;
    outer.mutable_node(identity).defined_at = defined_at;
    outputs->push_back(Endpoint{identity, 0});
  }
  return Status::OK();
}

Status build_while(TraceContext& context, const std::shared_ptr<Graph>& outer_ptr, const std::string& name, std::vector<Endpoint> inputs,
                   const std::shared_ptr<Graph>& cond, const std::shared_ptr<Graph>& body,
                   int64_t parallel_iterations, const std::shared_ptr<const SourceStack>& defined_at,
                   std::vector<Endpoint>* outputs) {
  Graph& outer = *outer_ptr;
  if (!cond || !body || !is_subgraph_of(*cond, outer) || !is_subgraph_of(*body, outer)) {
    return invalid(name + ": cond and body must be subgraphs being traced here");
  }
  const int n = static_cast<int>(inputs.size());
  if (static_cast<int>(cond->arguments.size()) != n || static_cast<int>(body->arguments.size()) != n ||
      static_cast<int>(body->results.size()) != n || cond->results.size() != 1) {
    return invalid(name + ": cond and body do not match the loop variables");
  }
  const std::vector<Endpoint> captured = union_of_captures({cond.get(), body.get()});
  Status s = add_capture_arguments(*cond, captured, nullptr);
  std::vector<int> body_placeholders;
  if (s.ok()) s = add_capture_arguments(*body, captured, &body_placeholders);
  if (!s.ok()) return s;
  for (int placeholder : body_placeholders) body->results.push_back(Endpoint{placeholder, 0});
  inputs.insert(inputs.end(), captured.begin(), captured.end());

  std::vector<Shape> shapes;  // the loop state's shapes: the body placeholders' (the invariants)
  for (int arg : body->arguments) shapes.push_back(body->node(arg).output_shapes[0]);
  AttrMap attrs;
  attrs.set("T", dtypes_of(outer, inputs));
  attrs.set("cond", finished_subgraph(cond, function_name(name, "cond")));
  attrs.set("body", finished_subgraph(body, function_name(name, "body")));
  attrs.set("output_shapes", shapes);
  attrs.set("parallel_iterations", parallel_iterations);
  const bool stateful = cond->is_stateful() || body->is_stateful();
  const OpDef* op = OpRegistry::global().find(stateful ? "While" : "StatelessWhile");
  int id = 0;
  s = outer.add_node(*op, name, inputs, std::move(attrs), &id, /*name_reserved=*/true);
  if (!s.ok()) return s;
  outer.mutable_node(id).defined_at = defined_at;
  forward_control_captures(context, outer_ptr, {cond, body}, id);
  outputs->clear();
  for (int i = 0; i < n; ++i) outputs->push_back(Endpoint{id, i});
  return Status::OK();
}

}  // namespace graphfn
