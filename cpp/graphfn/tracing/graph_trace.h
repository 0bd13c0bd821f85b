// GraphTrace: what tracing keeps about one graph it builds, beside the graph (TF keeps the same
// on its FuncGraph): the function's name, the graph it was traced in, whether it is a branch or
// loop body and, while it is traced, the enclosing graph whose tensors it captures, its captures,
// the current tf.name_scope and the open tf.control_dependencies blocks. ir::Graph keeps only the
// graph: the record is attached as the graph's observer (so it lives as long as the graph, and
// control-dependency blocks reach nodes added by any code) and is found again with trace_of().
#pragma once
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "graphfn/ir/graph.h"
#include "graphfn/tracing/control_dependency_scopes.h"

namespace graphfn {

// A tensor of the enclosing graph used in a branch or loop body: `placeholder` stands for it.
struct Capture {
  Endpoint outer;   // in the enclosing graph
  int placeholder;  // in the subgraph
};

class GraphTrace final : public GraphObserver {
 public:
  // TF's FuncGraph name ("f", "cond_true_12") and the graph that was being built when this one
  // was made (a function traced while tracing another, a branch): errors about a tensor used
  // out of its scope name both graphs, and tell an enclosed graph from an unrelated one.
  std::string function_name;
  std::weak_ptr<const Graph> outer_graph;
  // A branch or loop body (kept after `enclosing` is dropped).
  bool is_subgraph = false;
  // While a branch or loop body is traced: the graph it is a subgraph of (kept alive by the
  // caller), and which outer output feeds each of its capture placeholders.
  Graph* enclosing = nullptr;
  std::vector<Capture> captures;
  // The current tf.name_scope ("outer/inner/" or ""): op nodes are named inside it.
  std::string name_scope;
  // Eager tensors a GradientTape in this graph watches (by Tensor id): the Const standing for
  // each, which every later use of the tensor as an operand is (TF captures a tensor once).
  std::unordered_map<uint64_t, Endpoint> watched_eager_tensors;
  ControlDependencyScopes control_dependencies;
  // tf.Graph.finalize(): no op may be added any more.
  bool finalized = false;
  // Made by tf.Graph() (not by tracing): TF 1.x semantics (tensors hash by identity, placeholders).
  bool standalone = false;

  void node_added(Node& node) override {
    if (!control_dependencies.empty()) control_dependencies.apply(node);
  }
};

// The record of `graph`, made on first use.
GraphTrace& trace_of(Graph& graph);
// The record of `graph`, or null if tracing never built it (a clone, a loaded graph).
const GraphTrace* find_trace(const Graph& graph);

// True once tf.Graph.finalize() was called on `graph`.
bool is_finalized(const Graph& graph);

// True for a branch or loop body traced by control flow (also once its node owns it).
bool is_subgraph(const Graph& graph);

// A graph for a function traced while `outer` is being built (null when eager).
std::shared_ptr<Graph> new_function_graph(const std::shared_ptr<Graph>& outer);

// True if `outer` is the graph `graph` was traced in, or that graph's, ... (TF's
// FuncGraph.outer_graph chain).
bool traced_inside(const Graph& outer, const Graph& graph);

// tf.control_dependencies(ops) on `graph` (`clear`: control_dependencies(None)); the ops are
// marked as having manual control dependencies, as TF does.
void push_control_dependencies(Graph& graph, const std::vector<int>& ops, bool clear);
void pop_control_dependencies(Graph& graph);

}  // namespace graphfn
