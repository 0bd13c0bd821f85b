// Dead loop variables: a While output nobody reads, which the cond ignores and the body only
// uses to compute its own next value (TF's loop counter when there is no maximum_iterations),
// stops being computed: the body passes it through unchanged.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

bool prune_dead_loop_variables(Graph& graph);

}  // namespace graphfn
