// Kernels of the Optional ops (ops/data_ops.cc): an optional is a resource scalar holding an
// OptionalValue (core/optional_value.h), immutable once made, so sharing one between threads or
// loop iterations needs no lock.
#include "graphfn/core/optional_value.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

Status optional_input(KernelContext& c, const char* op, const OptionalValue** out) {
  *out = optional_of(c.input(0));
  if (!*out) return errors::InvalidArgument(op, ": the input is not an optional");
  return Status::OK();
}

Status from_value_kernel(KernelContext& c) {
  auto value = std::make_shared<OptionalValue>();
  value->has_value = true;
  value->components.reserve(static_cast<size_t>(c.num_inputs));
  for (int i = 0; i < c.num_inputs; ++i) value->components.push_back(c.input(i));
  c.set_output(0, make_optional_tensor(std::move(value)));
  return Status::OK();
}

Status none_kernel(KernelContext& c) {
  static const std::shared_ptr<const OptionalValue> empty = std::make_shared<OptionalValue>();
  c.set_output(0, make_optional_tensor(empty));
  return Status::OK();
}

Status has_value_kernel(KernelContext& c) {
  const OptionalValue* value = nullptr;
  GRAPHFN_RETURN_IF_ERROR(optional_input(c, "OptionalHasValue", &value));
  *c.allocate_output(0).data<bool>() = value->has_value;
  return Status::OK();
}

Status get_value_kernel(KernelContext& c) {
  const OptionalValue* value = nullptr;
  GRAPHFN_RETURN_IF_ERROR(optional_input(c, "OptionalGetValue", &value));
  if (!value->has_value) return errors::InvalidArgument("The given optional does not have a value.");
  if (static_cast<int>(value->components.size()) != c.num_outputs) {
    return errors::InvalidArgument("OptionalGetValue: the optional holds ", value->components.size(),
                                   " components, output_types has ", c.num_outputs);
  }
  for (int i = 0; i < c.num_outputs; ++i) {
    const Tensor& component = value->components[static_cast<size_t>(i)];
    if (component.dtype() != c.output_dtypes[static_cast<size_t>(i)]) {
      return errors::InvalidArgument("OptionalGetValue: component ", i, " is ", dtype_name(component.dtype()),
                                     ", output_types says ", dtype_name(c.output_dtypes[static_cast<size_t>(i)]));
    }
    c.set_output(i, component);
  }
  return Status::OK();
}

}  // namespace

void register_optional_kernels(OpRegistry& reg) {
  reg.set_kernel("OptionalFromValue", DType::kInvalid, &from_value_kernel);
  reg.set_kernel("OptionalNone", DType::kInvalid, &none_kernel);
  reg.set_kernel("OptionalHasValue", DType::kInvalid, &has_value_kernel);
  reg.set_kernel("OptionalGetValue", DType::kInvalid, &get_value_kernel);
}

}  // namespace graphfn
