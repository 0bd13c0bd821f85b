// Making EagerTensor Python objects for results (a function call's outputs, an eager op's
// outputs) without pybind11's per-instance bookkeeping. pybind11 registers every instance it
// creates in a global pointer -> instance map, so that casting the same C++ pointer again finds
// the same Python object; EagerTensors are only ever returned by value, so that lookup never
// finds one, and its insert and erase were a quarter of a cache-hit function call.
#pragma once
#include <pybind11/pybind11.h>

#include "graphfn/core/tensor.h"

namespace graphfn {
namespace py = pybind11;

// A new EagerTensor owning `t` (moved from). Objects made here are not registered: their
// deallocation skips pybind11's map and goes straight to the tensor's destructor. Everything
// else (attribute access, pybind11's casts from Python, weak references) works as for any
// pybind11 instance.
py::object wrap_eager_tensor(Tensor&& t);

// Called once by bind_tensor after the EagerTensor class exists: checks the class has the layout
// wrap_eager_tensor fills (otherwise it falls back to py::cast) and installs the deallocator.
void install_eager_tensor_object(py::handle type);

}  // namespace graphfn
