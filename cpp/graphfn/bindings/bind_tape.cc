// _core.Tape and _core.GraphTape: the C++ gradient tapes (autodiff/tape.h, autodiff/graph_tape.h) for
// python/graphfn/eager/backprop.py, which adds TF's API (nested structures, errors) on top, and
// variable_accessed: what a read of a trainable variable tells the thread's recording tapes.
#include <pybind11/detail/exception_translation.h>
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/eager_tensor_object.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/interned.h"
#include "graphfn/bindings/python_owner.h"
#include "graphfn/bindings/variable_watch.h"
#include "graphfn/core/resource.h"
#include "graphfn/autodiff/graph_tape.h"
#include "graphfn/autodiff/tape.h"
#include "graphfn/tracing/capture.h"
#include "graphfn/tracing/op_builder.h"

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
// enclosing it), a captured variable's eager resource handle, or an eager tensor the graph
// captured for a tape watching it (made now when `watch`; else node -1 if it was not watched).
GraphTape::Value graph_value(GraphTape& tape, py::handle h, bool watch = false) {
  GraphTape::Value v;
  if (const SymbolicTensor* t = symbolic_tensor_ptr(h)) {
    v.endpoint = capture(*tape.graph(), *t);
    if (v.endpoint.node < 0) throw py::value_error("the tensor belongs to another graph: " + py::repr(h).cast<std::string>());
  } else if (const Tensor* t = eager_tensor_ptr(h)) {
    if (t->dtype() == DType::kResource && captures_resource_handles(*tape.graph())) {
      // In a cond branch or a loop body a variable's handle is a capture of the outermost
      // graph's Const (tracing/capture.h), which the branch's reads use: the tape works on it.
      throw_if_error(capture_resource(*tape.graph(), *t, "captured_resource", &v.endpoint));
    } else if (t->dtype() == DType::kResource) {
      v.resource = t->data<ResourceHandle>()->get();
    } else {
      throw_if_error(watched_eager_tensor(*tape.graph(), *t, watch, &v.endpoint));
    }
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

py::object attribute(py::handle object, PyObject* name) {
  py::object value = py::reinterpret_steal<py::object>(PyObject_GetAttr(object.ptr(), name));
  if (!value) throw py::error_already_set();
  return value;
}

// Makes `tape` watch a graphfn.Variable: gradients flow to its handle, and watched_variables()
// lists it once. An eager tape cannot watch a variable of a graph (a placeholder handle): skipped.
void watch_variable(RecordingTape& tape, py::handle variable) {
  static PyObject* const kHandle = interned("_handle");
  static PyObject* const kUniqueId = interned("_unique_id");
  py::object handle = attribute(variable, kHandle);
  VariableKey key;
  if (tape.kind() == RecordingTape::Kind::kEager) {
    const Tensor* t = eager_tensor_ptr(handle);
    if (!t || t->dtype() != DType::kResource) return;
    static_cast<Tape&>(tape).watch(*t);
    key.resource = t->data<ResourceHandle>()->get();
  } else {
    auto& graph_tape = static_cast<GraphTape&>(tape);
    const GraphTape::Value v = graph_value(graph_tape, handle);
    if (v.resource) {
      graph_tape.watch_resource(v.resource);
      key.resource = v.resource;
    } else if (v.endpoint.node >= 0) {
      graph_tape.watch(v.endpoint);
      key.resource = graph_tape.graph().get();
      key.placeholder = v.endpoint;
    } else {
      return;
    }
  }
  if (tape.watches_variable(key)) return;
  tape.add_watched_variable(key, attribute(variable, kUniqueId).cast<int64_t>(), own(variable));
}

// _core.variable_accessed(variable): called on every eager read of a trainable variable, so it is
// a plain METH_O function (pybind11's dispatch would cost more than the check).
PyObject* variable_accessed_function(PyObject*, PyObject* variable) {
  if (!any_tape_recording()) Py_RETURN_NONE;
  try {
    variable_accessed(variable);
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef g_variable_accessed{"variable_accessed", variable_accessed_function, METH_O,
                                "The recording tapes that watch accessed variables watch this trainable variable."};

}  // namespace

void variable_accessed(py::handle variable) {
  if (!any_tape_recording()) return;
  static PyObject* const kTrainable = interned("_trainable");
  const int trainable = PyObject_IsTrue(attribute(variable, kTrainable).ptr());
  if (trainable < 0) throw py::error_already_set();
  if (!trainable) return;
  const auto& tapes = recording_tapes();
  for (size_t i = 0; i < tapes.size(); ++i) {
    const std::shared_ptr<RecordingTape> tape = tapes[i];
    if (tape->watch_accessed_variables()) watch_variable(*tape, variable);
  }
}

void bind_tape(py::module_& m) {
  // What both tapes share: their place on this thread's stack of recording tapes, and the
  // variables they watch (the Python Variables, in creation order, as TF lists them).
  py::class_<RecordingTape, std::shared_ptr<RecordingTape>>(m, "RecordingTape")
      .def("push", [](const std::shared_ptr<RecordingTape>& t) { push_tape(t); })
      .def("pop", [](const std::shared_ptr<RecordingTape>& t) { return pop_tape(t.get()); })
      .def_property_readonly("recording",
                             [](const std::shared_ptr<RecordingTape>& t) { return is_tape_recording(t.get()); })
      .def_property_readonly("watch_accessed_variables", &RecordingTape::watch_accessed_variables)
      .def("watch_variable", [](RecordingTape& t, py::handle variable) { watch_variable(t, variable); })
      .def("watched_variables", [](const RecordingTape& t) {
        py::tuple out(t.watched_variables().size());
        for (size_t i = 0; i < t.watched_variables().size(); ++i) out[i] = owned(t.watched_variables()[i].owner);
        return out;
      });
  m.add_object("variable_accessed", py::reinterpret_steal<py::object>(
                                        PyCFunction_NewEx(&g_variable_accessed, nullptr, m.attr("__name__").ptr())));
  m.def("any_tape_recording", &any_tape_recording);
  // This thread's recording tapes, innermost last (tf.custom_gradient's stop_recording pops and
  // pushes them all).
  m.def("recording_tapes", [] { return recording_tapes(); });

  py::class_<Tape, RecordingTape, std::shared_ptr<Tape>>(m, "Tape")
      .def(py::init<bool, bool>(), py::arg("persistent"), py::arg("watch_accessed_variables"))
      .def("watch", [](Tape& t, py::handle tensor) { t.watch(eager_tensor(tensor)); })
      .def("is_watched", [](Tape& t, py::handle tensor) { return t.is_tracked(eager_tensor(tensor).id_if_any()); })
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
            out.append(wrap_eager_tensor(std::move(g)));
          } else {
            out.append(py::none());
          }
        }
        return out;
      }, py::arg("targets"), py::arg("sources"), py::arg("output_gradients"), py::arg("keep") = false);

  py::class_<GraphTape, RecordingTape, std::shared_ptr<GraphTape>>(m, "GraphTape")
      .def(py::init<std::shared_ptr<Graph>, bool>(), py::arg("graph"), py::arg("watch_accessed_variables") = true)
      .def_property_readonly("graph", &GraphTape::graph)
      .def("watch", [](GraphTape& t, py::handle tensor) {
        const GraphTape::Value v = graph_value(t, tensor, /*watch=*/true);
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
