#include "graphfn/runtime/plan.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <optional>

#include "graphfn/core/dataset_resource.h"
#include "graphfn/core/inter_op_pool.h"
#include "graphfn/core/tensor_list.h"
#include "graphfn/core/thread_pool.h"
#include "graphfn/ir/op_validation.h"
#include "graphfn/kernels/deferred_output.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/eager.h"
#include "graphfn/runtime/interrupt.h"

namespace graphfn {
namespace {

// Out of line: the callers below stay small enough to inline into the loops.
__attribute__((noinline)) Status not_a_scalar(const Tensor& t) {
  return errors::InvalidArgument("The second input must be a scalar, but it has shape ", t.shape().to_string());
}

// An If predicate or While condition (a bool, checked when the plan is built): TF's lowered
// control flow (Switch) wants exactly one element.
inline Status truth_value(const Tensor& t, bool* value) {
  if (t.num_elements() != 1) return not_a_scalar(t);
  *value = *t.data<bool>();
  return Status::OK();
}

// TF rejects a non-bool predicate when it lowers If/While to Switch/LoopCond nodes.
Status check_bool(DType dt, const char* input, const std::string& node, const char* op_text,
                  const std::string& function) {
  if (dt == DType::kBool) return Status::OK();
  return errors::InvalidArgument("Input '", input, "' passed ", dtype_tf_string(dt),
                                 " expected bool while building NodeDef '", node, "' using Op<name=", op_text,
                                 "> [Op:", function, "]");
}

// Compiles the functions of the given attrs (each a func or a list(func)), in order.
Status compile_subgraphs(const Node& node, std::initializer_list<const char*> attrs,
                         std::vector<std::shared_ptr<const Plan>>* out, const std::string& name) {
  for (const char* attr : attrs) {
    const AttrValue* value = node.attrs.find(attr);
    if (!value) return errors::Internal("node ", node.name, " has no ", attr, " function");
    Status s;
    for_each_func(*value, [&](const FuncAttr& f) {
      std::shared_ptr<const Plan> plan;
      if (s.ok()) s = f.graph ? Plan::build(*f.graph, &plan, name) : errors::Internal("function without a graph");
      out->push_back(std::move(plan));
    });
    GRAPHFN_RETURN_IF_ERROR(s);
  }
  return out->empty() ? errors::Internal("node ", node.name, " has no functions") : Status::OK();
}

// The kernel alone, on the step's traced output shapes (no shape function).
template <typename Step>
Status run_static(const Step& step, const Tensor* const* inputs, int n, Tensor* outputs) {
  KernelContext kc{*step.op, inputs, n, step.attrs, step.type_attrs, step.output_dtypes, step.output_shapes,
                   outputs, step.num_outputs, &step, step.prepared.get()};
  try {
    return step.kernel(kc);
  } catch (const std::bad_alloc&) {
    return kernel_out_of_memory(step.output_dtypes, step.output_shapes);
  }
}

// A string tensor whose strings are all short. Out of line: worth_keeping, which runs after
// every step, inlines into the loop.
__attribute__((noinline)) bool short_strings(const Tensor& t) {
  if (t.dtype() != DType::kString) return false;
  constexpr size_t kShortString = 1024;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    if (t.data<std::string>()[i].capacity() > kShortString) return false;
  }
  return true;
}

// A tensor to leave in its slot after its last reader, for the step that fills the slot to
// overwrite next time: nothing else holds it (the frame keeps no one else's tensor) and it is
// small (a loop's scalars and short strings; the frame keeps no memory to speak of).
inline bool worth_keeping(const Tensor& t) {
  const std::shared_ptr<Buffer>& buffer = t.buffer();
  if (!buffer || buffer.use_count() != 1 || buffer->bytes() > Buffer::kInlineBytes) return false;
  return buffer->recyclable() || short_strings(t);
}

bool reads(const Node& node, int argument) {
  for (const Endpoint& in : node.inputs) {
    if (in.node == argument) return true;
  }
  return false;
}

// Loop variables nobody observes, typically the loop counter of a While without
// maximum_iterations: the While's output k is read by no step that runs and is no result, the
// cond does not read variable k, and the body computes nothing else from it. Their body results
// become the variables themselves (passed through, nothing to hand over), so the steps that only
// advanced them are pruned from the body plan. Returns whether any variable was dropped.
bool drop_unobserved_loop_vars(const Graph& outer, const std::vector<bool>& outer_needed,
                               const std::vector<Endpoint>& outer_results, int while_node, const Graph& cond,
                               const Graph& body, std::vector<Endpoint>* body_results) {
  const int n = static_cast<int>(body.arguments.size());
  if (static_cast<int>(cond.arguments.size()) != n || static_cast<int>(body_results->size()) != n) return false;
  std::vector<bool> observed(n, false);
  for (int i = 0; i < outer.num_nodes(); ++i) {
    if (!outer_needed[i]) continue;
    for (const Endpoint& in : outer.node(i).inputs) {
      if (in.node == while_node && in.index < n) observed[in.index] = true;
    }
  }
  for (const Endpoint& r : outer_results) {
    if (r.node == while_node && r.index < n) observed[r.index] = true;
  }
  bool dropped = false;
  for (int k = 0; k < n; ++k) {
    if (observed[k]) continue;
    const int cond_arg = cond.arguments[k];
    bool read = false;
    for (int i = 0; i < cond.num_nodes() && !read; ++i) read = reads(cond.node(i), cond_arg);
    for (const Endpoint& r : cond.results) read = read || r.node == cond_arg;
    if (read) continue;
    std::vector<Endpoint> candidate = *body_results;
    const int body_arg = body.arguments[k];
    candidate[k] = Endpoint{body_arg, 0};
    if (candidate == *body_results) continue;  // already passed through
    const std::vector<bool> needed = needed_nodes(body, candidate);
    for (int i = 0; i < body.num_nodes() && !read; ++i) read = needed[i] && reads(body.node(i), body_arg);
    for (int j = 0; j < n && !read; ++j) read = j != k && candidate[j].node == body_arg;
    if (read) continue;
    *body_results = std::move(candidate);
    dropped = true;
  }
  return dropped;
}

}  // namespace

