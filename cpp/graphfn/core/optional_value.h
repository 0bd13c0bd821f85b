// OptionalValue: the value behind the scalar the Optional ops make (tf.experimental.Optional,
// what iterator.get_next_as_optional() gives): an element's tensors, or none. TF types the
// scalar `variant`; graphfn carries it in a `resource` scalar as it does TensorLists
// (core/tensor_list.h), so an Optional is one tensor whatever its element: a loop can carry one
// whose element spec is set only while its body is traced (as Keras's training loop does).
#pragma once
#include <memory>
#include <vector>

#include "graphfn/core/resource.h"

namespace graphfn {

struct OptionalValue : Resource {
  bool has_value = false;
  std::vector<Tensor> components;  // empty without a value
};

// A scalar tensor holding `value`.
Tensor make_optional_tensor(std::shared_ptr<const OptionalValue> value);
// The optional inside a scalar tensor (null if it holds none).
const OptionalValue* optional_of(const Tensor& t);

}  // namespace graphfn
