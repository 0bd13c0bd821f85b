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
  GRAPHFN_RETURN_IF_ERROR(check_assignable(value));
  std::lock_guard<std::mutex> write(write_mu_);
  store(value);
  return Status::OK();
}

Status VariableResource::update(const UpdateFn& compute) {
  std::lock_guard<std::mutex> write(write_mu_);
  Tensor current;
  GRAPHFN_RETURN_IF_ERROR(read(&current));
  Tensor next;
  GRAPHFN_RETURN_IF_ERROR(compute(current, &next));
  GRAPHFN_RETURN_IF_ERROR(check_assignable(next));
  store(next);
  return Status::OK();
}

void VariableResource::store(const Tensor& value) {
  std::lock_guard<std::mutex> lock(mu_);
  value_ = value;
  initialized_ = true;
}

Status VariableResource::check_assignable(const Tensor& value) const {
  if (value.dtype() != dtype_) {
    return errors::InvalidArgument("Trying to assign variable with wrong dtype. Expected ", dtype_tf_string(dtype_),
                                   " got ", dtype_tf_string(value.dtype()));
  }
  if (!compatible(value.shape())) {
    return errors::InvalidArgument("Trying to assign to variable with tensor with wrong shape. Expected ",
                                   shape_.to_string(), " got ", value.shape().to_string());
  }
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
