// Plan: a graph compiled for execution. Built once per concrete function: the nodes the results
// need (plus every stateful node: non-strict execution runs nothing else), in topological order,
// each step holding its kernel pointer, resolved type attrs and the slot numbers of its inputs
// and outputs. Constants are pre-placed in their slots. Running a plan is a flat loop.
//
// Control flow: an If or While node's subgraphs are compiled into sub-plans when the plan is
// built. If runs the taken branch's plan; While alternates its cond and body plans. A run keeps
// its scratch (slots, and the frames of sub-plans) in a Frame, reused across a loop's iterations.
//
// Inter-op parallelism: a plan whose independent steps hold enough work to overlap (estimated from
// the traced shapes when it is built) runs its steps by dependency counts on the calling thread and
// the inter-op pool (plan_parallel.cc); every other plan runs the flat loop, unchanged.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/attr_value.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"
#include "graphfn/ir/type_check.h"

namespace graphfn {

struct ParallelPlanRun;  // plan_parallel.cc

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
  // The same with the feeds given by pointer (read in place: they must outlive the run).
  Status run_in_place(const Tensor* const* feeds, int num_feeds, std::vector<Tensor>* results) const;
  // True when a run with these feeds is known to be brief: no loop, every step's shapes static
  // (the feeds at their traced shapes) and few elements read and written in all. A caller
  // holding the GIL keeps it for such a run: releasing and retaking it costs more than the run.
  bool runs_briefly(const Tensor* feeds, int num_feeds) const;
  bool runs_briefly_in_place(const Tensor* const* feeds, int num_feeds) const;

  int num_steps() const { return static_cast<int>(steps_.size()); }
  // Whether runs may execute independent steps at once (decided when the plan is built; they do
  // when the inter-op pool has more than one thread).
  bool runs_in_parallel() const { return parallel_ != nullptr; }
  // Names of the nodes that run, in order (for tests and debugging).
  std::vector<std::string> step_names() const;
  std::vector<std::string> step_ops() const;  // the op each step runs

  // The scratch of one run: slots (constants placed once) and, per control-flow step, the frames
  // of its sub-plans. Made once per run of the outermost plan, reused by every loop iteration.
  // Feeds are not copied into slots: steps read them through `feeds` (the caller's tensors, a
  // loop's state, the enclosing frame's slots), so entering a branch or a loop iteration costs
  // no reference counting.
  struct Frame {
    std::vector<Tensor> slots;
    const Tensor* const* feeds = nullptr;
    std::vector<const Tensor*> feed_ptrs;  // the outermost run's feeds
    std::vector<const Tensor*> inputs;     // a kernel step's, sized once for the widest step
    std::vector<const Tensor*> sub_feeds;  // a branch's feeds, a loop's state
    std::vector<Tensor> loop_vars;
    std::vector<Tensor> next_vars;
    Tensor spare;  // a released intermediate, offered to the next step that allocates an output
    std::vector<std::unique_ptr<Frame>> sub;  // by Step::first_sub
    std::shared_ptr<ParallelPlanRun> parallel_run;  // a parallel plan's scheduling state
  };

 private:
  struct Step {
    const OpDef* op;
    KernelFn kernel;
    std::string node_name;
    std::shared_ptr<const SourceStack> defined_at;  // for errors (plan_errors.cc)
    AttrMap attrs;
    std::shared_ptr<const void> prepared;  // the kernel's view of attrs (OpDef::prepare_attrs)
    DType type_attrs[kMaxTypeAttrs];
    std::vector<int> input_slots;  // slot refs: a slot (>= 0) or feed f (-1 - f)
    int first_output_slot;
    int num_outputs = 0;
    // Slots whose last reader is this step, and outputs nothing reads: cleared after it runs.
    std::vector<int> release_after;
    // The traced output dtypes and shapes, when all shapes were fully known: with the feeds at
    // their traced shapes, the kernel runs without the shape function.
    bool static_outputs = false;
    std::vector<DType> output_dtypes;
    std::vector<Shape> output_shapes;
    // If: {then, else}; Case: the branches; While: {cond, body}. Frames: Frame::sub[first_sub + i].
    std::vector<std::shared_ptr<const Plan>> sub_plans;
    int first_sub = -1;
    std::string pred_node_name;  // named in predicate errors, as TF's lowered Switch/LoopCond
    // While: body results past the loop variables are saved every iteration (for the loop's
    // gradient) and output as TensorLists after the loop variables.
    std::vector<DType> accumulated_dtypes;
    std::vector<Shape> accumulated_shapes;
    // While over a tf.data iterator (`for x in dataset`): the cond is one GraphfnIteratorHasNext
    // of this loop variable, which run_while asks the iterator directly (no cond plan per element).
    int iterator_cond_var = -1;
  };

