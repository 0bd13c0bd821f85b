// Captures: a branch or loop body being traced (a subgraph: its GraphTrace names the enclosing
// graph) that uses a tensor of a graph enclosing it gets a placeholder standing for that tensor,
// in every graph in between; the If / While node built from the subgraph later feeds it
// (control_flow_builder.h).
#pragma once
#include <memory>
#include <string>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"
#include "graphfn/tracing/graph_trace.h"

namespace graphfn {

// A new subgraph of `enclosing` (which the caller keeps alive while tracing it), naming its
// nodes inside `name_scope`.
std::shared_ptr<Graph> new_subgraph(const std::shared_ptr<Graph>& enclosing, const std::string& name_scope);

// The graph `graph` is a subgraph of while it is traced, else null.
Graph* enclosing_graph(const Graph& graph);

// True if a tensor of `owner` can be used in `graph`: `owner` is `graph` or encloses it, or is
// a graph `graph` (or one enclosing it) was cloned from (Graph::lineage).
bool can_capture(const Graph& graph, const Graph* owner);

// Output `e` of `owner` as seen from `graph`: itself when owner is graph or a graph it was
// cloned from that has the same node, else a placeholder
// capturing it (made on first use). *out is {-1, 0} when `owner` does not enclose `graph`.
Status capture(Graph& graph, const Graph* owner, Endpoint e, Endpoint* out);

// A variable's resource handle (an eager tensor) used in `graph`: a Const of the outermost graph
// (one per variable there), captured into `graph` when it is a branch or loop body, so the If /
// While node takes the variable as an input (as TF's captured handles).
Status capture_resource(Graph& graph, const Tensor& handle, const std::string& name, Endpoint* out);

}  // namespace graphfn
