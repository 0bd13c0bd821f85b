#include "graphfn/core/tensor_list.h"

namespace graphfn {

Tensor make_list_tensor(std::shared_ptr<const TensorList> list) {
  Tensor t(DType::kResource, Shape());
  *t.data<ResourceHandle>() = std::const_pointer_cast<TensorList>(std::move(list));
  return t;
}

const TensorList* list_of(const Tensor& t) {
  if (t.dtype() != DType::kResource || t.num_elements() != 1) return nullptr;
  return dynamic_cast<const TensorList*>(t.data<ResourceHandle>()->get());
}

}  // namespace graphfn
