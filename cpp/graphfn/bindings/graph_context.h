// The graph being traced on this thread (if any), and the Python handle on one graph output.
// While a graph is current, op handles add nodes to it instead of running kernels.
#pragma once
#include <memory>

#include <pybind11/pybind11.h>

#include "graphfn/ir/graph.h"

namespace graphfn {
namespace py = pybind11;

// A graph output seen from Python (TF's SymbolicTensor, printed as Tensor("x:0", ...)).
struct SymbolicTensor {
  std::shared_ptr<Graph> graph;
  Endpoint endpoint;
};

// A node seen from Python (TF's tf.Operation): what tf.print, tf.no_op and tf.group return in a
// graph, and a symbolic tensor's `.op`.
struct GraphOp {
  std::shared_ptr<Graph> graph;
  int node = -1;
};

// The innermost graph being built on this thread (tracing/trace_context.h), or null when
// executing eagerly.
Graph* current_graph();
const std::shared_ptr<Graph>& current_graph_ptr();

// tracing/capture.h for a Python tensor, raising on error: `t`'s endpoint as seen from `graph`
// (node = -1 if `t` belongs to an unrelated graph).
Endpoint capture(Graph& graph, const SymbolicTensor& t);

// The SymbolicTensor inside a Python object, or null.
const SymbolicTensor* symbolic_tensor_ptr(py::handle value);

}  // namespace graphfn
