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
    // The handle gets its tape id now, so every copy (the Consts that capture it in traced
    // functions) is the same tensor to a gradient tape.
    Tensor handle = make_resource_tensor(std::move(var));
    handle.id();
    return handle;
  });
}

}  // namespace graphfn
