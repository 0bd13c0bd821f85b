// Calling a registered op from Python eagerly: convert the Python inputs (matching dtypes the
// way TF does: tensors fix a type attr, Python values follow it), run, wrap the outputs.
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {
namespace py = pybind11;

// `inputs` has one entry per declared input; a list input is a Python sequence.
py::object call_op(const OpDef& op, const py::handle* inputs, int num_inputs, const AttrMap& attrs);

// `op(*args, **kwargs)` from Python: positional inputs, keyword attrs.
py::object call_op_with_python_args(const OpDef& op, PyObject* args, PyObject* kwargs);

// Looks an op up by name, failing with a Python NotFoundError-style exception.
const OpDef& find_op(const std::string& name);

}  // namespace graphfn
