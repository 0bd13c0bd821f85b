// Kernels of the dataset-loop ops (ops/data_ops.cc): they reach the pipeline through the
// resource interfaces of core/dataset_resource.h.
#include "graphfn/core/dataset_resource.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename R>
Status resource_input(KernelContext& c, const char* what, std::shared_ptr<R>* out) {
  const Tensor& handle = c.input(0);
  if (handle.dtype() != DType::kResource || handle.num_elements() != 1) {
    return errors::InvalidArgument(what, " must be a scalar resource");
  }
  *out = std::dynamic_pointer_cast<R>(*handle.data<ResourceHandle>());
  if (!*out) return errors::FailedPrecondition("Resource handle does not refer to a ", what);
  return Status::OK();
}

Status make_iterator_kernel(KernelContext& c) {
  std::shared_ptr<DatasetResource> dataset;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset", &dataset));
  c.set_output(0, make_resource_tensor(dataset->make_element_iterator()));
  return Status::OK();
}

Status has_next_kernel(KernelContext& c) {
  std::shared_ptr<ElementIteratorResource> iterator;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset iterator", &iterator));
  bool has = false;
  GRAPHFN_RETURN_IF_ERROR(iterator->has_next(&has));
  c.set_output(0, Tensor::scalar<bool>(has));
  return Status::OK();
}

Status get_next_kernel(KernelContext& c) {
  std::shared_ptr<ElementIteratorResource> iterator;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset iterator", &iterator));
  const std::vector<DType>* types = c.attrs.get_type_list("output_types");
  if (!types) return errors::InvalidArgument("GraphfnIteratorGetNext needs output_types");
  std::vector<Tensor> element;
  GRAPHFN_RETURN_IF_ERROR(iterator->get_next(&element));
  if (element.size() != types->size()) {
    return errors::InvalidArgument("The dataset's elements have ", element.size(), " components, expected ",
                                   types->size());
  }
  for (size_t i = 0; i < element.size(); ++i) {
    if (element[i].dtype() != (*types)[i]) {
      return errors::InvalidArgument("Component ", i, " of the dataset's element is ",
                                     dtype_tf_string(element[i].dtype()), ", expected ",
                                     dtype_tf_string((*types)[i]));
    }
    c.set_output(static_cast<int>(i), std::move(element[i]));
  }
  return Status::OK();
}

}  // namespace

void register_data_kernels(OpRegistry& reg) {
  reg.set_kernel("GraphfnDatasetIterator", DType::kInvalid, &make_iterator_kernel);
  reg.set_kernel("GraphfnIteratorHasNext", DType::kInvalid, &has_next_kernel);
  reg.set_kernel("GraphfnIteratorGetNext", DType::kInvalid, &get_next_kernel);
}

}  // namespace graphfn
