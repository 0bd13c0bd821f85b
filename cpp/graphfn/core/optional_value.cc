#include "graphfn/core/optional_value.h"

namespace graphfn {

Tensor make_optional_tensor(std::shared_ptr<const OptionalValue> value) {
  Tensor t(DType::kResource, Shape());
  *t.data<ResourceHandle>() = std::const_pointer_cast<OptionalValue>(std::move(value));
  return t;
}

const OptionalValue* optional_of(const Tensor& t) {
  if (t.dtype() != DType::kResource || t.num_elements() != 1) return nullptr;
  return dynamic_cast<const OptionalValue*>(t.data<ResourceHandle>()->get());
}

}  // namespace graphfn
