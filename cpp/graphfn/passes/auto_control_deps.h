// Automatic control dependencies (TF's ACD): makes stateful ops run in program order where it
// matters. Per resource, a read waits for the last write; a write waits for the last write and
// every read since. Stateful ops that touch no resource (prints, asserts) run in creation order.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Adds control inputs to the nodes of `graph` (which are in creation order).
void add_auto_control_deps(Graph& graph);

}  // namespace graphfn