Status Plan::build(const Graph& graph, std::shared_ptr<const Plan>* out, const std::string& name) {
  return build(graph, graph.arguments, graph.results, out, name);
}

Status Plan::build(const Graph& graph, const std::vector<int>& arguments, const std::vector<Endpoint>& results,
                   std::shared_ptr<const Plan>* out, const std::string& name) {
  static std::atomic<uint64_t> serials{0};
  auto plan = std::make_shared<Plan>();
  plan->name_ = name;
  plan->serial_ = ++serials;
  std::vector<int> first_slot(graph.num_nodes());
  for (int i = 0; i < graph.num_nodes(); ++i) {
    first_slot[i] = plan->num_slots_;
    plan->num_slots_ += static_cast<int>(graph.node(i).output_dtypes.size());
  }
  const std::vector<bool> needed = needed_nodes(graph, results);  // non-strict: nothing else runs
  // Where each output is read from: its own slot, a feed, or (an Identity) its input's place.
  std::vector<int> ref(plan->num_slots_);
  for (int slot = 0; slot < plan->num_slots_; ++slot) ref[slot] = slot;
  auto ref_of = [&](const Endpoint& e) { return ref[first_slot[e.node] + e.index]; };
  std::vector<bool> is_argument(graph.num_nodes(), false);
  std::vector<int> step_nodes;  // each step's node
  for (int arg : arguments) {
    is_argument[arg] = true;
    ref[first_slot[arg]] = -1 - plan->num_feeds_++;
    plan->feed_dtypes_.push_back(graph.node(arg).output_dtypes[0]);
    plan->feed_shapes_.push_back(graph.node(arg).output_shapes[0]);
  }
  for (int i = 0; i < graph.num_nodes(); ++i) {
    const Node& node = graph.node(i);
    if (!needed[i] || is_argument[i]) continue;
    if (const Tensor* value = node.const_value()) {
      plan->constants_.emplace_back(first_slot[i], *value);
      continue;
    }
    if (node.op->name == "Identity" && node.inputs.size() == 1) {
      ref[first_slot[i]] = ref_of(node.inputs[0]);  // nothing to run: readers read the input
      continue;
    }
    // Graphs reach plans from tracing, files and passes: the one op-call check comes first.
    std::vector<DType> input_dtypes;
    for (const Endpoint& in : node.inputs) input_dtypes.push_back(graph.dtype(in));
    GRAPHFN_RETURN_IF_ERROR(validate_op_call(*node.op, input_dtypes.data(), static_cast<int>(input_dtypes.size()),
                                             node.attrs));
    Step step;
    step.op = node.op;
    step.node_name = node.name;
    step.defined_at = node.defined_at;
    step.attrs = node.attrs;
    for (size_t t = 0; t < node.type_attrs.size(); ++t) step.type_attrs[t] = node.type_attrs[t];
    for (const Endpoint& in : node.inputs) step.input_slots.push_back(ref_of(in));
    step.first_output_slot = first_slot[i];
    step.num_outputs = static_cast<int>(node.output_dtypes.size());
    if (node.op->control_flow != OpDef::ControlFlow::kNone) {
      const OpDef::ControlFlow kind = node.op->control_flow;
      const bool is_if = kind == OpDef::ControlFlow::kIf;
      if (kind == OpDef::ControlFlow::kCase) {
        GRAPHFN_RETURN_IF_ERROR(compile_subgraphs(node, {"branches"}, &step.sub_plans, name));
      } else {
        GRAPHFN_RETURN_IF_ERROR(compile_subgraphs(node, {is_if ? "then_branch" : "cond", is_if ? "else_branch" : "body"},
                                                  &step.sub_plans, name));
      }
      step.pred_node_name = node.name + (kind == OpDef::ControlFlow::kWhile ? "/LoopCond" : "/switch_pred");
      if (kind == OpDef::ControlFlow::kCase) {
        // branch_index is int32 by the op's signature.
      } else if (is_if) {
        GRAPHFN_RETURN_IF_ERROR(check_bool(node.type_attrs[0], "pred", step.pred_node_name + "/_2",
                                           "Switch; signature=data:T, pred:bool -> output_false:T, output_true:T; "
                                           "attr=T:type", name));
      } else {
        const Graph& cond = *node.attrs.get_func("cond")->graph;
        GRAPHFN_RETURN_IF_ERROR(check_bool(cond.dtype(cond.results[0]), "input", step.pred_node_name + "/_8",
                                           "LoopCond; signature=input:bool -> output:bool", name));
        const Graph& body = *node.attrs.get_func("body")->graph;
        for (size_t k = node.inputs.size(); k < body.results.size(); ++k) {
          step.accumulated_dtypes.push_back(body.dtype(body.results[k]));
          step.accumulated_shapes.push_back(body.shape(body.results[k]));
        }
        step.iterator_cond_var = iterator_condition_var(*step.sub_plans[0]);
        if (step.accumulated_dtypes.empty()) {
          std::vector<Endpoint> body_results = body.results;
          if (drop_unobserved_loop_vars(graph, needed, results, i, cond, body, &body_results)) {
            GRAPHFN_RETURN_IF_ERROR(Plan::build(body, body.arguments, body_results, &step.sub_plans[1], name));
          }
        }
      }
      plan->brief_ = plan->brief_ && kind != OpDef::ControlFlow::kWhile;
      for (const auto& sub : step.sub_plans) {
        plan->brief_ = plan->brief_ && sub->brief_;
        plan->has_stateful_steps_ = plan->has_stateful_steps_ || sub->has_stateful_steps_;
        plan->touched_elements_ = std::min(plan->touched_elements_ + sub->touched_elements_, kBriefElements + 1);
      }
      step.first_sub = plan->num_sub_frames_;
      plan->num_sub_frames_ += static_cast<int>(step.sub_plans.size());
      plan->steps_.push_back(std::move(step));
      step_nodes.push_back(i);
      continue;
    }
    GRAPHFN_RETURN_IF_ERROR(find_kernel(*node.op, step.type_attrs, &step.kernel));
    plan->has_stateful_steps_ = plan->has_stateful_steps_ || node.op->stateful;
    if (node.op->prepare_attrs) step.prepared = node.op->prepare_attrs(node.attrs);
    plan->max_step_inputs_ = std::max(plan->max_step_inputs_, static_cast<int>(step.input_slots.size()));
    // Static only if the inputs' traced shapes were fully known too: then, with static feeds,
    // the run-time input shapes are exactly the traced ones (data-dependent shapes never are).
    // Ops with no outputs (tf.print, assign) count as static too: their shape functions only
    // check input shapes.
    step.static_outputs = node.output_shapes.size() == node.output_dtypes.size();
    for (const Shape& s : node.output_shapes) step.static_outputs = step.static_outputs && s.fully_defined();
    for (const Endpoint& in : node.inputs) step.static_outputs = step.static_outputs && graph.shape(in).fully_defined();
    if (step.static_outputs) {
      step.output_dtypes = node.output_dtypes;
      step.output_shapes = node.output_shapes;
      plan->has_static_steps_ = true;
      for (const Shape& s : node.output_shapes) plan->touch(s);
      for (const Endpoint& in : node.inputs) plan->touch(graph.shape(in));
    } else {
      plan->brief_ = false;
    }
    plan->steps_.push_back(std::move(step));
    step_nodes.push_back(i);
  }
  plan->brief_ = plan->brief_ && plan->touched_elements_ <= kBriefElements;
  for (const Endpoint& e : results) plan->result_slots_.push_back(ref_of(e));
  plan->schedule_releases();
  // Results computed by steps are cleared after each run (the cached frame keeps no caller
  // data) and may be moved out; constants stay, feeds belong to the caller.
  std::vector<bool> constant(plan->num_slots_, false);
  for (const auto& [slot, value] : plan->constants_) constant[slot] = true;
  std::vector<int> uses(plan->num_slots_, 0);
  for (int r : plan->result_slots_) {
    if (r >= 0) ++uses[r];
  }
  for (int r : plan->result_slots_) {
    const bool computed = r >= 0 && !constant[r];
    if (computed && uses[r] == 1) plan->transient_slots_.push_back(r);
    plan->result_movable_.push_back(computed && uses[r] == 1);
    const int position = static_cast<int>(plan->result_movable_.size()) - 1;
    plan->results_read_feeds_ = plan->results_read_feeds_ || (r < 0 && r != -1 - position);
  }
  plan->plan_parallel(graph, step_nodes);
  *out = std::move(plan);
  return Status::OK();
}

