// A Python object kept alive by C++ state that is Python-free (a trace's variables read, a tape's
// watched variables): an opaque shared pointer whose last owner releases it with the GIL held.
#pragma once
#include <memory>

#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

inline std::shared_ptr<const void> own(py::handle object) {
  return std::shared_ptr<const void>(new py::object(py::reinterpret_borrow<py::object>(object)), [](const void* p) {
    py::gil_scoped_acquire gil;
    delete static_cast<const py::object*>(p);
  });
}

// The object behind an owner made by own().
inline py::object owned(const std::shared_ptr<const void>& owner) {
  return *static_cast<const py::object*>(owner.get());
}

}  // namespace graphfn
