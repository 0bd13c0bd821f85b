// What tf.compat.v1.Session.run computes: the part of a graph its fetches and targets need, fed
// where the caller feeds. TF prunes the graph the same way: a node runs only if a fetch or target
// reaches it through data or control edges that do not pass a fed tensor (a function, by
// contrast, runs every stateful node of its graph). Unfed placeholders give TF's error.
#pragma once
#include <memory>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/ir/graph.h"
#include "graphfn/runtime/plan.h"

namespace graphfn {

// Compiles the part of `graph` that `fetches` and `targets` (node ids) need. The plan takes one
// tensor per entry of `feeds` (distinct endpoints, in that order) and returns one per fetch.
// A fetched tensor that is fed returns the fed value.
Status build_session_plan(const Graph& graph, const std::vector<Endpoint>& feeds,
                          const std::vector<Endpoint>& fetches, const std::vector<int>& targets,
                          std::shared_ptr<const Plan>* out);

}  // namespace graphfn