void Plan::schedule_releases() {
  // Only slots that steps fill: constants and feeds stay for the frame's later runs (loop
  // iterations), results are returned.
  std::vector<bool> releasable(num_slots_, false);
  for (const Step& step : steps_) {
    for (int k = 0; k < step.num_outputs; ++k) releasable[step.first_output_slot + k] = true;
  }
  constexpr int kNever = -1;
  std::vector<int> last_reader(num_slots_, kNever);
  for (int i = 0; i < num_steps(); ++i) {
    for (int slot : steps_[i].input_slots) {
      if (slot >= 0) last_reader[slot] = i;
    }
  }
  for (int slot : result_slots_) {
    if (slot >= 0) releasable[slot] = false;
  }
  for (int i = 0; i < num_steps(); ++i) {
    Step& step = steps_[i];
    auto release = [&](int slot) {
      if (!releasable[slot]) return;
      releasable[slot] = false;  // once, though a step may read a slot twice
      step.release_after.push_back(slot);
    };
    for (int slot : step.input_slots) {
      if (slot >= 0 && last_reader[slot] == i) release(slot);
    }
    for (int k = 0; k < step.num_outputs; ++k) {
      if (last_reader[step.first_output_slot + k] == kNever) release(step.first_output_slot + k);
    }
  }
}

