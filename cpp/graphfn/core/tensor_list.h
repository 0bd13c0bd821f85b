// TensorList: the value behind the scalar made by the TensorList* ops (TF 2's TensorArray in
// graphs). TF types it `variant`; graphfn carries it in a `resource` scalar (the same handle
// storage), which also keeps passes from folding or merging list ops. A list is immutable once
// made: TensorListSetItem returns a new list, so a list carried through a While loop is an
// ordinary loop value. The new list shares all but one trie path with the old (PersistentVector),
// so a write costs the same at any length.
#pragma once
#include <memory>
#include <vector>

#include "graphfn/core/persistent_vector.h"
#include "graphfn/core/resource.h"

namespace graphfn {

struct TensorList : Resource {
  DType element_dtype = DType::kInvalid;
  Shape element_shape = Shape::unknown_rank();  // may be partial
  PersistentVector<Tensor> items;               // an invalid Tensor: not written yet
};

// A scalar tensor holding `list`.
Tensor make_list_tensor(std::shared_ptr<const TensorList> list);
// The list inside a scalar tensor (null if it holds none).
const TensorList* list_of(const Tensor& t);

}  // namespace graphfn
