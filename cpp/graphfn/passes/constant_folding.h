// Constant folding: a pure node whose inputs are all constants is evaluated once, with the eager
// kernels, and becomes a Const (same id, name and position), so the plan has one step less.
#pragma once
#include "graphfn/ir/graph.h"

namespace graphfn {

// Folded outputs larger than this stay computed at run time (a big constant costs memory in
// every plan, and folding it costs tracing time).
constexpr int64_t kMaxFoldedElements = 1024;

// Folds what it can, in creation order (so chains of constant ops fold in one sweep). A node
// whose evaluation fails is left as it is: the error belongs to run time, and only if the node
// runs (TF's graphs are non-strict). Returns true if anything changed.
bool fold_constants(Graph& graph);

}  // namespace graphfn
