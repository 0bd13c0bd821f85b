#include "graphfn/ir/shape_inference.h"

namespace graphfn {

DType InferenceContext::type_attr(const std::string& name) const {
  const int i = op_.type_attr_index(name);
  return i < 0 ? DType::kInvalid : type_attrs_[i];
}

void InferenceContext::set_output(int i, DType dt, Shape shape) {
  if (i == num_outputs()) {  // the usual order, outputs set one after another: no resize
    output_dtypes_.push_back(dt);
    output_shapes_.push_back(std::move(shape));
    return;
  }
  if (static_cast<int>(output_dtypes_.size()) <= i) {
    output_dtypes_.resize(i + 1, DType::kInvalid);
    output_shapes_.resize(i + 1);
  }
  output_dtypes_[i] = dt;
  output_shapes_[i] = std::move(shape);
}

Status tensor_to_int64s(const Tensor& t, std::vector<int64_t>* out) {
  out->resize(t.num_elements());
  if (t.dtype() == DType::kInt32) {
    for (int64_t i = 0; i < t.num_elements(); ++i) (*out)[i] = t.data<int32_t>()[i];
  } else if (t.dtype() == DType::kInt64) {
    for (int64_t i = 0; i < t.num_elements(); ++i) (*out)[i] = t.data<int64_t>()[i];
  } else {
    return errors::InvalidArgument("expected an int32 or int64 tensor, got ", dtype_name(t.dtype()));
  }
  return Status::OK();
}

}  // namespace graphfn
