// Watching variables from Python (bind_tape.cc): what a read of a trainable variable, and a call
// of a function that passes or reads one, tells the recording tapes of this thread.
#pragma once
#include <pybind11/pybind11.h>

namespace graphfn {
namespace py = pybind11;

// Each recording tape that watches accessed variables watches `variable` (a graphfn.Variable) if
// it is trainable. Returns at once when no tape records.
void variable_accessed(py::handle variable);

}  // namespace graphfn
