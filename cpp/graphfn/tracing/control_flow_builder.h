// Building the control-flow nodes of a trace from their traced subgraphs: the captures of every
// subgraph become inputs of the node and arguments of each subgraph (so all share one
// signature), and the If / StatelessIf / Case / StatelessCase or While / StatelessWhile node is
// added to the enclosing graph. The subgraphs stop referring to the enclosing graph: they are
// owned by the node now and may outlive the graph they were traced in. Control dependencies the
// subgraphs took from `outer` (their control captures in `context`) become control inputs of the
// node; those taken from further out become `outer`'s own control captures.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/ir/graph.h"
#include "graphfn/ir/source_stack.h"
#include "graphfn/tracing/trace_context.h"

namespace graphfn {

// Adds an If (two branches) or, with `is_case`, a Case node named `name` (already made unique by
// the caller) selecting on `selector`, then one Identity per output ("name/Identity", ...);
// *outputs are those Identity outputs. The branches must return the same number and dtypes of
// tensors; each output's shape is the most specific one all branches satisfy.
Status build_branches(TraceContext& context, const std::shared_ptr<Graph>& outer, const std::string& name, Endpoint selector,
                      const std::vector<std::shared_ptr<Graph>>& branches, bool is_case,
                      const std::shared_ptr<const SourceStack>& defined_at, std::vector<Endpoint>* outputs);

// Adds a While node named `name`. `inputs` are the loop state (outputs of `outer`) already fed to
// the cond and body arguments, in order; the body's results are the next state. Captured tensors
// become extra loop state that the body passes through. *outputs are the node's outputs for the
// given inputs.
Status build_while(TraceContext& context, const std::shared_ptr<Graph>& outer, const std::string& name, std::vector<Endpoint> inputs,
                   const std::shared_ptr<Graph>& cond, const std::shared_ptr<Graph>& body,
                   int64_t parallel_iterations, const std::shared_ptr<const SourceStack>& defined_at,
                   std::vector<Endpoint>* outputs);

}  // namespace graphfn
