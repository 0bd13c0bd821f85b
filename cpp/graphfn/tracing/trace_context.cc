#include "graphfn/tracing/trace_context.h"

#include <algorithm>
#include <atomic>

#include "graphfn/core/resource.h"

namespace graphfn {
namespace {

std::atomic<bool> g_functions_run_eagerly{false};

// The resource a handle refers to: aliases of one variable share it.
const void* resource_of(const Tensor& handle) {
  if (handle.dtype() != DType::kResource || handle.num_elements() != 1) return nullptr;
  return handle.data<ResourceHandle>()->get();
}

}  // namespace

TraceContext& TraceContext::current() {
  thread_local TraceContext context;
  return context;
}

void TraceContext::push_graph(std::shared_ptr<Graph> graph) { graphs_.push_back(std::move(graph)); }

bool TraceContext::building(const Graph& graph) const {
  for (const std::shared_ptr<Graph>& g : graphs_) {
    if (g.get() == &graph) return true;
  }
  return false;
}

void TraceContext::pop_graph() {
  if (!graphs_.empty()) graphs_.pop_back();
}

const std::shared_ptr<Graph>& TraceContext::graph_ptr() const {
  static const std::shared_ptr<Graph> none;
  return graphs_.empty() ? none : graphs_.back();
}

void TraceContext::begin_trace(VariableCreation mode) { traces_.push_back(Trace{mode, TraceRecord{}}); }

Status TraceContext::end_trace(TraceRecord* record) {
  if (traces_.empty()) return Status(Code::kFailedPrecondition, "end_trace: no trace in progress");
  *record = std::move(traces_.back().record);
  traces_.pop_back();
  return Status::OK();
}

Status TraceContext::check_variable_creation() const {
  if (traces_.empty() || executing_eagerly()) return Status::OK();
  switch (traces_.back().mode) {
    case VariableCreation::kAllowed:
      return Status::OK();
    case VariableCreation::kSingletonOnly:
      return Status(Code::kInvalidArgument,
                    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                    "tf.Variable is only created once or created outside tf.function. See "
                    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.");
  }
  return Status::OK();
}

void TraceContext::note_variable_created() {
  if (!traces_.empty() && !executing_eagerly()) ++traces_.back().record.variables_created;
}

void TraceContext::note_variable_read(const Tensor& handle, Owner owner) {
  if (!recording_variable_reads()) return;
  const void* resource = resource_of(handle);
  if (resource == nullptr) return;
  std::vector<VariableRead>& read = traces_.back().record.variables_read;
  for (const VariableRead& r : read) {
    if (resource_of(r.handle) == resource) return;
  }
  read.push_back(VariableRead{handle, std::move(owner)});
}

void TraceContext::capture_control(const std::shared_ptr<Graph>& subgraph, ControlCapture capture) {
  // Subgraphs abandoned by a failed trace are dropped here.
  control_captures_.erase(std::remove_if(control_captures_.begin(), control_captures_.end(),
                                         [](const auto& entry) { return entry.first.expired(); }),
                          control_captures_.end());
  for (auto& entry : control_captures_) {
    if (entry.first.lock() == subgraph) {
      if (std::find(entry.second.begin(), entry.second.end(), capture) == entry.second.end()) {
        entry.second.push_back(std::move(capture));
      }
      return;
    }
  }
  control_captures_.emplace_back(subgraph, std::vector<ControlCapture>{std::move(capture)});
}

std::vector<ControlCapture> TraceContext::take_control_captures(const Graph* subgraph) {
  for (auto it = control_captures_.begin(); it != control_captures_.end(); ++it) {
    if (it->first.lock().get() == subgraph) {
      std::vector<ControlCapture> out = std::move(it->second);
      control_captures_.erase(it);
      return out;
    }
  }
  return {};
}

bool functions_run_eagerly() { return g_functions_run_eagerly.load(std::memory_order_relaxed); }

void set_functions_run_eagerly(bool run_eagerly) {
  g_functions_run_eagerly.store(run_eagerly, std::memory_order_relaxed);
}

}  // namespace graphfn
