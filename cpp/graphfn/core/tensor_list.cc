#include "graphfn/core/tensor_list.h"

namespace graphfn {

Tensor make_list_tensor(std::shared_ptr<const TensorList> list) {
  return make_resource_tensor(std::const_pointer_cast<TensorList>(std::move(list)));
}

const TensorList* list_of(const Tensor& t) { return resource_in<TensorList>(t); }

}  // namespace graphfn
