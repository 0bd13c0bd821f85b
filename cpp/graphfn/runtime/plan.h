// Plan: a graph compiled for execution. Built once per concrete function: the nodes the results
// need (plus every stateful node: non-strict execution runs nothing else), in topological order,
// each step holding its kernel pointer, resolved type attrs and the slot numbers of its inputs
// and outputs. Constants are pre-placed in their slots. Running a plan is a flat loop.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"
#include "graphfn/ir/type_check.h"

namespace graphfn {

class Plan {
 public:
  // Compiles `graph` for feeding graph.arguments and fetching graph.results. `name` names the
  // function in errors (TF's "__inference_f_12").
  static Status build(const Graph& graph, std::shared_ptr<const Plan>* out, const std::string& name = "graph");
  // Compiles for other feeds and fetches (e.g. evaluating one tensor with no feeds).
  static Status build(const Graph& graph, const std::vector<int>& arguments, const std::vector<Endpoint>& results,
                      std::shared_ptr<const Plan>* out, const std::string& name);

  // Runs the plan. Thread-safe: each call has its own slots. Errors name the failing node. Fed
  // dtypes must match; shapes are not checked against the traced ones (as in TF): every kernel
  // validates its actual inputs.
  Status run(const Tensor* feeds, int num_feeds, std::vector<Tensor>* results) const;

  int num_steps() const { return static_cast<int>(steps_.size()); }
  // Names of the nodes that run, in order (for tests and debugging).
  std::vector<std::string> step_names() const;

 private:
  struct Step {
    const OpDef* op;
    KernelFn kernel;
    std::string node_name;
    AttrMap attrs;
    DType type_attrs[kMaxTypeAttrs];
    std::vector<int> input_slots;
    int first_output_slot;
    int num_outputs;
    // Slots whose last reader is this step (and outputs nothing reads): cleared after it runs,
    // so intermediate buffers go back to the allocator while the plan runs and a chain of ops
    // keeps only a few alive.
    std::vector<int> release_after;
    // The traced output dtypes and shapes, when all shapes were fully known: with the feeds at
    // their traced shapes, the kernel runs without the shape function.
    bool static_outputs = false;
    std::vector<DType> output_dtypes;
    std::vector<Shape> output_shapes;
  };
  void schedule_releases();

  std::string name_;
  std::vector<Step> steps_;
  int num_slots_ = 0;
  std::vector<int> feed_slots_;
  std::vector<DType> feed_dtypes_;
  std::vector<Shape> feed_shapes_;  // traced placeholder shapes (static steps assume them)
  std::vector<int> result_slots_;
  std::vector<std::pair<int, Tensor>> constants_;  // (slot, value)
};

}  // namespace graphfn
