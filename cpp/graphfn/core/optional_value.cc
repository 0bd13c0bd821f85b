#include "graphfn/core/optional_value.h"

namespace graphfn {

Tensor make_optional_tensor(std::shared_ptr<const OptionalValue> value) {
  return make_resource_tensor(std::const_pointer_cast<OptionalValue>(std::move(value)));
}

const OptionalValue* optional_of(const Tensor& t) { return resource_in<OptionalValue>(t); }

}  // namespace graphfn
