#include "graphfn/bindings/errors.h"

namespace graphfn {
namespace py = pybind11;
namespace {

// Set by python/graphfn/framework/errors.py: (code, message) -> exception instance.
py::object& error_factory() {
  static py::object* factory = new py::object();
  return *factory;
}

}  // namespace

void throw_if_error(const Status& s) {
  if (s.ok()) return;
  if (!error_factory()) throw std::runtime_error(s.to_string());
  py::object exc = error_factory()(static_cast<int>(s.code()), s.message());
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  m.def("_set_error_factory", [](py::object factory) { error_factory() = std::move(factory); });
}

}  // namespace graphfn
