#include "graphfn/tracing/finish_trace.h"

#include "graphfn/passes/auto_control_deps.h"
#include "graphfn/tracing/graph_trace.h"

namespace graphfn {

int add_control_output(Graph& graph, const std::vector<Endpoint>& returned) {
  const GraphTrace* trace = find_trace(graph);
  return add_control_output_node(graph, returned, trace ? trace->name_scope : std::string());
}

Status finish_trace(Graph& graph, const std::vector<Endpoint>& results, int control_output) {
  const int n = graph.num_nodes();
  for (const Endpoint& e : results) {
    if (e.node < 0 || e.node >= n || e.index < 0 ||
        e.index >= static_cast<int>(graph.node(e.node).output_dtypes.size())) {
      return Status(Code::kInvalidArgument, "finish_trace: a result is not an output of the graph");
    }
  }
  if (control_output >= n) return Status(Code::kInvalidArgument, "finish_trace: no such control output node");
  if (control_output >= 0) {
    for (const Endpoint& e : results) {
      // Only nodes made after the control output may wait for it (nodes stay in creation order).
      if (e.node > control_output) graph.add_control_input(e.node, control_output);
    }
  }
  graph.results = results;
  add_auto_control_deps(graph);
  return Status::OK();
}

}  // namespace graphfn