void Plan::init_frame(Frame& frame) const {
  frame.slots.assign(num_slots_, Tensor());
  frame.inputs.assign(max_step_inputs_, nullptr);
  for (const auto& [slot, value] : constants_) frame.slots[slot] = value;
  frame.sub.clear();
  frame.sub.resize(num_sub_frames_);
  for (const Step& step : steps_) {
    for (size_t k = 0; k < step.sub_plans.size(); ++k) {
      auto sub = std::make_unique<Frame>();
      step.sub_plans[k]->init_frame(*sub);
      frame.sub[step.first_sub + k] = std::move(sub);
    }
  }
}

namespace {

// Each thread keeps the frame of the plan it ran last: calling the same function again reuses
// its slots (constants already placed) instead of allocating a frame per call. The record is
// trivially constructed and destroyed, so reading it costs no thread-local guard; FrameOwner,
// touched only when the frame changes, frees the last one when the thread ends.
struct CachedFrame {
  uint64_t serial;
  bool busy;  // a kernel that runs this plan again (reentrancy) gets a fresh frame
  Plan::Frame* frame;
};
thread_local CachedFrame cached_frame{0, false, nullptr};

struct FrameOwner {
  std::unique_ptr<Plan::Frame> frame;
  ~FrameOwner() { cached_frame = CachedFrame{0, false, nullptr}; }
};

void replace_cached_frame(std::unique_ptr<Plan::Frame> frame) {
  thread_local FrameOwner owner;
  cached_frame.frame = frame.get();
  owner.frame = std::move(frame);
}

}  // namespace

