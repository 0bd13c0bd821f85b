// Tracing control flow (python/graphfn/ops/control_flow_ops.py): branch and loop-body graphs
// that capture tensors of the graphs enclosing them, and the If / While nodes that own them.
// Python traces the user's functions into child graphs; this file turns captures into inputs,
// gives every subgraph the same signature, and adds the node.
#include <atomic>

#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/defined_at.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/core/resource.h"
#include "graphfn/ir/op_registry.h"
#include "graphfn/autodiff/symbolic_gradients.h"

namespace graphfn {
namespace {

std::atomic<int> g_function_uid{1};

// A unique library name for a subgraph: "cond_true_12", "while_body_5" (TF numbers them too).
std::string function_name(const std::string& node_name, const char* kind) {
  std::string base;
  for (char c : node_name) base += c == '/' ? '_' : c;
  return base + "_" + kind + "_" + std::to_string(g_function_uid++);
}

// The placeholder of `graph` that stands for `outer` (an output of graph.enclosing), made on
// first use.
int capture_placeholder(Graph& graph, Endpoint outer) {
  for (const Graph::Capture& c : graph.captures) {
    if (c.outer == outer) return c.placeholder;
  }
  const Node& src = graph.enclosing->node(outer.node);
  int id = 0;
  throw_if_error(graph.add_placeholder(graph.enclosing->dtype(outer), graph.enclosing->shape(outer),
                                       graph.name_scope + src.name, &id));
  // A captured variable handle keeps the variable's shape for shape inference.
  if (const AttrValue* handle_shape = src.attrs.find("_handle_shape")) {
    graph.mutable_node(id).attrs.set("_handle_shape", *handle_shape);
  } else if (const Tensor* value = src.const_value(); value && value->dtype() == DType::kResource) {
    if (auto var = std::dynamic_pointer_cast<VariableResource>(*value->data<ResourceHandle>())) {
      graph.mutable_node(id).attrs.set("_handle_shape", var->shape());
    }
  }
  graph.captures.push_back({outer, id});
  return id;
}

std::vector<Endpoint> endpoints_of(const std::vector<const SymbolicTensor*>& tensors, const Graph& graph) {
  std::vector<Endpoint> out;
  for (const SymbolicTensor* t : tensors) {
    if (t->graph.get() != &graph) throw py::value_error("control flow input from another graph");
    out.push_back(t->endpoint);
  }
  return out;
}

// The outer tensors every subgraph captured, each once, in first-seen order.
std::vector<Endpoint> union_of_captures(const std::vector<const Graph*>& graphs) {
  std::vector<Endpoint> all;
  for (const Graph* g : graphs) {
    for (const Graph::Capture& c : g->captures) {
      if (std::find(all.begin(), all.end(), c.outer) == all.end()) all.push_back(c.outer);
    }
  }
  return all;
}

// Appends to `graph`'s arguments a placeholder for each of `outer` (its capture, or an unused
// placeholder when this subgraph did not capture it); returns them in that order.
std::vector<int> add_capture_arguments(Graph& graph, const std::vector<Endpoint>& outer) {
  std::vector<int> placeholders;
  for (const Endpoint& e : outer) {
    int id = -1;
    for (const Graph::Capture& c : graph.captures) {
      if (c.outer == e) id = c.placeholder;
    }
    if (id < 0) {
      throw_if_error(graph.add_placeholder(graph.enclosing->dtype(e), graph.enclosing->shape(e),
                                           graph.name_scope + "Placeholder", &id));
    }
    graph.arguments.push_back(id);
    placeholders.push_back(id);
  }
  return placeholders;
}

// A subgraph owned by a node captures nothing more; it must not keep a pointer to the graph
// enclosing it (which it may outlive, e.g. held by a SymbolicTensor).
void finish_tracing(std::initializer_list<Graph*> graphs) {
  for (Graph* g : graphs) g->enclosing = nullptr;
}

// The most specific shape both branches' outputs satisfy.
Shape common_shape(const Shape& a, const Shape& b) {
  if (!a.known_rank() || !b.known_rank() || a.rank() != b.rank()) return Shape::unknown_rank();
  Shape out = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a.dim(i) != b.dim(i)) out.set_dim(i, Shape::kUnknownDim);
  }
  return out;
}

