// _core.Tape: the C++ gradient tape (autodiff/tape.h) for python/graphfn/eager/backprop.py, which
// adds TF's API (nested structures, variables, errors) on top.
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/core/resource.h"
#include "graphfn/autodiff/graph_tape.h"
#include "graphfn/autodiff/tape.h"

namespace graphfn {
namespace {

const Tensor& eager_tensor(py::handle h) {
  const Tensor* t = eager_tensor_ptr(h);
  if (!t) throw py::type_error("expected an EagerTensor, got " + py::repr(h).cast<std::string>());
  return *t;
}

std::vector<Tensor> tensors_from(py::handle seq, bool allow_none) {
  std::vector<Tensor> out;
  for (auto item : py::reinterpret_borrow<py::sequence>(seq)) {
    if (allow_none && item.is_none()) {
      out.emplace_back();
    } else {
      const Tensor& t = eager_tensor(item);
      t.id();  // on the Python tensor itself, so a target that is also a source is one tensor
      out.push_back(t);
    }
  }
  return out;
}

constexpr char kNoGradient[] = "gradient registry has no entry for: ";

// Gradient failures: a missing gradient function is TF's LookupError (KeyError here, replaced
// in Python).
void throw_gradient_error(const Status& s) {
  if (!s.ok() && s.code() == Code::kNotFound && s.message().rfind(kNoGradient, 0) == 0) {
    throw py::key_error(s.message());
  }
  throw_if_error(s);
}

// A value of a GraphTape's graph: a symbolic tensor (of the graph, or captured from a graph
// enclosing it), or a captured variable's eager resource handle.
GraphTape::Value graph_value(GraphTape& tape, py::handle h) {
  GraphTape::Value v;
  if (const SymbolicTensor* t = symbolic_tensor_ptr(h)) {
    v.endpoint = capture(*tape.graph(), *t);
    if (v.endpoint.node < 0) throw py::value_error("the tensor belongs to another graph: " + py::repr(h).cast<std::string>());
  } else if (const Tensor* t = eager_tensor_ptr(h)) {
    if (t->dtype() == DType::kResource) v.resource = t->data<ResourceHandle>()->get();
  } else {
    throw py::type_error("expected a tensor, got " + py::repr(h).cast<std::string>());
  }
  return v;
}

std::vector<GraphTape::Value> graph_values(GraphTape& tape, py::handle seq) {
  std::vector<GraphTape::Value> out;
  for (auto item : py::reinterpret_borrow<py::sequence>(seq)) out.push_back(graph_value(tape, item));
  return out;
}

py::list symbolic_gradient(GraphTape& t, py::handle targets, py::handle sources, py::handle output_gradients,
                           bool whole_graph, py::handle stop = py::none()) {
  std::vector<GraphTape::Value> target_values = graph_values(t, targets);
  std::vector<GraphTape::Value> source_values = graph_values(t, sources);
  std::vector<Endpoint> seeds;
  if (!output_gradients.is_none()) {
    for (auto g : py::reinterpret_borrow<py::sequence>(output_gradients)) {
      seeds.push_back(g.is_none() ? Endpoint{-1, 0} : graph_value(t, g).endpoint);
    }
  }
  std::vector<Endpoint> stops;
  if (!stop.is_none()) {
    for (const GraphTape::Value& v : graph_values(t, stop)) {
      if (v.endpoint.node >= 0) stops.push_back(v.endpoint);
    }
  }
  std::vector<Endpoint> grads;
  throw_gradient_error(whole_graph
                           ? GraphTape::graph_gradients(t.graph(), target_values, source_values, seeds, stops, &grads)
                           : t.gradient(target_values, source_values, seeds, &grads));
  py::list out;
  for (const Endpoint& e : grads) out.append(e.node < 0 ? py::object(py::none()) : py::cast(SymbolicTensor{t.graph(), e}));
  return out;
}

}  // namespace

void bind_tape(py::module_& m) {
  py::class_<Tape, std::shared_ptr<Tape>>(m, "Tape")
      .def(py::init<bool, bool>(), py::arg("persistent"), py::arg("watch_accessed_variables"))
      .def("watch", [](Tape& t, py::handle tensor) { t.watch(eager_tensor(tensor)); })
      .def("is_watched", [](Tape& t, py::handle tensor) { return t.is_tracked(eager_tensor(tensor).id_if_any()); })
      .def("push", [](const std::shared_ptr<Tape>& t) { Tape::push(t); })
      .def("pop", [](const std::shared_ptr<Tape>& t) { return Tape::pop(t.get()); })
      .def_property_readonly("active", [](const std::shared_ptr<Tape>& t) { return Tape::is_active(t.get()); })
      .def_property_readonly("num_entries", &Tape::num_entries)
      .def("reset", &Tape::reset)
      .def("gradient", [](Tape& t, py::handle targets, py::handle sources, py::handle output_gradients, bool keep) {
        std::vector<Tensor> target_tensors = tensors_from(targets, false);
        std::vector<Tensor> source_tensors = tensors_from(sources, false);
        std::vector<Tensor> grads =
            output_gradients.is_none() ? std::vector<Tensor>() : tensors_from(output_gradients, true);
        std::vector<Tensor> result;
        throw_gradient_error(t.gradient(target_tensors, source_tensors, grads, &result, keep));
        py::list out;
        for (Tensor& g : result) {
          if (g.valid()) {
            out.append(py::cast(std::move(g)));
          } else {
            out.append(py::none());
          }
        }
        return out;
      }, py::arg("targets"), py::arg("sources"), py::arg("output_gradients"), py::arg("keep") = false);
  m.def("any_tape_active", &any_tape_active);

  py::class_<GraphTape, std::shared_ptr<GraphTape>>(m, "GraphTape")
      .def(py::init<std::shared_ptr<Graph>>())
      .def_property_readonly("graph", &GraphTape::graph)
      .def("start", &GraphTape::start)
      .def("stop", &GraphTape::stop)
      .def("watch", [](GraphTape& t, py::handle tensor) {
        const GraphTape::Value v = graph_value(t, tensor);
        if (v.resource) {
          t.watch_resource(v.resource);
        } else if (v.endpoint.node >= 0) {
          t.watch(v.endpoint);
        }
      })
      .def("gradient", [](GraphTape& t, py::handle targets, py::handle sources, py::handle output_gradients) {
        return symbolic_gradient(t, targets, sources, output_gradients, false);
      });
  // tf.gradients(ys, xs, grad_ys) in the graph being traced.
  m.def("graph_gradients", [](const std::shared_ptr<Graph>& graph, py::handle ys, py::handle xs, py::handle grad_ys,
                              py::handle stop_gradients) {
    GraphTape t(graph);
    return symbolic_gradient(t, ys, xs, grad_ys, true, stop_gradients);
  });
}

}  // namespace graphfn
