// Inter-op parallelism: a plan whose independent steps hold enough work runs them at once.
//
// When a plan is built, each step's work is estimated from its op and traced shapes (multiply-adds
// of products and convolutions, elements touched by everything else). If the work off the
// critical path (the total minus the longest chain of dependent steps) is worth a thread hand-off,
// the plan keeps a schedule: per step its predecessors' count and its successors. A run then
// counts down: a step whose predecessors are done is ready; the calling thread and up to
// inter_op_parallelism() - 1 workers of the inter-op pool take ready steps, lowest index first.
//
// Serial semantics are kept:
// - Edges are data inputs and control inputs, seen through the nodes a plan does not run
//   (Identity, constants, pure nodes needed only for ordering).
// - A step with side effects (stateful ops other than resource reads: assignments, tf.print,
//   random ops, iterators, Python callbacks; stateful If/While) starts only when every earlier
//   step has finished, and a resource read only after the last such step before it. So writes,
//   prints and random streams happen in program order, and only after everything the serial loop
//   would have run before them succeeded.
// - Side effects and control flow run on the calling thread: its tf.print output scope, its Ctrl-C
//   scope, its Python thread state, and the frame's loop and branch scratch are the calling
//   thread's, as in the serial loop.
// - After a step fails, no step after it starts; the earlier ones finish, and the error of the
//   lowest failing step is reported: the one the serial loop would have stopped at.
// - Each slot is released when its last reader (by count, not by plan order) is done.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>

#include "graphfn/core/inter_op_pool.h"
#include "graphfn/runtime/interrupt.h"
#include "graphfn/runtime/plan.h"

