// Graph invariants that every pass must keep: inputs and control inputs refer to earlier nodes
// (creation order is a topological order), endpoint indices are in range, each node's input
// dtypes still resolve to its recorded type attrs, Const nodes describe their values, the
// arguments and results exist, and control-flow nodes' functions take and return what the node
// feeds and promises (counts, dtypes, shapes at least as general). Checked between optimization
// passes in debug and test builds, and on every graph loaded from a file (serialize/).
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// OK, or an Internal error naming the first broken node and what is wrong.
Status verify_graph(const Graph& graph);

}  // namespace graphfn