Status Plan::run(const Tensor* feeds, int num_feeds, std::vector<Tensor>* results) const {
  return run_leased(num_feeds, results, [&](Frame& frame) {
    if (static_cast<int>(frame.feed_ptrs.size()) != num_feeds) frame.feed_ptrs.resize(num_feeds);
    for (int i = 0; i < num_feeds; ++i) frame.feed_ptrs[i] = &feeds[i];
    return frame.feed_ptrs.data();
  });
}

Status Plan::run_in_place(const Tensor* const* feeds, int num_feeds, std::vector<Tensor>* results) const {
  return run_leased(num_feeds, results, [feeds](Frame&) { return feeds; });
}

template <typename FeedPointers>
Status Plan::run_leased(int num_feeds, std::vector<Tensor>* results, FeedPointers feed_pointers) const {
  note_kernel_run();  // a function call starts the runtime, as TF's first op initialises its context
  if (num_feeds != num_feeds_) {
    return errors::InvalidArgument(name_, " expects ", num_feeds_, " inputs, got ", num_feeds);
  }
  CachedFrame& cached = cached_frame;
  std::unique_ptr<Frame> fresh;
  Frame* frame_ptr;
  const bool reuse = !cached.busy;
  if (reuse) {
    if (cached.serial != serial_ || !cached.frame) {
      replace_cached_frame(std::make_unique<Frame>());
      init_frame(*cached.frame);
      cached.serial = serial_;
    }
    cached.busy = true;
    frame_ptr = cached.frame;
  } else {
    fresh = std::make_unique<Frame>();
    init_frame(*fresh);
    frame_ptr = fresh.get();
  }
  Frame& frame = *frame_ptr;
  struct Release {
    CachedFrame& cached;
    Frame& frame;
    const Plan& plan;
    bool reuse;
    ~Release() {
      if (!reuse) return;
      // Drop the results left behind (an error stopped the run), so the cached frame holds no
      // memory the caller expects freed.
      for (int slot : plan.transient_slots_) frame.slots[slot] = Tensor();
      frame.feeds = nullptr;
      cached.busy = false;
    }
  } release{cached, frame, *this, reuse};
  const Tensor* const* feeds = feed_pointers(frame);
  for (int i = 0; i < num_feeds; ++i) {
    if (feeds[i]->dtype() != feed_dtypes_[i]) {
      return errors::InvalidArgument("cannot compute ", name_, " as input #", i, "(zero-based) was expected to be a ",
                                     dtype_tf_string(feed_dtypes_[i]), " tensor but is a ",
                                     dtype_tf_string(feeds[i]->dtype()), " tensor [Op:", name_, "]");
    }
  }
  const std::string* failed = nullptr;
  // tf.print's writes go out together when the run ends. Only stateful ops write (tf.print, and
  // Python callbacks that print eagerly): a plan without them skips the scope.
  std::optional<DeferredOutputScope> output;
  if (has_stateful_steps_) output.emplace();
  Status s = execute_with(frame, feeds, num_feeds, &failed);
  Status written = output ? output->close() : Status::OK();
  if (!s.ok()) {
    return graph_execution_error(s, failed);
  }
  if (!written.ok()) return written;
  results->clear();
  for (size_t i = 0; i < result_slots_.size(); ++i) results->push_back(take_result(frame, static_cast<int>(i)));
  return Status::OK();
}

void Plan::touch(const Shape& shape) {
  int64_t n = 0;
  if (!checked_num_elements(shape, &n).ok()) n = kBriefElements + 1;
  touched_elements_ = std::min(touched_elements_ + n, kBriefElements + 1);
}