namespace graphfn {

struct Plan::ParallelSchedule {
  std::vector<int> num_predecessors;         // per step
  std::vector<std::vector<int>> successors;  // per step
  std::vector<char> on_calling_thread;       // per step: side effects and control flow
  std::vector<int> readers;                  // per slot: steps that read it, when steps release it
  std::vector<std::vector<int>> released;    // per step: the releasable slots it reads, once each
  std::vector<std::vector<int>> unread;      // per step: releasable outputs nothing reads
  std::vector<double> work_ns;               // per step: the estimated single-thread work
  // Per step: how long its last run took, in ns (0 until it has run), shared by every run of
  // the plan. Inline decisions, the order ready steps are taken in and which steps stay on the
  // calling thread go by these (kInlineBesideShare, priority, kSmallStepNs).
  std::unique_ptr<std::atomic<int64_t>[]> measured_ns;
  // A step's expected duration: the last one measured, else the estimate (same unit, roughly).
  double expected_ns(int step) const {
    const int64_t measured = measured_ns[step].load(std::memory_order_relaxed);
    return measured > 0 ? static_cast<double>(measured) : work_ns[step];
  }
};

// One run's scheduling state. Kept by the frame and reused when no late worker task holds it.
struct ParallelPlanRun {
  std::mutex mu;
  std::condition_variable changed;  // the calling thread waits here for a step to finish
  // Everything below is guarded by mu.
  std::vector<int> pending;       // per step: predecessors not finished
  std::vector<char> started;      // per step
  std::vector<int> readers_left;  // per slot
  std::vector<int> ready;         // steps any thread may take
  std::vector<int> ready_here;    // steps for the calling thread
  std::vector<int64_t> started_ns;  // per step: when it started (steady clock), while it runs
  std::vector<int> running_steps;   // the steps started, not finished
  std::vector<double> priority;     // per step: its expected path to the end, this run
  int scheduled = 0;              // worker tasks queued, not started
  int active = 0;                 // worker tasks inside the run
  bool caller_waiting = false;
  bool closed = true;             // the run is over: worker tasks that start now leave at once
  bool stop = false;              // Ctrl-C: start nothing more
  int first_error = INT_MAX;      // the lowest failed step
  Status error;
  std::exception_ptr exception;  // a C++ exception of that step, thrown again on the calling thread
  const std::string* failed_node = nullptr;
  // The run.
  Plan::Frame* frame = nullptr;
  bool feeds_static = false;
};

namespace {

// Estimated single-thread nanoseconds: OpenBLAS's GEMM does about 14 multiply-adds a
// nanosecond on one core here, im2col convolutions about 10; element-wise and data movement ops
// cost about a quarter nanosecond per element read or written, transcendental ones about one per
// element. Only the order of magnitude matters: it decides whether overlapping pays.
constexpr double kUnknownDim = 16;  // a dimension unknown when tracing (a batch of None)
constexpr double kNsPerMatMulMac = 0.07;
constexpr double kNsPerConvMac = 0.1;
constexpr double kNsPerElement = 0.25;
constexpr double kNsPerCostlyElement = 1.0;
// Work that can overlap (total minus critical path) needed for a parallel schedule, and per step
// (a parallel run costs a lock or two per step, and a thread hand-off when workers start).
constexpr double kMinOverlapNs = 100e3;
constexpr double kMinOverlapPerStepNs = 3e3;
// A step runs its kernels inline (one thread) when what is left of the other running steps and
// the ready ones hold at least this share of its own expected duration; else it splits them over
// the intra-op pool. Durations are measured on the plan's previous runs: a convolution's
// backprop that starts while the other one has a few percent left splits its work, and one
// started beside the other's whole length runs inline.
constexpr double kInlineBesideShare = 0.5;
// Steps expected to take less than this run on the calling thread: a worker woken for one, and
// the calling thread woken by it after, cost more than the step (an optimizer's update of a
// Keras model is a few hundred steps of one to four microseconds). 20 us also kept the 10-20 us
// products of benchmarks/bench_inter_op.py's batch-8 towers off the workers (1.3x slower).
constexpr double kSmallStepNs = 5e3;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double elements(const Shape& s) {
  if (!s.known_rank()) return kUnknownDim;
  double n = 1;
  for (int d = 0; d < s.rank(); ++d) n *= s.dim(d) >= 0 ? static_cast<double>(s.dim(d)) : kUnknownDim;
  return n;
}

bool is_costly_elementwise(const std::string& op) {
  static const char* const kCostly[] = {"Exp", "Expm1", "Log", "Log1p", "Tanh", "Sigmoid", "Softmax", "LogSoftmax",
                                        "Erf", "Erfc", "Pow", "Sin", "Cos", "Tan", "Softplus", "Elu", "Selu",
                                        "TanhGrad", "SigmoidGrad", "Atan", "Asin", "Acos", "Sqrt", "Rsqrt", "Gelu"};
  for (const char* name : kCostly) {
    if (op == name) return true;
  }
  return false;
}

double node_work_ns(const Graph& graph, const Node& node) {
  const std::string& op = node.op->name;
  auto in_shape = [&](size_t i) -> const Shape& { return graph.shape(node.inputs[i]); };
  if ((op == "MatMul" || op == "BatchMatMul" || op == "BatchMatMulV2" || op == "BatchMatMulV3") &&
      node.inputs.size() >= 2 && !node.output_shapes.empty()) {
    // |a| |b| |c| = batch^3 (m k n)^2 for a batch of m x k times k x n products.
    const Shape& c = node.output_shapes[0];
    auto dim = [](int64_t d) { return d >= 0 ? static_cast<double>(d) : kUnknownDim; };
    const double batch =
        c.known_rank() && c.rank() > 2 ? elements(c) / (dim(c.dim(c.rank() - 2)) * dim(c.dim(c.rank() - 1))) : 1.0;
    const double macs = std::sqrt(elements(in_shape(0)) * elements(in_shape(1)) * elements(c) / batch);
    return macs * kNsPerMatMulMac;
  }
  const bool conv = op.rfind("Conv2D", 0) == 0 || op.rfind("Conv3D", 0) == 0 || op.rfind("GraphfnFusedConv2D", 0) == 0;
  if (conv && node.inputs.size() >= 2 && !node.output_shapes.empty()) {
    // Multiply-adds: the forward output's elements times a filter's taps over its input channels.
    const bool filter_grad = op.find("BackpropFilter") != std::string::npos;
    const bool input_grad = op.find("BackpropInput") != std::string::npos;
    const Shape& filter = filter_grad ? node.output_shapes[0] : in_shape(1);
    const Shape& y = filter_grad || input_grad ? in_shape(node.inputs.size() - 1) : node.output_shapes[0];
    if (filter.known_rank() && filter.rank() >= 1) {
      const double taps = elements(filter) / (filter.dim(filter.rank() - 1) > 0 ? filter.dim(filter.rank() - 1) : 1);
      return elements(y) * taps * kNsPerConvMac;
    }
  }
  double touched = 0;
  for (size_t i = 0; i < node.inputs.size(); ++i) touched += elements(in_shape(i));
  for (const Shape& s : node.output_shapes) touched += elements(s);
  return touched * (is_costly_elementwise(op) ? kNsPerCostlyElement : kNsPerElement);
}

// GRAPHFN_INTER_OP_INLINE=0: kernels beside other steps split their work too (for measuring).
bool inline_beside_others() {
  static const bool value = [] {
    const char* env = std::getenv("GRAPHFN_INTER_OP_INLINE");
    return env == nullptr || env[0] != '0';
  }();
  return value;
}

void sort_unique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

void Plan::plan_parallel(const Graph& graph, const std::vector<int>& step_nodes) {
  const int n = num_steps();
  std::vector<int> step_of(graph.num_nodes(), -1);
  for (int s = 0; s < n; ++s) step_of[step_nodes[s]] = s;
  std::vector<double> work(n, 0);
  for (int s = 0; s < n; ++s) {
    const Step& step = steps_[s];
    if (step.first_sub >= 0) {
      // A branch: the larger one; a loop: one iteration of cond and body (at least one runs).
      const bool loop = step.op->control_flow == OpDef::ControlFlow::kWhile;
      for (const auto& sub : step.sub_plans) work[s] = loop ? work[s] + sub->work_ns_ : std::max(work[s], sub->work_ns_);
    } else {
      work[s] = node_work_ns(graph, graph.node(step_nodes[s]));
    }
    work_ns_ += work[s];
  }
  // The overlap is at most the total: most plans stop here, before any analysis.
  if (n < 2 || work_ns_ < std::max(kMinOverlapNs, kMinOverlapPerStepNs * n)) return;

  // Each node's steps: itself when it runs, else (seen through) the steps its inputs wait for.
  std::vector<std::vector<int>> waits_for(graph.num_nodes());
  auto predecessors_of = [&](int id, std::vector<int>* out) {
    const Node& node = graph.node(id);
    for (const Endpoint& in : node.inputs) out->insert(out->end(), waits_for[in.node].begin(), waits_for[in.node].end());
    for (int c : node.control_inputs) out->insert(out->end(), waits_for[c].begin(), waits_for[c].end());
    sort_unique(*out);
  };
  auto topological = [&](int id) {
    const Node& node = graph.node(id);
    for (const Endpoint& in : node.inputs) if (in.node >= id) return false;
    for (int c : node.control_inputs) if (c >= id) return false;
    return true;
  };
  auto schedule = std::make_shared<ParallelSchedule>();
  std::vector<std::vector<int>> predecessors(n);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (!topological(id)) return;  // the plan's order is the nodes'; stay serial on anything else
    if (step_of[id] >= 0) {
      predecessors_of(id, &predecessors[step_of[id]]);
      waits_for[id] = {step_of[id]};
    } else {  // not run: an argument, a constant, an Identity, a pure node only ordered by
      predecessors_of(id, &waits_for[id]);
    }
  }
  // Side effects in program order, after everything before them; resource reads after the last.
  schedule->on_calling_thread.assign(n, 0);
  int last_effect = -1;
  for (int s = 0; s < n; ++s) {
    const Step& step = steps_[s];
    bool effect = step.op->resource_access == OpDef::ResourceAccess::kWrite || step.op->stateful;
    for (const auto& sub : step.sub_plans) effect = effect || sub->has_stateful_steps_;
    const bool read = step.op->resource_access == OpDef::ResourceAccess::kRead;
    if (effect) {
      for (int p = std::max(last_effect, 0); p < s; ++p) predecessors[s].push_back(p);
      sort_unique(predecessors[s]);
      last_effect = s;
    } else if (read && last_effect >= 0) {
      predecessors[s].push_back(last_effect);
      sort_unique(predecessors[s]);
    }
    schedule->on_calling_thread[s] = effect || step.first_sub >= 0;
  }

