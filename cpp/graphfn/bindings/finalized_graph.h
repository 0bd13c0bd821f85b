// tf.Graph.finalize(): adding a node to a finalized graph raises TF's RuntimeError.
#pragma once
#include <stdexcept>

#include "graphfn/ir/graph.h"
#include "graphfn/tracing/graph_trace.h"

namespace graphfn {

inline void throw_if_finalized(const Graph& graph) {
  if (is_finalized(graph)) throw std::runtime_error("Graph is finalized and cannot be modified.");  // RuntimeError
}

}  // namespace graphfn
