// Resources: state that lives across op executions (variables). A tensor of dtype `resource`
// holds handles (shared pointers) to them, like TF's DT_RESOURCE; graphs feed and capture
// handles, and kernels such as ReadVariableOp reach the state through them.
#pragma once
#include <functional>
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
// (tensors are immutable once produced), so a read is a cheap, consistent snapshot that never
// waits for a write's computation. Writes (assign, update) are serialized among themselves, as
// TF's assign ops hold the variable's lock: threads running `v.assign_add(1)` in graph plans
// (without the GIL) lose no increment.
class VariableResource : public Resource {
 public:
  VariableResource(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {}
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }

  Status read(Tensor* out) const;
  Status assign(const Tensor& value);
  // value <- compute(value), atomic with respect to every other assign and update.
  using UpdateFn = std::function<Status(const Tensor& current, Tensor* next)>;
  Status update(const UpdateFn& compute);

 private:
  // A value of `shape` may be assigned: the declared shape may leave dims or the rank unknown.
  bool compatible(const Shape& shape) const;
  Status check_assignable(const Tensor& value) const;
  void store(const Tensor& value);
  const DType dtype_;
  const Shape shape_;
  std::mutex write_mu_;  // held by a whole assign or update (read, compute, store)
  mutable std::mutex mu_;  // guards value_ and initialized_ (held only to copy a handle)
  Tensor value_;
  bool initialized_ = false;
};

// A scalar resource tensor holding `handle`.
Tensor make_resource_tensor(ResourceHandle handle);

// The R a scalar resource tensor holds, or null (another dtype or shape, or another resource).
template <typename R>
const R* resource_in(const Tensor& t) {
  if (t.dtype() != DType::kResource || t.num_elements() != 1) return nullptr;
  return dynamic_cast<const R*>(t.data<ResourceHandle>()->get());
}

}  // namespace graphfn
