// Finishing a traced graph (a function, a branch, a loop's cond or body) in one step, once its
// result nodes exist: they wait for the function's control output (when there is one), become
// the graph's results, and automatic control dependencies order its stateful ops.
#pragma once
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/ir/graph.h"

namespace graphfn {

// The function's control output (passes/auto_control_deps.h: a NoOp waiting for the stateful ops
// that must run, named in the current name scope), made before its result nodes; -1 if none.
// `returned` are the outputs the function returns.
int add_control_output(Graph& graph, const std::vector<Endpoint>& returned);

// `results` are outputs of `graph`; `control_output` is the node add_control_output made, or -1.
Status finish_trace(Graph& graph, const std::vector<Endpoint>& results, int control_output);

}  // namespace graphfn