bool Plan::runs_briefly(const Tensor* feeds, int num_feeds) const {
  if (!brief_ || num_feeds != num_feeds_) return false;
  for (int i = 0; i < num_feeds; ++i) {
    if (feeds[i].shape() != feed_shapes_[i]) return false;
  }
  return true;
}

bool Plan::runs_briefly_in_place(const Tensor* const* feeds, int num_feeds) const {
  if (!brief_ || num_feeds != num_feeds_) return false;
  for (int i = 0; i < num_feeds; ++i) {
    if (feeds[i]->shape() != feed_shapes_[i]) return false;
  }
  return true;
}

Status Plan::execute_with(Frame& frame, const Tensor* const* feeds, int n, const std::string** failed_node) const {
  frame.feeds = feeds;
  // Static shapes hold when every feed has exactly its traced (fully known) shape.
  bool feeds_static = has_static_steps_;
  for (int i = 0; feeds_static && i < n; ++i) feeds_static = feeds[i]->shape() == feed_shapes_[i];
  return execute(frame, feeds_static, failed_node);
}

inline void Plan::release(Frame& frame, int slot) {
  // Intermediates are dropped after their last reader, so a chain of ops keeps only a few
  // buffers alive; the last one dropped is offered to the next kernel, whose allocate_output
  // reuses an unshared buffer of its dtype and shape (no malloc in a chain of same-shaped ops).
  // Small ones (a loop's scalars) stay in their slot for the step that fills it next time.
  Tensor& t = frame.slots[slot];
  if (!t.buffer() || worth_keeping(t)) return;
  // A shared buffer is no use to the next kernel (it cannot overwrite it): just let go.
  if (t.buffer().use_count() == 1) frame.spare.swap(t);
  t = Tensor();
}

void Plan::release_alone(Frame& frame, int slot) {
  Tensor& t = frame.slots[slot];
  if (t.buffer() && !worth_keeping(t)) t = Tensor();
}

// One step as a parallel run executes it: the inputs' pointers on the stack (threads share the
// frame), no spare buffer, no releases (the scheduler counts readers).
Status Plan::run_step(const Step& step, Frame& frame, bool feeds_static, const std::string** failed_node) const {
  if (step.first_sub >= 0) {
    return step.op->control_flow == OpDef::ControlFlow::kWhile ? run_while(step, frame, failed_node)
                                                                : run_branch(step, frame, failed_node);
  }
  constexpr int kOnStack = 16;
  const Tensor* on_stack[kOnStack];
  std::vector<const Tensor*> wide;
  const int n = static_cast<int>(step.input_slots.size());
  const Tensor** inputs = on_stack;
  if (n > kOnStack) {
    wide.resize(n);
    inputs = wide.data();
  }
  for (int j = 0; j < n; ++j) inputs[j] = &resolve(frame, step.input_slots[j]);
  Tensor* outputs = frame.slots.data() + step.first_output_slot;
  Status s = feeds_static && step.static_outputs
                 ? run_static(step, inputs, n, outputs)
                 : run_kernel(*step.op, step.kernel, inputs, n, step.attrs, step.type_attrs, outputs, step.num_outputs,
                              &step, step.prepared.get());
  if (!s.ok()) {
    *failed_node = &step.node_name;
    return s;
  }
  for (int k = 0; k < step.num_outputs; ++k) outputs[k].clear_id();
  return Status::OK();
}

