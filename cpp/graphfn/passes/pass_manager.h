// The optimization pipeline a concrete function's plan is built from: constant folding, then
// common-subexpression elimination, then arithmetic simplification, then dead loop variables;
// the subgraphs of If/While nodes are optimized first, the same way. Automatic control
// dependencies are not part of it: they are added to the traced graph itself (as_graph_def()
// shows them), before any optimization.
#pragma once
#include <memory>

#include "graphfn/ir/graph.h"

namespace graphfn {

struct OptimizerOptions {
  bool constant_folding = true;
  bool arithmetic_optimization = true;  // CSE and arithmetic simplification (TF's option name)
#ifdef NDEBUG
  bool verify = false;
#else
  bool verify = true;  // check graph invariants after every pass
#endif
  bool remapping = true;  // fusions (TF's option name): passes/activation_fusion.h
  // Whether any pass is on (else a plan is built from the traced graph itself).
  bool any() const { return constant_folding || arithmetic_optimization || remapping; }
};

// Rewrites `graph` in place. Fails only if a pass broke an invariant (with verify on).
Status optimize(Graph& graph, const OptimizerOptions& options = OptimizerOptions());

// An optimized copy of `graph`, for building a plan while the traced graph stays as traced.
Status optimized_copy(const Graph& graph, const OptimizerOptions& options, std::unique_ptr<Graph>* out);

}  // namespace graphfn