  // Worth it? The work off the longest chain could overlap.
  std::vector<double> chain(n, 0);
  double longest = 0;
  for (int s = 0; s < n; ++s) {
    double before = 0;
    for (int p : predecessors[s]) before = std::max(before, chain[p]);
    chain[s] = before + work[s];
    longest = std::max(longest, chain[s]);
  }
  const double overlap = work_ns_ - longest;
  if (overlap < kMinOverlapNs || overlap < kMinOverlapPerStepNs * n) return;

  schedule->work_ns = work;
  schedule->measured_ns.reset(new std::atomic<int64_t>[n]);
  for (int s = 0; s < n; ++s) schedule->measured_ns[s].store(0, std::memory_order_relaxed);
  schedule->num_predecessors.resize(n);
  schedule->successors.resize(n);
  for (int s = 0; s < n; ++s) {
    schedule->num_predecessors[s] = static_cast<int>(predecessors[s].size());
    for (int p : predecessors[s]) schedule->successors[p].push_back(s);
  }
  // Slots steps fill, but not results, are released after their last reader.
  std::vector<char> releasable(num_slots_, 0);
  for (const Step& step : steps_) {
    for (int k = 0; k < step.num_outputs; ++k) releasable[step.first_output_slot + k] = 1;
  }
  for (int r : result_slots_) {
    if (r >= 0) releasable[r] = 0;
  }
  schedule->readers.assign(num_slots_, 0);
  schedule->released.resize(n);
  schedule->unread.resize(n);
  for (int s = 0; s < n; ++s) {
    std::vector<int>& slots = schedule->released[s];
    for (int slot : steps_[s].input_slots) {
      if (slot >= 0 && releasable[slot]) slots.push_back(slot);
    }
    sort_unique(slots);
    for (int slot : slots) ++schedule->readers[slot];
  }
  for (int s = 0; s < n; ++s) {
    const Step& step = steps_[s];
    for (int k = 0; k < step.num_outputs; ++k) {
      const int slot = step.first_output_slot + k;
      if (releasable[slot] && schedule->readers[slot] == 0) schedule->unread[s].push_back(slot);
    }
  }
  parallel_ = std::move(schedule);
  brief_ = false;  // a caller keeps no GIL for it: it may run many microseconds of kernels
}

Status Plan::execute_parallel(Frame& frame, bool feeds_static, const std::string** failed_node) const {
  const ParallelSchedule& schedule = *parallel_;
  const int n = num_steps();
  // A worker task that started late may still hold last run's state: then take a new one.
  if (!frame.parallel_run || frame.parallel_run.use_count() > 1) frame.parallel_run = std::make_shared<ParallelPlanRun>();
  ParallelPlanRun& run = *frame.parallel_run;
  {
    std::lock_guard<std::mutex> lock(run.mu);
    run.pending = schedule.num_predecessors;
    run.started.assign(n, 0);
    run.readers_left = schedule.readers;
    run.ready.clear();
    run.running_steps.clear();
    // Each step's expected duration plus the longest of its successors' paths (they come later).
    run.priority.assign(n, 0);
    for (int s = n - 1; s >= 0; --s) {
      double after = 0;
      for (int next : schedule.successors[s]) after = std::max(after, run.priority[next]);
      run.priority[s] = schedule.expected_ns(s) + after;
    }
    run.ready_here.clear();
    for (int s = 0; s < n; ++s) {
      if (run.pending[s] == 0) (schedule.on_calling_thread[s] ? run.ready_here : run.ready).push_back(s);
    }
    run.scheduled = run.active = 0;
    run.started_ns.assign(n, 0);
    run.caller_waiting = false;
    run.closed = false;
    run.stop = false;
    run.first_error = INT_MAX;
    run.error = Status::OK();
    run.exception = nullptr;
    run.failed_node = nullptr;
    run.frame = &frame;
    run.feeds_static = feeds_static;
  }
  run_parallel_steps(run, true);
  std::unique_lock<std::mutex> lock(run.mu);
  // Worker tasks still queued leave when they start; those inside finish first.
  run.closed = true;
  run.caller_waiting = true;
  run.changed.wait(lock, [&] { return run.active == 0; });
  run.caller_waiting = false;
  if (run.first_error == INT_MAX) return Status::OK();
  if (run.exception) {
    std::exception_ptr exception = std::move(run.exception);
    run.exception = nullptr;
    lock.unlock();
    std::rethrow_exception(exception);  // what the serial loop would have let through
  }
  *failed_node = run.failed_node;
  return std::move(run.error);
}

// The loop of the calling thread (on_calling_thread) and of each worker task: take the lowest
// ready step it may run, run it, count its successors down. Workers leave when nothing is ready;
// the calling thread waits until every step that can start has finished.
void Plan::run_parallel_steps(ParallelPlanRun& run, bool on_calling_thread) const {
  const ParallelSchedule& schedule = *parallel_;
  Frame& frame = *run.frame;
  const int workers = inter_op_parallelism() - 1;
  // The ready step with the longest expected path to the plan's end (then the lowest index): a
  // convolution's input gradient, which later steps wait for, goes before its filter gradient and
  // both before a bias gradient.
  // Workers leave small steps to the calling thread (see kSmallStepNs).
  auto take = [&](std::vector<int>& ready) {
    int best = -1;
    for (size_t i = 0; i < ready.size(); ++i) {
      if (ready[i] >= run.first_error) continue;
      if (!on_calling_thread && schedule.expected_ns(ready[i]) < kSmallStepNs) continue;
      const double p = run.priority[ready[i]], q = best < 0 ? 0 : run.priority[ready[best]];
      if (best < 0 || p > q || (p == q && ready[i] < ready[best])) best = static_cast<int>(i);
    }
    if (best < 0) return -1;
    const int step = ready[best];
    ready[best] = ready.back();
    ready.pop_back();
    return step;
  };
  // A worker task to queue, when more steps are ready than threads free to take them (this one,
  // when it is about to look, and the calling thread waiting for work). One at a time: a task
  // that finds more ready work queues the next.
  auto workers_wanted = [&](bool this_thread_free) {
    const int free_threads = (this_thread_free ? 1 : 0) +
                             (!on_calling_thread && run.caller_waiting && run.ready_here.empty() ? 1 : 0);
    int large_ready = 0;
    for (int r : run.ready) large_ready += schedule.expected_ns(r) >= kSmallStepNs;
    const bool wanted = !run.stop && run.scheduled == 0 && large_ready > free_threads && run.active < workers;
    run.scheduled += wanted;
    return wanted ? 1 : 0;
  };
  auto start_workers = [&](int count, const std::shared_ptr<ParallelPlanRun>& keep) {
    for (int i = 0; i < count; ++i) {
      schedule_inter_op([this, keep] {
        {
          std::lock_guard<std::mutex> lock(keep->mu);
          --keep->scheduled;
          if (keep->closed) return;
          ++keep->active;
        }
        run_parallel_steps(*keep, false);
      });
    }
  };
  const std::shared_ptr<ParallelPlanRun> keep = frame.parallel_run;
  std::vector<int> to_release;
  std::unique_lock<std::mutex> lock(run.mu);
  for (;;) {
    int step = -1;
    if (on_calling_thread && !run.stop) {
      if (Status s = check_interrupt(); !s.ok()) {  // Ctrl-C: as before every step of the serial loop
        run.stop = true;
        int next = 0;
        while (next < num_steps() && run.started[next]) ++next;
        if (next < run.first_error) {
          run.first_error = next;
          run.error = s;
          run.failed_node = next < num_steps() ? &steps_[next].node_name : &steps_.back().node_name;
        }
      }
    }
    if (!run.stop) {
      if (on_calling_thread) step = take(run.ready_here);
      if (step < 0) step = take(run.ready);
    }
    if (step < 0) {
      if (!on_calling_thread) {
        --run.active;
        if (run.caller_waiting) run.changed.notify_one();
        return;
      }
      if (run.running_steps.empty()) return;  // every step that can start has finished
      run.caller_waiting = true;
      run.changed.wait(lock);
      run.caller_waiting = false;
      continue;
    }
    run.started[step] = 1;
    // Beside other steps holding a fair share of work, a kernel leaves the cores to them rather
    // than splitting its own work. Beside small ones (a variable read next to the first
    // convolution, a bias gradient next to a convolution's backprop) it splits as usual: run
    // inline, it would keep one core for its whole length while the small ones end at once.
    const int64_t start = now_ns();
    double other_work = 0;
    for (int r : run.ready) other_work += schedule.expected_ns(r);
    for (int r : run.ready_here) other_work += schedule.expected_ns(r);
    for (int r : run.running_steps) {
      other_work += std::max(0.0, schedule.expected_ns(r) - static_cast<double>(start - run.started_ns[r]));
    }
    const bool beside_others = other_work >= kInlineBesideShare * schedule.expected_ns(step);
    run.started_ns[step] = start;
    run.running_steps.push_back(step);
    const int spawn = workers_wanted(false);
    lock.unlock();
    start_workers(spawn, keep);
    const std::string* failed = nullptr;
    Status s;
    std::exception_ptr exception;
    try {
      if (beside_others && inline_beside_others()) {
        InlineKernelsScope inline_kernels;
        s = run_step(steps_[step], frame, run.feeds_static, &failed);
      } else {
        s = run_step(steps_[step], frame, run.feeds_static, &failed);
      }
    } catch (...) {  // a worker must not let it escape: the calling thread throws it
      exception = std::current_exception();
      s = Status(Code::kInternal, "exception in a kernel");
      failed = &steps_[step].node_name;
    }
    schedule.measured_ns[step].store(std::max<int64_t>(1, now_ns() - start), std::memory_order_relaxed);
    lock.lock();
    run.running_steps.erase(std::find(run.running_steps.begin(), run.running_steps.end(), step));
    to_release.clear();
    if (s.ok()) {
      for (int next : schedule.successors[step]) {
        if (--run.pending[next] == 0) (schedule.on_calling_thread[next] ? run.ready_here : run.ready).push_back(next);
      }
      for (int slot : schedule.released[step]) {
        if (--run.readers_left[slot] == 0) to_release.push_back(slot);
      }
      to_release.insert(to_release.end(), schedule.unread[step].begin(), schedule.unread[step].end());
    } else if (step < run.first_error) {
      run.first_error = step;
      run.error = std::move(s);
      run.exception = std::move(exception);
      run.failed_node = failed;
    }
    if (!on_calling_thread && run.caller_waiting) run.changed.notify_one();
    const int more = workers_wanted(true);
    if (!to_release.empty() || more > 0) {
      lock.unlock();
      start_workers(more, keep);
      for (int slot : to_release) release_alone(frame, slot);
      lock.lock();
    }
  }
}

}  // namespace graphfn
