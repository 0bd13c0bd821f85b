// One bind_* function per binding file; module.cc calls them in order.
#pragma once
#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_tensor(py::module_& m);
void bind_eager(py::module_& m);
void bind_random(py::module_& m);

}  // namespace graphfn