Status Plan::execute(Frame& frame, bool feeds_static, const std::string** failed_node) const {
  // Decided when the plan was built: a small plan pays one test of a null pointer here.
  if (parallel_ != nullptr && inter_op_parallelism() > 1) return execute_parallel(frame, feeds_static, failed_node);
  const Tensor** inputs = frame.inputs.data();
  for (const Step& step : steps_) {
    if (Status s = check_interrupt(); !s.ok()) {  // Ctrl-C: before every step, so loops stop within an iteration
      *failed_node = &step.node_name;
      frame.spare = Tensor();
      return s;
    }
    if (step.first_sub >= 0) {
      Status s = step.op->control_flow == OpDef::ControlFlow::kWhile ? run_while(step, frame, failed_node)
                                                                      : run_branch(step, frame, failed_node);
      if (!s.ok()) {
        frame.spare = Tensor();
        return s;
      }
      for (int slot : step.release_after) release(frame, slot);
      continue;
    }
    const int n = static_cast<int>(step.input_slots.size());
    for (int j = 0; j < n; ++j) inputs[j] = &resolve(frame, step.input_slots[j]);
    // The kernel writes straight into the output slots. Each holds what the step left there
    // last time (in a loop: the same dtype and shape), which allocate_output overwrites when
    // nothing else holds it; an empty first output gets the spare instead.
    Tensor* outputs = frame.slots.data() + step.first_output_slot;
    if (step.num_outputs > 0 && !outputs[0].buffer() && frame.spare.buffer()) outputs[0] = std::move(frame.spare);
    Status s = feeds_static && step.static_outputs
            ? run_static(step, inputs, n, outputs)
            : run_kernel(*step.op, step.kernel, inputs, n, step.attrs, step.type_attrs, outputs, step.num_outputs,
                         &step, step.prepared.get());
    if (!s.ok()) {
      *failed_node = &step.node_name;
      frame.spare = Tensor();
      return s;
    }
    for (int k = 0; k < step.num_outputs; ++k) outputs[k].clear_id();  // a reused tensor is a new one
    for (int slot : step.release_after) release(frame, slot);
  }
  // The frame outlives the run: no large buffer stays behind.
  if (frame.spare.buffer()) frame.spare = Tensor();
  return Status::OK();
}

Status Plan::run_branch(const Step& step, Frame& frame, const std::string** failed_node) const {
  // If: then (0) or else (1). Case: the indexed branch; an index out of range takes the last.
  const Tensor& selector = resolve(frame, step.input_slots[0]);
  int taken = 0;
  if (step.op->control_flow == OpDef::ControlFlow::kIf) {
    bool value = false;
    Status s = truth_value(selector, &value);
    if (!s.ok()) {
      *failed_node = &step.pred_node_name;
      return s;
    }
    taken = value ? 0 : 1;
  } else {
    if (selector.num_elements() != 1) {
      *failed_node = &step.pred_node_name;
      return errors::InvalidArgument("branch_index must be a scalar, but it has shape ", selector.shape().to_string());
    }
    const int32_t index = *selector.data<int32_t>();
    const int n = static_cast<int>(step.sub_plans.size());
    taken = index >= 0 && index < n ? index : n - 1;
  }
  const Plan& branch = *step.sub_plans[taken];
  Frame& sub = *frame.sub[step.first_sub + taken];
  // The branch's feeds are the node's inputs after the predicate.
  std::vector<const Tensor*>& feeds = frame.sub_feeds;
  feeds.clear();
  for (size_t i = 1; i < step.input_slots.size(); ++i) feeds.push_back(&resolve(frame, step.input_slots[i]));
  GRAPHFN_RETURN_IF_ERROR(branch.execute_with(sub, feeds.data(), static_cast<int>(feeds.size()), failed_node));
  for (int k = 0; k < step.num_outputs; ++k) branch.hand_over(sub, k, frame.slots[step.first_output_slot + k]);
  return Status::OK();
}

int Plan::iterator_condition_var(const Plan& cond) {
  if (cond.steps_.size() != 1 || cond.result_slots_.size() != 1) return -1;
  const Step& only = cond.steps_[0];
  if (only.op->name != "GraphfnIteratorHasNext" || only.input_slots.size() != 1 || only.input_slots[0] >= 0 ||
      cond.result_slots_[0] != only.first_output_slot) {
    return -1;
  }
  return -1 - only.input_slots[0];
}

namespace {

// The iterator a loop variable holds, or null (then the cond plan runs and reports the error).
ElementIteratorResource* element_iterator(const Tensor& handle) {
  if (handle.dtype() != DType::kResource || handle.num_elements() != 1) return nullptr;
  return dynamic_cast<ElementIteratorResource*>(handle.data<ResourceHandle>()->get());
}

}  // namespace

