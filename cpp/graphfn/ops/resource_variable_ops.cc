// Variable ops on resource handles: ReadVariableOp, AssignVariableOp, AssignAdd/SubVariableOp.
#include "graphfn/ir/op_registry.h"
#include "graphfn/core/resource.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status check_handle(InferenceContext& c) {
  if (c.input_shape(0).known_rank() && c.input_shape(0).rank() != 0) {
    return errors::InvalidArgument("resource handle must be a scalar, got shape ", c.input_shape(0));
  }
  return Status::OK();
}

// The variable's shape is known when the handle is a constant (a captured variable).
Shape variable_shape(InferenceContext& c) {
  const Tensor* handle = c.input_value(0);
  if (handle && handle->dtype() == DType::kResource) {
    auto var = std::dynamic_pointer_cast<VariableResource>(*handle->data<ResourceHandle>());
    if (var) return var->shape();
  }
  if (const Shape* shape = c.input_handle_shape(0)) return *shape;
  return Shape::unknown_rank();
}

Status read_shape(InferenceContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_handle(c));
  c.set_output(0, c.type_attr("dtype"), variable_shape(c));
  return Status::OK();
}

Status assign_shape(InferenceContext& c) { return check_handle(c); }

}  // namespace

void register_resource_variable_ops(OpRegistry& reg) {
  reg.op("ReadVariableOp").input("resource: resource").output("value: dtype").attr("dtype: type")
      .reads_resource().shape_fn(read_shape, true);
  for (const char* name : {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp"}) {
    reg.op(name).input("resource: resource").input("value: dtype").attr("dtype: type")
        .stateful().writes_resource().shape_fn(assign_shape, true);
  }
}

}  // namespace graphfn
