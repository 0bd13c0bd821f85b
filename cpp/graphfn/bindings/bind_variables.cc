// Variables from Python: create the VariableResource and hand back its resource-handle tensor;
// reads and writes then go through the ordinary ops (ReadVariableOp, AssignVariableOp, ...).
#include "graphfn/bindings/bind.h"
#include "graphfn/bindings/convert.h"
#include "graphfn/bindings/errors.h"
#include "graphfn/core/resource.h"

namespace graphfn {

void bind_variables(py::module_& m) {
  m.def("new_variable", [](py::handle initial_value) {
    const Tensor* init = eager_tensor_ptr(initial_value);
    if (!init) throw py::type_error("new_variable expects an eager tensor");
    auto var = std::make_shared<VariableResource>(init->dtype(), init->shape());
    throw_if_error(var->assign(*init));
    return make_resource_tensor(std::move(var));
  });
  // The identity of the resource behind a handle (as Graph.captured_resources reports it).
  m.def("resource_id", [](py::handle handle) {
    const Tensor* t = eager_tensor_ptr(handle);
    if (!t || t->dtype() != DType::kResource || t->num_elements() != 1) throw py::type_error("expected a resource handle");
    return reinterpret_cast<uintptr_t>(t->data<ResourceHandle>()->get());
  });
}

}  // namespace graphfn