std::vector<DType> dtypes_of(const Graph& graph, const std::vector<Endpoint>& endpoints) {
  std::vector<DType> out;
  for (const Endpoint& e : endpoints) out.push_back(graph.dtype(e));
  return out;
}

py::list outputs_of(const std::shared_ptr<Graph>& graph, int node, int first, int count) {
  py::list out;
  for (int i = first; i < first + count; ++i) out.append(py::cast(SymbolicTensor{graph, Endpoint{node, i}}));
  return out;
}

// Adds an If / StatelessIf node (two branches) or a Case / StatelessCase node (N branches) named
// `name` (reserved by the caller) to `outer`, with outer Identity nodes "name/Identity", ...;
// returns those. The Python side has checked that the branches return alike.
py::list make_branches(const std::shared_ptr<Graph>& outer, const std::string& name, const SymbolicTensor& selector,
                       const std::vector<std::shared_ptr<Graph>>& branches, bool is_case) {
  if (selector.graph != outer) throw py::value_error("the branch selector must come from the graph being traced");
  if (branches.empty() || (!is_case && branches.size() != 2)) throw py::value_error("wrong number of branches");
  const bool is_if = !is_case;
  const Graph& first = *branches[0];
  const size_t n = first.results.size();
  std::vector<const Graph*> all;
  for (const auto& b : branches) {
    if (b->results.size() != n || dtypes_of(*b, b->results) != dtypes_of(first, first.results)) {
      throw py::type_error("branches must return the same number and types of tensors");
    }
    all.push_back(b.get());
  }
  const std::vector<Endpoint> captured = union_of_captures(all);
  for (const auto& b : branches) add_capture_arguments(*b, captured);

  std::vector<Endpoint> inputs{selector.endpoint};
  inputs.insert(inputs.end(), captured.begin(), captured.end());
  std::vector<Shape> shapes;
  for (size_t i = 0; i < n; ++i) {
    Shape shape = first.shape(first.results[i]);
    for (const auto& b : branches) shape = common_shape(shape, b->shape(b->results[i]));
    shapes.push_back(std::move(shape));
  }
  bool stateful = false;
  for (const auto& b : branches) stateful = stateful || b->is_stateful();
  AttrMap attrs;
  attrs.set("Tin", dtypes_of(*outer, captured));
  attrs.set("Tout", dtypes_of(first, first.results));
  for (size_t k = 0; k < branches.size(); ++k) {
    branches[k]->function_name =
        function_name(name, is_if ? (k == 0 ? "true" : "false") : ("branch" + std::to_string(k)).c_str());
  }
  if (is_if) {
    attrs.set("then_branch", FuncAttr{branches[0]->function_name, branches[0]});
    attrs.set("else_branch", FuncAttr{branches[1]->function_name, branches[1]});
  } else {
    std::vector<FuncAttr> funcs;
    for (const auto& b : branches) funcs.push_back(FuncAttr{b->function_name, b});
    attrs.set("branches", std::move(funcs));
  }
  attrs.set("output_shapes", shapes);
  for (const auto& b : branches) finish_tracing({b.get()});
  const char* op_name = is_if ? (stateful ? "If" : "StatelessIf") : (stateful ? "Case" : "StatelessCase");
  int id = 0;
  throw_if_error(outer->add_node(*OpRegistry::global().find(op_name), name, inputs, std::move(attrs), &id,
                                 /*name_reserved=*/true));
  const std::shared_ptr<const SourceStack> defined_at = capture_defined_at();
  outer->mutable_node(id).defined_at = defined_at;
  py::list out;
  for (size_t i = 0; i < n; ++i) {
    int identity = 0;
    throw_if_error(outer->add_node("Identity", name + "/Identity", {Endpoint{id, static_cast<int>(i)}}, AttrMap(),
                                   &identity));
    outer->mutable_node(identity).defined_at = defined_at;
    out.append(py::cast(SymbolicTensor{outer, Endpoint{identity, 0}}));
  }
  return out;
}

