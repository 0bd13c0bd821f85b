// Element surgery the dataset nodes share: slicing a tensor along its first dimension, and
// stacking (or padding and stacking) same-typed tensors into a batch. Strings are copied as
// strings; every other dtype as bytes.
#pragma once
#include <vector>

#include "graphfn/core/status.h"
#include "graphfn/core/tensor.h"

namespace graphfn {
namespace data {

// Row `index` of `t` (rank >= 1): a tensor of shape t.shape()[1:].
Tensor slice_row(const Tensor& t, int64_t index);

// Stacks `parts` (same dtype) into shape [parts.size()] + their shape; every part must have the
// first part's shape (TF's "Cannot add tensor to the batch" error otherwise).
Status stack_tensors(const std::vector<const Tensor*>& parts, Tensor* out);

// Stacks `parts` padded with `padding` (a scalar of their dtype) to `shape`: each dimension of
// `shape` that is -1 becomes the largest of the parts' dimension.
Status pad_and_stack(const std::vector<const Tensor*>& parts, const Shape& shape, const Tensor& padding, Tensor* out);

}  // namespace data
}  // namespace graphfn
