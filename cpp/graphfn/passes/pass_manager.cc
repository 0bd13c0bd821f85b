#include "graphfn/passes/pass_manager.h"

#include "graphfn/ir/verifier.h"
#include "graphfn/passes/activation_fusion.h"
#include "graphfn/passes/arithmetic_simplify.h"
#include "graphfn/passes/constant_folding.h"
#include "graphfn/passes/cse.h"
#include "graphfn/passes/loop_simplify.h"
#include "graphfn/passes/scaled_updates.h"

namespace graphfn {
namespace {

// Runs one pass; with verification on, a broken invariant names the pass that broke it.
template <typename Pass>
Status run_pass(Graph& graph, const OptimizerOptions& options, const char* name, Pass pass, bool* changed) {
  *changed = pass(graph) || *changed;
  if (!options.verify) return Status::OK();
  return with_context(verify_graph(graph), std::string("after ") + name);
}

}  // namespace

Status optimize(Graph& graph, const OptimizerOptions& options) {
  bool changed = false;
  if (options.constant_folding) {
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "constant folding", fold_constants, &changed));
  }
  if (options.arithmetic_optimization) {
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "CSE", eliminate_common_subexpressions, &changed));
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "arithmetic simplification", simplify_arithmetic, &changed));
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "dead loop variables", prune_dead_loop_variables, &changed));
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "scaled updates", fold_scaled_updates, &changed));
  }
  if (options.remapping) {
    GRAPHFN_RETURN_IF_ERROR(run_pass(graph, options, "activation fusion", fuse_activations, &changed));
  }
  // No second folding sweep: CSE and simplification only redirect uses to outputs that already
  // existed, so they never give a node constant inputs it did not have when folding ran.
  return Status::OK();
}

namespace {

// Replaces every subgraph (If branches, While cond/body) by an optimized copy, innermost first.
Status optimize_subgraphs(Graph& graph, const OptimizerOptions& options) {
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (graph.node(id).op->control_flow == OpDef::ControlFlow::kNone) continue;
    std::vector<std::pair<std::string, AttrValue>> replaced;
    for (const auto& [name, value] : graph.node(id).attrs.items()) {
      std::vector<FuncAttr> optimized;
      Status s;
      for_each_func(value, [&](const FuncAttr& f) {
        std::unique_ptr<Graph> copy;
        if (s.ok()) s = optimized_copy(*f.graph, options, &copy);
        optimized.push_back(FuncAttr{f.name, std::move(copy)});
      });
      GRAPHFN_RETURN_IF_ERROR(s);
      if (std::holds_alternative<FuncAttr>(value)) {
        replaced.emplace_back(name, std::move(optimized[0]));
      } else if (!optimized.empty()) {
        replaced.emplace_back(name, std::move(optimized));
      }
    }
    Node& node = graph.mutable_node(id);
    for (auto& [name, value] : replaced) node.attrs.set(name, std::move(value));
  }
  return Status::OK();
}

}  // namespace

Status optimized_copy(const Graph& graph, const OptimizerOptions& options, std::unique_ptr<Graph>* out) {
  std::unique_ptr<Graph> copy = graph.clone();
  GRAPHFN_RETURN_IF_ERROR(optimize_subgraphs(*copy, options));
  GRAPHFN_RETURN_IF_ERROR(optimize(*copy, options));
  *out = std::move(copy);
  return Status::OK();
}

}  // namespace graphfn
