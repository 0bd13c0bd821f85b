// VariableBase: the C base class of graphfn.Variable (python/graphfn/variables.py). It keeps
// the two attributes a call of a tf.function reads from every Variable argument, `_handle` and
// `_trainable`, in C fields instead of the instance dict, and when `_handle` is set it notes the
// handle's tensor and variable resource, so the call cache keys and feeds a Variable argument
// with no attribute lookup and no cast (call_key_builder.cc).
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/resource.h"
#include "graphfn/core/tensor.h"

namespace graphfn {
namespace py = pybind11;

struct VariableObject {
  PyObject_HEAD
  PyObject* handle;     // `_handle` (null until set)
  PyObject* trainable;  // `_trainable` (null until set)
  // Set with `_handle` when it is an eager resource tensor of a variable (else null): its
  // tensor, and the resource, which that tensor keeps alive.
  const Tensor* handle_tensor;
  const VariableResource* resource;
};

// The type (ready once bind_variable_object has run).
PyTypeObject* variable_base_type();
void bind_variable_object(py::module_& m);

}  // namespace graphfn
