// Variable kernels: reach the VariableResource through the handle and read or replace its value.
#include "graphfn/core/resource.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/eager.h"
#include "graphfn/kernels/scaled_update.h"

namespace graphfn {
namespace {

Status variable_of(KernelContext& c, std::shared_ptr<VariableResource>* out) {
  const Tensor& handle = c.input(0);
  *out = std::dynamic_pointer_cast<VariableResource>(*handle.data<ResourceHandle>());
  if (!*out) return errors::FailedPrecondition("Resource handle does not refer to a variable");
  if ((*out)->dtype() != c.type_attr("dtype")) {
    return errors::InvalidArgument("Trying to access variable with wrong dtype. Expected ",
                                   dtype_tf_string((*out)->dtype()), " got ",
                                   dtype_tf_string(c.type_attr("dtype")));
  }
  return Status::OK();
}

Status read_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, &var));
  Tensor value;
  GRAPHFN_RETURN_IF_ERROR(var->read(&value));
  c.set_output(0, std::move(value));
  return Status::OK();
}

Status assign_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, &var));
  return var->assign(c.input(1));
}

// value <- value (+|-) delta, computed with the AddV2/Sub kernels under the variable's write
// lock (one atomic step, as TF's AssignAddVariableOp): concurrent plans lose no update. With the
// "_scale" attr of passes/scaled_updates.h, value <- value (+|-) scale * delta in one pass.
template <bool kAdd>
Status update_kernel(KernelContext& c) {
  std::shared_ptr<VariableResource> var;
  GRAPHFN_RETURN_IF_ERROR(variable_of(c, &var));
  const Tensor& delta = c.input(1);
  const AttrValue* scale = c.attrs.find(kUpdateScaleAttr);
  if (scale != nullptr && std::holds_alternative<Tensor>(*scale)) {
    const Tensor& factor = std::get<Tensor>(*scale);
    return var->update([&delta, &factor](const Tensor& current, Tensor* next) {
      return scaled_update(current, delta, factor, kAdd, next);
    });
  }
  return var->update([&delta](const Tensor& current, Tensor* next) {
    std::vector<Tensor> updated;
    GRAPHFN_RETURN_IF_ERROR(execute_eager(kAdd ? "AddV2" : "Sub", {current, delta}, AttrMap(), &updated));
    *next = std::move(updated[0]);
    return Status::OK();
  });
}

}  // namespace

void register_variable_kernels(OpRegistry& reg) {
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dt = static_cast<DType>(d);
    if (!is_valid(dt)) continue;
    reg.set_kernel("ReadVariableOp", dt, &read_kernel);
    reg.set_kernel("AssignVariableOp", dt, &assign_kernel);
    if (is_numeric(dt)) {
      reg.set_kernel("AssignAddVariableOp", dt, &update_kernel<true>);
      reg.set_kernel("AssignSubVariableOp", dt, &update_kernel<false>);
    }
  }
}

}  // namespace graphfn
