// Resources: state that lives across op executions (variables). A tensor of dtype `resource`
// holds handles (shared pointers) to them, like TF's DT_RESOURCE; graphs feed and capture
// handles, and kernels such as ReadVariableOp reach the state through them.
#pragma once
#include <memory>
#include <mutex>

#include "graphfn/core/tensor.h"

namespace graphfn {

class Resource {
 public:
  virtual ~Resource() = default;
};
using ResourceHandle = std::shared_ptr<Resource>;

// A variable: a current value of a fixed dtype and shape. Writes replace the value tensor
// (tensors are immutable once produced), so a read is a cheap, consistent snapshot.
class VariableResource : public Resource {
 public:
  VariableResource(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {}
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }

  Status read(Tensor* out) const;
  Status assign(const Tensor& value);

 private:
  // A value of `shape` may be assigned: the declared shape may leave dims or the rank unknown.
  bool compatible(const Shape& shape) const;
  const DType dtype_;
  const Shape shape_;
  mutable std::mutex mu_;
  Tensor value_;
  bool initialized_ = false;
};

// A scalar resource tensor holding `handle`.
Tensor make_resource_tensor(ResourceHandle handle);

}  // namespace graphfn
