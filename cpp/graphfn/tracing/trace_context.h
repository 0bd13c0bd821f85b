// TraceContext: everything tracing keeps per thread, in one place. Each thread has its own, so
// two threads tracing two functions at once never see each other's state (TF keeps the same
// state thread-locally). It holds:
//   - the stack of graphs being built (null entries are init_scope: eager again inside a trace);
//   - the stack of traces in progress, each with TF's variable-creation mode, how many variables
//     it created, and the variables it read through captured handles;
//   - the control dependencies that subgraphs being traced take from the graphs enclosing them;
//   - the eager name scope (a graph being traced keeps its own: graph_trace.h).
// The process-wide run_functions_eagerly flag lives here too, so there is one of it.
// Python-free: objects owned by the caller (the Python Variable behind a handle) travel as
// opaque `Owner` pointers.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"
#include "graphfn/ir/graph.h"

namespace graphfn {

// TF's rule for creating variables while tracing: a function's traces may create variables until
// one does; that trace is kept apart, and every later trace (starting with a retrace of the same
// call) may not. (When the creating trace was not the first, the function raises TF's error
// afterwards: python/graphfn/function/polymorphic_function.py.)
enum class VariableCreation {
  kAllowed,
  kSingletonOnly,
};

// Something the caller keeps alive alongside a handle (for Python, the Variable object).
using Owner = std::shared_ptr<const void>;

// A variable read while tracing: its resource handle and its owner.
struct VariableRead {
  Tensor handle;
  Owner owner;
};

// A node of a graph enclosing a subgraph being traced, named in tf.control_dependencies inside the
// subgraph (TF's control capture): the If / While node made from the subgraph waits for it.
struct ControlCapture {
  std::shared_ptr<Graph> owner;
  int node = -1;
  bool operator==(const ControlCapture& o) const { return owner == o.owner && node == o.node; }
};

// What one trace collected, handed back when it ends.
struct TraceRecord {
  int variables_created = 0;
  std::vector<VariableRead> variables_read;  // distinct resources, first-read order
};

class TraceContext {
 public:
  // This thread's context.
  static TraceContext& current();

  // Graphs being built. push_graph(nullptr) is init_scope: code runs eagerly until popped.
  void push_graph(std::shared_ptr<Graph> graph);
  void pop_graph();
  Graph* graph() const { return graphs_.empty() ? nullptr : graphs_.back().get(); }
  const std::shared_ptr<Graph>& graph_ptr() const;
  bool executing_eagerly() const { return graph() == nullptr; }
  int graph_depth() const { return static_cast<int>(graphs_.size()); }
  // True while `graph` is being built on this thread (it is on the stack, init_scope or not).
  bool building(const Graph& graph) const;

  // Traces in progress (a function traced while another is being traced nests).
  void begin_trace(VariableCreation mode);
  // Ends the innermost trace; FailedPrecondition when none is in progress.
  Status end_trace(TraceRecord* record);
  bool tracing() const { return !traces_.empty(); }

  // Called before a variable is created: OK eagerly (init_scope included) and in a trace whose
  // mode allows it, else TF's error (InvalidArgument carrying TF's ValueError message).
  Status check_variable_creation() const;
  void note_variable_created();
  // A trainable variable read through a captured handle while a graph is built: the innermost
  // trace remembers it once (an eager call of the function makes active tapes watch it).
  void note_variable_read(const Tensor& handle, Owner owner);
  // True when note_variable_read would record (cheap check for the caller's hot path).
  bool recording_variable_reads() const { return !traces_.empty() && graph() != nullptr; }

  // Control captures of the subgraphs being traced on this thread (once each, in order).
  void capture_control(const std::shared_ptr<Graph>& subgraph, ControlCapture capture);
  // What `subgraph` captured; it is forgotten here.
  std::vector<ControlCapture> take_control_captures(const Graph* subgraph);

  // The name scope of eager code ("outer/inner/" or ""); graphs keep their own (graph_trace.h).
  const std::string& eager_name_scope() const { return eager_name_scope_; }
  void set_eager_name_scope(std::string scope) { eager_name_scope_ = std::move(scope); }

 private:
  struct Trace {
    VariableCreation mode;
    TraceRecord record;
  };
  std::vector<std::shared_ptr<Graph>> graphs_;
  std::vector<Trace> traces_;
  std::vector<std::pair<std::weak_ptr<Graph>, std::vector<ControlCapture>>> control_captures_;
  std::string eager_name_scope_;
};

// tf.config.run_functions_eagerly: process-wide, as in TF.
bool functions_run_eagerly();
void set_functions_run_eagerly(bool run_eagerly);

}  // namespace graphfn
