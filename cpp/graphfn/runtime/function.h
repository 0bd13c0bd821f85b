// CompiledFunction: a traced graph called eagerly (the compiled form of a graphfn.function's
// concrete function, or the backward function of one's gradient), with its plan. Python sees it
// as _core.CompiledFunction; the Python class `Function` is the call cache (tf.function).
//
// Gradients, the TF way: when an active tape tracks one of the call's inputs (or a variable the
// function reads), the call runs a forward plan that also returns the intermediate values the
// backward function reads, and is recorded as one "PartitionedCall" tape entry holding them. Its
// gradient runs the backward function: a graph taking the gradients of the outputs and the saved
// values, returning the gradients of the inputs, made once per function by differentiating the
// traced graph symbolically (autodiff/symbolic_gradients.h) and cutting the gradient nodes out. The
// backward function is a CompiledFunction too, so its call is recorded by enclosing tapes (higher
// derivatives).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graphfn/ir/graph.h"
#include "graphfn/passes/pass_manager.h"
#include "graphfn/runtime/plan.h"

namespace graphfn {

class CompiledFunction {
 public:
  // Compiles an optimized copy of `graph` into the function's plan; `name` names it in errors.
  static Status create(std::shared_ptr<const Graph> graph, const std::string& name, const OptimizerOptions& options,
                       std::shared_ptr<const CompiledFunction>* out);

  const std::shared_ptr<const Plan>& plan() const { return plan_; }
  const Graph& graph() const { return *graph_; }
  const std::string& name() const { return name_; }

  // Runs the function; records the call on the active tapes that track an input or a captured
  // variable (their handles are the entry's inputs after the arguments). The recorded call's
  // gradient is built for the inputs the tapes track (computing no other input's gradient).
  Status call(const Tensor* inputs, int num_inputs, std::vector<Tensor>* outputs) const;

  // Whether call() could record on a tape: a tape is active and an input or a captured handle
  // carries a tensor id. Tapes know tensors by id, so a call whose tensors have none records on
  // no tape: an outer tape that needs nothing from the call costs this check, not a walk.
  bool may_record(const Tensor* inputs, int num_inputs) const;
  bool may_record(const Tensor* const* inputs, int num_inputs) const;
  // call() for a caller that found may_record() false: runs the plan, records on no tape. The
  // inputs are read in place.
  Status call_unrecorded(const Tensor* const* inputs, int num_inputs, std::vector<Tensor>* outputs) const;

  // How many times the gradient was built (once, on the first recorded call; for tests).
  int num_gradient_builds() const;

  struct Backward;
  struct Gradient;

 private:
  Status gradient(const std::vector<bool>& tracked, std::shared_ptr<const Gradient>* out) const;

  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const Plan> plan_;
  std::string name_;
  OptimizerOptions options_;
  std::vector<Endpoint> captured_;         // one resource Const per variable the graph reads
  std::vector<Tensor> captured_handles_;   // their handles
  mutable std::mutex mu_;
  // Built on the first call recorded with each set of tracked inputs.
  mutable std::map<std::vector<bool>, std::shared_ptr<const Gradient>> gradients_;
  mutable int gradient_builds_ = 0;
};

}  // namespace graphfn
