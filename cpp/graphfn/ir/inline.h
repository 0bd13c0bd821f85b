// Inlining: copies a function graph's nodes into another graph, its arguments replaced by given
// tensors. This is how a loaded function (graphfn.saved_model.load) is called while another
// function is being traced: its nodes join the traced graph, where automatic control
// dependencies, optimization and saving treat them like traced ones.
#pragma once
#include <string>
#include <vector>

#include "graphfn/ir/graph.h"

namespace graphfn {

// Adds `fn`'s nodes (all but its arguments) to `dst`, named "<scope><node name>" made unique,
// feeding `inputs` (outputs of `dst`, one per argument of `fn`); `outputs` gets `fn`'s results.
Status inline_graph(Graph& dst, const Graph& fn, const std::vector<Endpoint>& inputs, const std::string& scope,
                    std::vector<Endpoint>* outputs);

}  // namespace graphfn
