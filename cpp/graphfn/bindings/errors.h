// Turns a non-OK Status into the matching graphfn.errors.* Python exception.
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/status.h"

namespace graphfn {
namespace py = pybind11;

// Raises (throws py::error_already_set) when `s` is not OK. A status made by
// python_error_status() raises the Python exception it stands for.
void throw_if_error(const Status& s);

// A Python exception raised inside a callback that C++ code called (a custom gradient's function)
// travels back through Status: this keeps the exception (this thread's, the latest one) and
// returns the status that stands for it, so the Python caller sees the exception itself.
Status python_error_status(py::error_already_set& e);
void bind_errors(pybind11::module_& m);

}  // namespace graphfn
