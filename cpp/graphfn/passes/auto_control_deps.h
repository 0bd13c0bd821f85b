// Automatic control dependencies (TF's ACD): makes stateful ops run in program order where it
// matters. Per resource, a read waits for the last write; a write waits for the last write and
// every read since. Stateful ops that touch no resource (prints, asserts) run in creation order.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Adds control inputs to the nodes of `graph` (which are in creation order).
void add_auto_control_deps(Graph& graph);

// TF's control outputs of a function: the stateful ops that must run (not legacy random ops, nor
// reads nobody uses; `returned` counts as used) become control inputs of one NoOp node, which
// the function's result nodes then wait for, so a call returns only after its effects. Call it
// before adding the result nodes (control inputs must be earlier nodes; TF adds the NoOp after
// them). The NoOp is named inside `name_scope` ("" or "scope/"). Returns the NoOp, or -1 if
// nothing must run.
int add_control_output_node(Graph& graph, const std::vector<Endpoint>& returned, const std::string& name_scope = "");

}  // namespace graphfn
