// tf.custom_gradient's C++ side (python/graphfn/eager/custom_gradient.py is the rest): the
// gradient override handler (autodiff/gradient.h) that calls a custom gradient's Python function
// while a gradient is built, and the recording of an eager custom-gradient call on the tapes.
//
// On a tape the function travels with the entry (its context); in a graph the IdentityN node
// names it (`_gradient_op_type`) and Python looks it up. In a graph the function builds ops into
// the graph being differentiated: the graph being traced (a tape inside a function), or the clone
// of a traced function that its backward function is cut from, which is made the thread's current
// graph meanwhile. Tensors the function closed over belong to the traced graph; the clone has the
// same nodes (tracing/capture.h, Graph::lineage).
#include <pybind11/stl.h>

#include "graphfn/autodiff/graph_grad_builder.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/python_owner.h"
#include "graphfn/tracing/trace_context.h"

namespace graphfn {
namespace {

// Makes `graph` (if any) the thread's current graph unless it already is.
class CurrentGraph {
 public:
  explicit CurrentGraph(const std::shared_ptr<Graph>& graph) : pushed_(graph && current_graph() != graph.get()) {
    if (pushed_) TraceContext::current().push_graph(graph);
  }
  ~CurrentGraph() {
    if (pushed_) TraceContext::current().pop_graph();
  }
  CurrentGraph(const CurrentGraph&) = delete;
  CurrentGraph& operator=(const CurrentGraph&) = delete;

 private:
  bool pushed_;
};

Status call_python_gradient(const std::string& name, GradBuilder& b, const GradInputs& in,
                            std::vector<GradValue>* input_grads) {
  py::gil_scoped_acquire gil;
  auto* graph_builder = dynamic_cast<GraphGradBuilder*>(&b);
  std::shared_ptr<Graph> graph;
  if (graph_builder) {
    graph = graph_builder->graph().weak_from_this().lock();
    if (!graph) return errors::Unimplemented("a custom gradient cannot be built in this graph");
  }
  try {
    CurrentGraph current(graph);
    py::list upstream;  // as TF: zeros for outputs no gradient reached
    for (size_t i = 0; i < in.output_grads.size(); ++i) {
      GradValue dy = in.output_grads[i];
      if (dy.is_null() && i < in.outputs.size()) dy = b.zeros_like(in.outputs[i]);
      GRAPHFN_RETURN_IF_ERROR(b.status());
      if (dy.is_null()) {
        upstream.append(py::none());
      } else if (graph) {
        upstream.append(py::cast(SymbolicTensor{graph, dy.endpoint}));
      } else {
        upstream.append(py::cast(dy.tensor));
      }
    }
    // On a tape, the entry's context is the function, as own() keeps it.
    py::object function = in.context ? *static_cast<const py::object*>(in.context) : py::object(py::none());
    py::object call = py::module_::import("graphfn.eager.custom_gradient").attr("_call_gradient");
    py::list grads = call(name, function, upstream, in.inputs.size());
    for (size_t i = 0; i < grads.size() && i < input_grads->size(); ++i) {
      py::handle g = grads[i];
      if (g.is_none()) continue;
      if (const SymbolicTensor* t = symbolic_tensor_ptr(g)) {
        if (!graph) return errors::InvalidArgument("a custom gradient returned a graph tensor while executing eagerly");
        (*input_grads)[i] = GradValue(capture(*graph, *t));
      } else if (const Tensor* t = eager_tensor_ptr(g)) {
        (*input_grads)[i] = graph ? b.constant(*t) : GradValue(*t);
      } else {
        return errors::InvalidArgument("a custom gradient must return tensors or None, got ",
                                       py::repr(g).cast<std::string>());
      }
    }
    return Status::OK();
  } catch (py::error_already_set& e) {
    return python_error_status(e);
  }
}

}  // namespace

void bind_custom_gradient(py::module_& m) {
  set_gradient_override(&call_python_gradient);
  // Eagerly: records a call of a custom-gradient function on the tapes that watch one of
  // `inputs`. Returns its outputs as new tensors (the tapes know them), or None when no tape
  // records.
  m.def("record_custom_gradient", [](const std::string& name, py::object function, const py::list& inputs,
                                     const py::list& outputs) -> py::object {
    std::vector<Tensor> in;
    for (py::handle x : inputs) {
      const Tensor* t = eager_tensor_ptr(x);
      if (!t) throw py::type_error("record_custom_gradient: inputs must be EagerTensors");
      t->id();  // the Python tensor's own id, which the tapes know it by
      in.push_back(*t);
    }
    std::vector<bool> tracked;
    if (!tapes_would_record(in.data(), static_cast<int>(in.size()), &tracked)) return py::none();
    std::vector<Tensor> out;
    for (py::handle y : outputs) {
      const Tensor* t = eager_tensor_ptr(y);
      if (!t) throw py::type_error("record_custom_gradient: outputs must be EagerTensors");
      out.push_back(*t);
    }
    AttrMap attrs;
    attrs.set("_gradient_op_type", name);
    record_on_tapes(custom_gradient_op(), in.data(), static_cast<int>(in.size()), attrs, &out, own(function));
    py::list result;
    for (const Tensor& t : out) result.append(py::cast(t));
    return std::move(result);
  });
}

}  // namespace graphfn
