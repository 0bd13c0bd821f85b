// This thread's TraceContext (tracing/trace_context.h) seen from Python: converts and forwards.
#include <pybind11/detail/exception_translation.h>
#include <pybind11/stl.h>

#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/graph_context.h"
#include "graphfn/bindings/python_owner.h"
#include "graphfn/tracing/trace_context.h"

namespace graphfn {
namespace {

// note_variable_read(variable): called on every read of a trainable variable, eager ones
// included, so it is a plain METH_O function (pybind11's dispatch would cost more than the check).
// `variable` is a graphfn.Variable whose `_handle` is an eager resource tensor while traced
// through a captured handle.
PyObject* note_variable_read(PyObject*, PyObject* variable) {
  TraceContext& context = TraceContext::current();
  if (!context.recording_variable_reads()) Py_RETURN_NONE;
  try {
    py::object handle = py::reinterpret_steal<py::object>(PyObject_GetAttrString(variable, "_handle"));
    if (!handle) return nullptr;
    if (const Tensor* t = eager_tensor_ptr(handle)) context.note_variable_read(*t, own(variable));
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef g_note_variable_read{"note_variable_read", note_variable_read, METH_O,
                                 "Remembers a trainable variable read in the trace in progress."};

}  // namespace

Graph* current_graph() { return TraceContext::current().graph(); }

const std::shared_ptr<Graph>& current_graph_ptr() { return TraceContext::current().graph_ptr(); }

void bind_trace_context(py::module_& m) {
  py::enum_<VariableCreation>(m, "VariableCreation")
      .value("ALLOWED", VariableCreation::kAllowed)
      .value("SINGLETON_ONLY", VariableCreation::kSingletonOnly);

  m.def("push_graph", [](std::shared_ptr<Graph> g) { TraceContext::current().push_graph(std::move(g)); },
        py::arg("graph").none(true));
  m.def("pop_graph", [] { TraceContext::current().pop_graph(); });
  m.def("current_graph", [] { return current_graph_ptr(); });
  m.def("executing_eagerly", [] { return TraceContext::current().executing_eagerly(); });

  m.def("begin_trace", [](VariableCreation mode) { TraceContext::current().begin_trace(mode); });
  // (number of variables created, [variables read]) of the innermost trace, which ends.
  m.def("end_trace", [] {
    TraceRecord record;
    throw_if_error(TraceContext::current().end_trace(&record));
    py::list read;
    for (const VariableRead& r : record.variables_read) read.append(owned(r.owner));
    return py::make_tuple(record.variables_created, read);
  });
  m.def("check_variable_creation", [] {
    const Status s = TraceContext::current().check_variable_creation();
    if (!s.ok()) throw py::value_error(s.message());  // TF raises these as ValueError
  });
  m.def("note_variable_created", [] { TraceContext::current().note_variable_created(); });
  m.add_object("note_variable_read",
                py::reinterpret_steal<py::object>(PyCFunction_NewEx(&g_note_variable_read, nullptr, m.attr("__name__").ptr())));

  m.def("eager_name_scope", [] { return TraceContext::current().eager_name_scope(); });
  m.def("set_eager_name_scope", [](std::string scope) { TraceContext::current().set_eager_name_scope(std::move(scope)); });

  m.def("set_functions_run_eagerly", [](bool v) { set_functions_run_eagerly(v); });
  m.def("functions_run_eagerly", [] { return functions_run_eagerly(); });
}

}  // namespace graphfn