Status Plan::run_while(const Step& step, Frame& frame, const std::string** failed_node) const {
  // A loop's start and end write tf.print's deferred output: what was printed before shows
  // while the loop works, and the loop's last lines before what comes after it.
  auto flush = [&] {
    Status s = flush_output();
    if (!s.ok()) *failed_node = &step.node_name;
    return s;
  };
  GRAPHFN_RETURN_IF_ERROR(flush());
  const Plan& cond = *step.sub_plans[0];
  const Plan& body = *step.sub_plans[1];
  Frame& cond_frame = *frame.sub[step.first_sub];
  Frame& body_frame = *frame.sub[step.first_sub + 1];
  // The loop state is copied out of the body's results each iteration (a result may be a feed
  // slot the next iteration overwrites); the vectors are the frame's, reused: no bookkeeping is
  // allocated per iteration.
  const int n = static_cast<int>(step.input_slots.size());
  std::vector<Tensor>& state = frame.loop_vars;
  std::vector<const Tensor*>& feeds = frame.sub_feeds;
  state.resize(n);
  feeds.resize(n);
  for (int i = 0; i < n; ++i) {
    state[i] = resolve(frame, step.input_slots[i]);
    feeds[i] = &state[i];
  }
  std::vector<Tensor>& next = frame.next_vars;
  // Values saved per iteration: made per run, only by loops a gradient rewrote.
  const int num_accumulated = static_cast<int>(step.accumulated_dtypes.size());
  std::vector<std::shared_ptr<TensorList>> accumulated(num_accumulated);
  for (int a = 0; a < num_accumulated; ++a) {
    accumulated[a] = std::make_shared<TensorList>();
    accumulated[a]->element_dtype = step.accumulated_dtypes[a];
    accumulated[a]->element_shape = step.accumulated_shapes[a];
  }
  // `for x in dataset`: the iterator is a loop invariant, asked directly whether an element
  // follows (what the cond's one GraphfnIteratorHasNext would do, without running a plan).
  const int iterator_var = step.iterator_cond_var;
  ElementIteratorResource* iterator = iterator_var >= 0 && iterator_var < n && body.passes_through(iterator_var)
                                          ? element_iterator(state[iterator_var])
                                          : nullptr;
  for (;;) {
    bool keep_going = false;
    if (iterator) {
      Status s = check_interrupt();  // Ctrl-C stops the loop here as it would in the cond plan
      if (s.ok()) s = iterator->has_next(&keep_going);
      if (!s.ok()) {
        *failed_node = &cond.steps_[0].node_name;
        return s;
      }
    } else {
      GRAPHFN_RETURN_IF_ERROR(cond.execute_with(cond_frame, feeds.data(), n, failed_node));
      Status s = truth_value(cond.result(cond_frame, 0), &keep_going);
      if (!s.ok()) {
        *failed_node = &step.pred_node_name;
        return s;
      }
    }
    if (!keep_going) break;
    GRAPHFN_RETURN_IF_ERROR(body.execute_with(body_frame, feeds.data(), n, failed_node));
    // Saved first: a saved value may be a feed (the state replaced below).
    for (int a = 0; a < num_accumulated; ++a) accumulated[a]->items.push_back(body.result(body_frame, n + a));
    // A loop invariant (result i is feed i) stays as it is.
    if (!body.results_read_feeds_) {
      for (int i = 0; i < n; ++i) {
        if (!body.passes_through(i)) body.hand_over(body_frame, i, state[i]);
      }
      continue;
    }
    // A result that is another feed reads the state being replaced: take them all first.
    next.resize(n);
    for (int i = 0; i < n; ++i) {
      if (!body.passes_through(i)) next[i] = body.take_result(body_frame, i);
    }
    for (int i = 0; i < n; ++i) {
      if (!body.passes_through(i)) state[i] = std::move(next[i]);
    }
  }
  for (int k = 0; k < n; ++k) frame.slots[step.first_output_slot + k] = std::move(state[k]);
  for (int a = 0; a < num_accumulated; ++a) frame.slots[step.first_output_slot + n + a] = make_list_tensor(accumulated[a]);
  return flush();
}

void Plan::hand_over(Frame& frame, int i, Tensor& to) const {
  if (!result_movable_[i]) {
    to = result(frame, i);
    return;
  }
  Tensor& slot = frame.slots[result_slots_[i]];
  if (worth_keeping(to)) {
    to.swap(slot);
  } else {
    to = std::move(slot);
    slot = Tensor();
  }
}

std::vector<std::string> Plan::step_names() const {
  std::vector<std::string> names;
  for (const Step& s : steps_) names.push_back(s.node_name);
  return names;
}

std::vector<std::string> Plan::step_ops() const {
  std::vector<std::string> ops;
  for (const Step& s : steps_) ops.push_back(s.op->name);
  return ops;
}

}  // namespace graphfn
