// Calling a registered op from Python. Inputs are converted the way TF does (tensors fix a type
// attr, Python values follow it); then the op either runs eagerly or, while a graph is being
// traced on this thread, becomes a node of that graph.
#pragma once
#include <string>

#include <pybind11/pybind11.h>

#include "graphfn/core/attr_value.h"
#include "graphfn/ir/op_def.h"

namespace graphfn {
namespace py = pybind11;

// A callable op: the definition plus the node name TF gives it by default ("Add" for tf.add,
// "add" for `x + y`, "Greater" for tf.greater).
struct OpHandle {
  const OpDef* op;
  std::string name;
  // TF's `+` and tf.add convert a Python operand with the other's dtype only as a hint: a value
  // that does not fit keeps its own dtype and the op then reports the mismatch. Every other op
  // wrapper raises TypeError ("Cannot convert 1.5 to EagerTensor of dtype int32").
  bool hint_python_inputs = false;
  // tf.add and `+`: when x is a string tensor, TF runs this op (Add) instead (AddV2 has no
  // string kernel).
  const OpDef* string_op = nullptr;
};

// `inputs` has one entry per declared input; a list input is a Python sequence.
py::object call_op(const OpHandle& h, const py::handle* inputs, int num_inputs, const AttrMap& attrs);

// `op(*args, **kwargs)` from Python: positional inputs, keyword attrs.
py::object call_op_with_python_args(const OpHandle& h, PyObject* args, PyObject* kwargs);

// `v.__tf_tensor__()` for objects that implement TF's tensor protocol (graphfn.Variable), else v.
py::object as_tensor_input(py::handle v);

// The dtype of an eager or symbolic tensor, or kInvalid for anything else.
DType tensor_dtype(py::handle v);

// TF's graph-building text for a Python value that does not convert to `want`:
// "Expected int32, but got 1.5 of type 'float'." (naming the first element that does not fit).
std::string expected_dtype_text(py::handle value, DType want);

// Looks an op up by name, raising NotFoundError for an unknown one.
const OpDef& find_op(const std::string& name);

}  // namespace graphfn