  void schedule_releases();
  // plan_parallel.cc: the estimated work of each step and, when independent steps hold enough of
  // it to overlap, the dependency counts parallel runs schedule by. `step_nodes`: each step's node.
  struct ParallelSchedule;
  void plan_parallel(const Graph& graph, const std::vector<int>& step_nodes);
  Status execute_parallel(Frame& frame, bool feeds_static, const std::string** failed_node) const;
  void run_parallel_steps(ParallelPlanRun& run, bool on_calling_thread) const;
  Status run_step(const Step& step, Frame& frame, bool feeds_static, const std::string** failed_node) const;
  // About the elements a few microseconds of elementwise work touch (two 64x64 matrices).
  static constexpr int64_t kBriefElements = 1 << 13;
  void touch(const Shape& shape);  // counts a static step's input or output toward brief_
  // Error path (plan_errors.cc): TF's "Graph execution error" for a step's error `s`, naming the
  // node `failed` (a Step's node_name or pred_node_name, here or in a sub-plan) and where it was
  // defined.
  Status graph_execution_error(const Status& s, const std::string* failed) const;
  const SourceStack* defined_at_of(const std::string* failed) const;
  void init_frame(Frame& frame) const;
  // run(): leases this thread's cached frame (or a fresh one when it is busy), gets the feeds'
  // pointers from `feed_pointers(frame)`, runs and moves the results out.
  template <typename FeedPointers>
  Status run_leased(int num_feeds, std::vector<Tensor>* results, FeedPointers feed_pointers) const;
  static void release(Frame& frame, int slot);  // after the slot's last reader
  static void release_alone(Frame& frame, int slot);  // the same in a parallel run: no spare buffer
  // Runs the steps on a frame whose feed slots are filled. On error, *failed_node names the node
  // (inside a sub-plan for errors in a branch or body).
  Status execute(Frame& frame, bool feeds_static, const std::string** failed_node) const;
  Status run_branch(const Step& step, Frame& frame, const std::string** failed_node) const;  // If, Case
  Status run_while(const Step& step, Frame& frame, const std::string** failed_node) const;
  // Step::iterator_cond_var for a While's cond plan: the loop variable, or -1.
  static int iterator_condition_var(const Plan& cond);
  // Runs with `n` feeds (read in place; they must outlive the run); results stay in the frame.
  Status execute_with(Frame& frame, const Tensor* const* feeds, int n, const std::string** failed_node) const;
  static const Tensor& resolve(const Frame& frame, int ref) { return ref >= 0 ? frame.slots[ref] : *frame.feeds[-1 - ref]; }
  const Tensor& result(const Frame& frame, int i) const { return resolve(frame, result_slots_[i]); }
  bool passes_through(int i) const { return result_slots_[i] == -1 - i; }  // result i is feed i
  // Result i, moved out of the frame when its slot is a step's output (copied otherwise).
  Tensor take_result(Frame& frame, int i) const {
    return result_movable_[i] ? std::move(frame.slots[result_slots_[i]]) : result(frame, i);
  }
  // Result i into `to` (an If's output slot, a loop variable); what `to` held, when small, goes
  // to the result's slot, for the step that computes it to overwrite next time (a loop's scalars
  // then cost no allocation).
  void hand_over(Frame& frame, int i, Tensor& to) const;

  std::string name_;
  uint64_t serial_ = 0;  // unique per plan (a thread's cached frame belongs to one)
  std::vector<int> transient_slots_;  // emptied after a run: the cached frame keeps no caller data
  std::vector<Step> steps_;
  int num_slots_ = 0;
  int max_step_inputs_ = 0;  // Frame::inputs' size
  int num_sub_frames_ = 0;
  int num_feeds_ = 0;
  std::vector<DType> feed_dtypes_;
  std::vector<Shape> feed_shapes_;  // traced placeholder shapes (static steps assume them)
  bool has_static_steps_ = false;   // else feed shapes need no check
  bool has_stateful_steps_ = false; // here or in a sub-plan: only these may print
  bool brief_ = true;               // see runs_briefly()
  int64_t touched_elements_ = 0;    // elements every step reads and writes, if all are static
  std::vector<int> result_slots_;   // slot refs (a result may be a feed or a constant)
  std::vector<bool> result_movable_;
  bool results_read_feeds_ = false;  // some result i is feed j != i: a loop body takes results first
  std::vector<std::pair<int, Tensor>> constants_;  // (slot, value)
  double work_ns_ = 0;  // estimated single-thread time of a run (a loop's body: one iteration)
  std::shared_ptr<const ParallelSchedule> parallel_;  // null: the steps run in order
};

}  // namespace graphfn
