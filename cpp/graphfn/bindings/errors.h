// Turns a non-OK Status into the matching graphfn.errors.* Python exception.
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/status.h"

namespace graphfn {

// Raises (throws py::error_already_set) when `s` is not OK.
void throw_if_error(const Status& s);
void bind_errors(pybind11::module_& m);

}  // namespace graphfn