// Adds a While / StatelessWhile node. `inputs` are the loop state (counter, maximum iterations,
// loop vars) already fed to the cond and body placeholders (their arguments, in order); the
// body's results are the next state. Captured tensors become extra loop state that the body
// passes through. Returns the node's outputs for the given inputs.
py::list make_while(const std::shared_ptr<Graph>& outer, const std::string& name,
                    const std::vector<const SymbolicTensor*>& loop_inputs, const std::shared_ptr<Graph>& cond,
                    const std::shared_ptr<Graph>& body, int64_t parallel_iterations) {
  std::vector<Endpoint> inputs = endpoints_of(loop_inputs, *outer);
  const int n = static_cast<int>(inputs.size());
  if (static_cast<int>(cond->arguments.size()) != n || static_cast<int>(body->arguments.size()) != n ||
      static_cast<int>(body->results.size()) != n || cond->results.size() != 1) {
    throw py::value_error("while_loop: cond and body do not match the loop variables");
  }
  const std::vector<Endpoint> captured = union_of_captures({cond.get(), body.get()});
  add_capture_arguments(*cond, captured);
  for (int placeholder : add_capture_arguments(*body, captured)) body->results.push_back(Endpoint{placeholder, 0});
  finish_tracing({cond.get(), body.get()});
  inputs.insert(inputs.end(), captured.begin(), captured.end());

  std::vector<Shape> shapes;  // the loop state's shapes: the body placeholders' (the invariants)
  for (int arg : body->arguments) shapes.push_back(body->node(arg).output_shapes[0]);
  AttrMap attrs;
  attrs.set("T", dtypes_of(*outer, inputs));
  cond->function_name = function_name(name, "cond");
  body->function_name = function_name(name, "body");
  attrs.set("cond", FuncAttr{cond->function_name, cond});
  attrs.set("body", FuncAttr{body->function_name, body});
  attrs.set("output_shapes", shapes);
  attrs.set("parallel_iterations", parallel_iterations);
  const bool stateful = cond->is_stateful() || body->is_stateful();
  const OpDef* op = OpRegistry::global().find(stateful ? "While" : "StatelessWhile");
  int id = 0;
  throw_if_error(outer->add_node(*op, name, inputs, std::move(attrs), &id, /*name_reserved=*/true));
  outer->mutable_node(id).defined_at = capture_defined_at();
  return outputs_of(outer, id, 0, n);
}

}  // namespace

Endpoint capture(Graph& graph, const SymbolicTensor& t) { return capture(graph, t.graph.get(), t.endpoint); }

Endpoint capture(Graph& graph, const Graph* owner, Endpoint e) {
  if (owner == &graph) return e;
  if (!graph.enclosing) return Endpoint{-1, 0};
  const Endpoint outer = capture(*graph.enclosing, owner, e);
  if (outer.node < 0) return outer;
  return Endpoint{capture_placeholder(graph, outer), 0};
}

Endpoint capture_resource(Graph& graph, const Tensor& handle, const std::string& name) {
  Graph* root = &graph;
  while (root->enclosing) root = root->enclosing;
  Endpoint e = root == &graph ? Endpoint{-1, 0} : find_resource_const(*root, handle.data<ResourceHandle>()->get());
  if (e.node < 0) {
    throw_if_error(root->add_const(handle, name, &e.node));
    e.index = 0;
  }
  return capture(graph, root, e);
}

void bind_control_flow(py::module_& m) {
  m.def("subgraph", [](const std::shared_ptr<Graph>& enclosing, const std::string& name_scope) {
    auto g = std::make_shared<Graph>();
    g->enclosing = enclosing.get();  // the caller keeps `enclosing` alive while tracing
    g->outer_graph = enclosing;
    g->is_subgraph = true;
    g->name_scope = name_scope;
    return g;
  });
  m.def("make_branches", &make_branches);
  m.def("make_while", &make_while);
  m.def("graph_const", [](const std::shared_ptr<Graph>& g, const Tensor& value, const std::string& name) {
    int id = 0;
    throw_if_error(g->add_const(value, name, &id));
    g->mutable_node(id).defined_at = capture_defined_at();
    return SymbolicTensor{g, Endpoint{id, 0}};
  });
  m.def("is_stateful_graph", [](const Graph& g) { return g.is_stateful(); });
}

}  // namespace graphfn
