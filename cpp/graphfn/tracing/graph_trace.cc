#include "graphfn/tracing/graph_trace.h"

namespace graphfn {

GraphTrace& trace_of(Graph& graph) {
  if (auto* trace = dynamic_cast<GraphTrace*>(graph.observer.get())) return *trace;
  auto trace = std::make_shared<GraphTrace>();
  GraphTrace& out = *trace;
  graph.observer = std::move(trace);
  return out;
}

const GraphTrace* find_trace(const Graph& graph) { return dynamic_cast<const GraphTrace*>(graph.observer.get()); }

bool is_finalized(const Graph& graph) {
  const GraphTrace* trace = find_trace(graph);
  return trace && trace->finalized;
}

bool is_subgraph(const Graph& graph) {
  const GraphTrace* trace = find_trace(graph);
  return trace && trace->is_subgraph;
}

std::shared_ptr<Graph> new_function_graph(const std::shared_ptr<Graph>& outer) {
  auto g = std::make_shared<Graph>();
  trace_of(*g).outer_graph = outer;
  return g;
}

bool traced_inside(const Graph& outer, const Graph& graph) {
  const GraphTrace* trace = find_trace(graph);
  for (std::shared_ptr<const Graph> o = trace ? trace->outer_graph.lock() : nullptr; o;) {
    if (o.get() == &outer) return true;
    trace = find_trace(*o);
    o = trace ? trace->outer_graph.lock() : nullptr;
  }
  return false;
}

void push_control_dependencies(Graph& graph, const std::vector<int>& ops, bool clear) {
  for (int id : ops) graph.mutable_node(id).attrs.set("_has_manual_control_dependencies", true);
  trace_of(graph).control_dependencies.push(ops, clear);
}

void pop_control_dependencies(Graph& graph) { trace_of(graph).control_dependencies.pop(); }

}  // namespace graphfn
