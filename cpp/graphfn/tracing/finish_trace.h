// Finishing a traced graph (a function, a branch, a loop's cond or body) in one step, once its
// result nodes exist: they wait for the function's control output (when there is one), become
// the graph's results, and automatic control dependencies order its stateful ops.
#pragma once
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/ir/graph.h"

namespace graphfn {

// `results` are outputs of `graph`; `control_output` is the NoOp made by
// add_control_output_node (passes/auto_control_deps.h) before the result nodes, or -1.
Status finish_trace(Graph& graph, const std::vector<Endpoint>& results, int control_output);

}  // namespace graphfn
