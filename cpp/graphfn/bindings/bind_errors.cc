#include "graphfn/bindings/errors.h"

#include <memory>

namespace graphfn {
namespace py = pybind11;
namespace {

// Set by python/graphfn/framework/errors.py: (code, message) -> exception instance.
py::object& error_factory() {
  static py::object* factory = new py::object();
  return *factory;
}

constexpr char kPythonError[] = "a Python exception was raised in a callback";

// The exception python_error_status() kept on this thread (freed with the GIL held: it is only
// replaced or taken under the GIL).
py::error_already_set*& pending_python_error() {
  thread_local py::error_already_set* pending = nullptr;
  return pending;
}

}  // namespace

Status python_error_status(py::error_already_set& e) {
  delete pending_python_error();
  pending_python_error() = new py::error_already_set(std::move(e));
  return Status(Code::kUnknown, kPythonError);
}

void throw_if_error(const Status& s) {
  if (s.ok()) return;
  if (pending_python_error() && s.code() == Code::kUnknown &&
      s.message().find(kPythonError) != std::string::npos) {
    std::unique_ptr<py::error_already_set> e(pending_python_error());
    pending_python_error() = nullptr;
    e->restore();
    throw py::error_already_set();
  }
  if (!error_factory()) throw std::runtime_error(s.to_string());
  py::object exc = error_factory()(static_cast<int>(s.code()), s.message());
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  m.def("_set_error_factory", [](py::object factory) { error_factory() = std::move(factory); });
}

}  // namespace graphfn
