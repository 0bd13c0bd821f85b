// Variables from Python: create the VariableResource and hand back its resource-handle tensor;
// reads and writes then go through the ordinary ops (ReadVariableOp, AssignVariableOp, ...).
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/bindings/variable_object.h"
#include "graphfn/core/resource.h"

namespace graphfn {

void bind_variables(py::module_& m) {
  bind_variable_object(m);
  // `shape`: None for the initial value's shape, else dims (None for unknown) or None-as-rank
  // passed as `unknown_rank=True` (tf.Variable(..., shape=...) lets assignments change them).
  m.def("new_variable", [](py::handle initial_value, py::handle dims, bool unknown_rank) {
    const Tensor* init = eager_tensor_ptr(initial_value);
    if (!init) throw py::type_error("new_variable expects an eager tensor");
    Shape shape = init->shape();
    if (unknown_rank) {
      shape = Shape::unknown_rank();
    } else if (!dims.is_none()) {
      std::vector<int64_t> d;
      for (auto dim : dims) d.push_back(dim.is_none() ? Shape::kUnknownDim : dim.cast<int64_t>());
      shape = Shape(std::move(d));
    }
    auto var = std::make_shared<VariableResource>(init->dtype(), std::move(shape));
    throw_if_error(var->assign(*init));
    // The handle gets its tape id now, so every copy (the Consts that capture it in traced
    // functions) is the same tensor to a gradient tape.
    Tensor handle = make_resource_tensor(std::move(var));
    handle.id();
    return handle;
  }, py::arg("initial_value"), py::arg("dims") = py::none(), py::arg("unknown_rank") = false);
  // The identity of the resource behind a handle (as Graph.captured_resources reports it).
  m.def("resource_id", [](py::handle handle) {
    const Tensor* t = eager_tensor_ptr(handle);
    if (!t || t->dtype() != DType::kResource || t->num_elements() != 1) throw py::type_error("expected a resource handle");
    return reinterpret_cast<uintptr_t>(t->data<ResourceHandle>()->get());
  });
}

}  // namespace graphfn
