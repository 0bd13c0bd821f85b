// Tracing control flow (python/graphfn/ops/control_flow_ops.py): Python traces the user's
// functions into subgraphs; tracing/control_flow_builder.h turns them into If / While nodes.
// This file converts and forwards.
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/defined_at.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/control_flow_builder.h"
#include "graphfn/tracing/graph_trace.h"
#include "graphfn/tracing/op_builder.h"

namespace graphfn {
namespace {

Endpoint endpoint_in(const SymbolicTensor& t, const std::shared_ptr<Graph>& graph, const char* what) {
  if (t.graph != graph) throw py::value_error(std::string(what) + " must come from the graph being traced");
  return t.endpoint;
}

py::list symbolic_list(const std::shared_ptr<Graph>& graph, const std::vector<Endpoint>& endpoints) {
  py::list out;
  for (const Endpoint& e : endpoints) out.append(py::cast(SymbolicTensor{graph, e}));
  return out;
}

}  // namespace

Endpoint capture(Graph& graph, const SymbolicTensor& t) {
  Endpoint out;
  throw_if_error(capture(graph, t.graph.get(), t.endpoint, &out));
  return out;
}

void bind_control_flow(py::module_& m) {
  // The caller keeps `enclosing` alive while tracing the subgraph.
  m.def("subgraph", &new_subgraph);
  // If / Case: `name` is reserved by the caller; returns the outer Identity outputs.
  m.def("make_branches", [](const std::shared_ptr<Graph>& outer, const std::string& name, const SymbolicTensor& selector,
                            const std::vector<std::shared_ptr<Graph>>& branches, bool is_case) {
    std::vector<Endpoint> outputs;
    throw_if_error(build_branches(TraceContext::current(), outer, name, endpoint_in(selector, outer, "the branch selector"), branches, is_case,
                                  capture_defined_at(), &outputs));
    return symbolic_list(outer, outputs);
  });
  m.def("make_while", [](const std::shared_ptr<Graph>& outer, const std::string& name,
                         const std::vector<const SymbolicTensor*>& loop_inputs, const std::shared_ptr<Graph>& cond,
                         const std::shared_ptr<Graph>& body, int64_t parallel_iterations) {
    std::vector<Endpoint> inputs;
    for (const SymbolicTensor* t : loop_inputs) inputs.push_back(endpoint_in(*t, outer, "a loop input"));
    std::vector<Endpoint> outputs;
    throw_if_error(build_while(TraceContext::current(), outer, name, std::move(inputs), cond, body, parallel_iterations, capture_defined_at(),
                               &outputs));
    return symbolic_list(outer, outputs);
  });
  m.def("graph_const", [](const std::shared_ptr<Graph>& g, const Tensor& value, const std::string& name) {
    int id = 0;
    throw_if_error(add_constant(*g, value, name, capture_defined_at(), &id));
    return SymbolicTensor{g, Endpoint{id, 0}};
  });
  // `op` (an Operation of a graph enclosing `graph`) was named in tf.control_dependencies while
  // tracing `graph`: the If / While node made from `graph` will wait for it.
  m.def("capture_control", [](const std::shared_ptr<Graph>& graph, const GraphOp& op) {
    if (is_subgraph(*graph)) TraceContext::current().capture_control(graph, ControlCapture{op.graph, op.node});
  });
  m.def("is_stateful_graph", [](const Graph& g) { return g.is_stateful(); });
}

}  // namespace graphfn
