#include "graphfn/core/resource.h"

namespace graphfn {

Status VariableResource::read(Tensor* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!initialized_) {
    return errors::FailedPrecondition("Could not find variable. This could mean that the variable has been "
                                      "deleted or was never initialized.");
  }
  *out = value_;
  return Status::OK();
}

Status VariableResource::assign(const Tensor& value) {
  if (value.dtype() != dtype_) {
    return errors::InvalidArgument("Trying to assign variable with wrong dtype. Expected ", dtype_tf_string(dtype_),
                                   " got ", dtype_tf_string(value.dtype()));
  }
  if (!compatible(value.shape())) {
    return errors::InvalidArgument("Trying to assign to variable with tensor with wrong shape. Expected ",
                                   shape_.to_string(), " got ", value.shape().to_string());
  }
  std::lock_guard<std::mutex> lock(mu_);
  value_ = value;
  initialized_ = true;
  return Status::OK();
}

bool VariableResource::compatible(const Shape& shape) const {
  if (!shape_.known_rank()) return true;
  if (shape.rank() != shape_.rank()) return false;
  for (int i = 0; i < shape_.rank(); ++i) {
    if (shape_.dim(i) != Shape::kUnknownDim && shape_.dim(i) != shape.dim(i)) return false;
  }
  return true;
}

Tensor make_resource_tensor(ResourceHandle handle) {
  Tensor t(DType::kResource, Shape());
  *t.data<ResourceHandle>() = std::move(handle);
  return t;
}

}  // namespace graphfn
