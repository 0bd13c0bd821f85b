// Kernels of the dataset-loop ops (ops/data_ops.cc): they reach the pipeline through the
// resource interfaces of core/dataset_resource.h.
#include <atomic>
#include <typeinfo>

#include "graphfn/core/dataset_resource.h"
#include "graphfn/core/optional_value.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

// `r` as an R, or null. dynamic_cast walks the class hierarchy (hundreds of instructions) and a
// loop asks the same question of the same class every element, so the dynamic type last found
// to be an R is remembered; for it, static_cast is the same downcast (R derives from Resource
// without virtual inheritance, or this would not compile). Type infos are compared by address:
// a duplicate type_info in another library only misses. Races only repeat the dynamic_cast.
template <typename R>
R* cast_resource(Resource* r) {
  static std::atomic<const std::type_info*> known{nullptr};
  const std::type_info* type = &typeid(*r);
  if (type == known.load(std::memory_order_relaxed)) return static_cast<R*>(r);
  R* cast = dynamic_cast<R*>(r);
  if (cast) known.store(type, std::memory_order_relaxed);
  return cast;
}

// The resource input 0 refers to. A raw pointer: the input tensor holds the resource for the
// kernel's run (no reference count traffic per element).
template <typename R>
Status resource_input(KernelContext& c, const char* what, R** out) {
  const Tensor& handle = c.input(0);
  if (handle.dtype() != DType::kResource || handle.num_elements() != 1) {
    return errors::InvalidArgument(what, " must be a scalar resource");
  }
  Resource* resource = handle.data<ResourceHandle>()->get();
  *out = resource ? cast_resource<R>(resource) : nullptr;
  if (!*out) return errors::FailedPrecondition("Resource handle does not refer to a ", what);
  return Status::OK();
}

Status make_iterator_kernel(KernelContext& c) {
  DatasetResource* dataset = nullptr;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset", &dataset));
  c.set_output(0, make_resource_tensor(dataset->make_element_iterator()));
  return Status::OK();
}

Status has_next_kernel(KernelContext& c) {
  ElementIteratorResource* iterator = nullptr;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset iterator", &iterator));
  bool has = false;
  GRAPHFN_RETURN_IF_ERROR(iterator->has_next(&has));
  *c.allocate_output(0).data<bool>() = has;  // a loop's condition: the slot's scalar is reused
  return Status::OK();
}

struct GetNextAttrs {
  std::vector<DType> types;
  bool ok = false;
};

GetNextAttrs read_get_next_attrs(const AttrMap& attrs) {
  GetNextAttrs a;
  if (const std::vector<DType>* types = attrs.get_type_list("output_types")) {
    a.types = *types;
    a.ok = true;
  }
  return a;
}

Status get_next_kernel(KernelContext& c) {
  ElementIteratorResource* iterator = nullptr;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset iterator", &iterator));
  GetNextAttrs local;
  const GetNextAttrs& attrs = prepared_attrs(c, &read_get_next_attrs, &local);
  if (!attrs.ok) return errors::InvalidArgument("GraphfnIteratorGetNext needs output_types");
  return iterator->take_next(attrs.types, c.outputs, c.num_outputs);
}

// The next element as an optional; an empty one after the last. One get_next, so threads sharing
// the iterator never split an element between them.
Status get_next_as_optional_kernel(KernelContext& c) {
  ElementIteratorResource* iterator = nullptr;
  GRAPHFN_RETURN_IF_ERROR(resource_input(c, "dataset iterator", &iterator));
  GetNextAttrs local;
  const GetNextAttrs& attrs = prepared_attrs(c, &read_get_next_attrs, &local);
  if (!attrs.ok) return errors::InvalidArgument("GraphfnIteratorGetNextAsOptional needs output_types");
  auto value = std::make_shared<OptionalValue>();
  const Status taken = iterator->get_next(&value->components);
  if (taken.ok()) {
    if (value->components.size() != attrs.types.size()) {
      return errors::InvalidArgument("GraphfnIteratorGetNextAsOptional: the element has ", value->components.size(),
                                     " components, output_types ", attrs.types.size());
    }
    for (size_t i = 0; i < attrs.types.size(); ++i) {
      if (value->components[i].dtype() != attrs.types[i]) {
        return errors::InvalidArgument("GraphfnIteratorGetNextAsOptional: component ", i, " is ",
                                       dtype_name(value->components[i].dtype()), ", output_types says ",
                                       dtype_name(attrs.types[i]));
      }
    }
    value->has_value = true;
  } else if (taken.code() == Code::kOutOfRange) {
    value->components.clear();
  } else {
    return taken;
  }
  c.set_output(0, make_optional_tensor(std::move(value)));
  return Status::OK();
}

}  // namespace

void register_data_kernels(OpRegistry& reg) {
  reg.set_kernel("GraphfnDatasetIterator", DType::kInvalid, &make_iterator_kernel);
  reg.set_kernel("GraphfnIteratorHasNext", DType::kInvalid, &has_next_kernel);
  reg.set_kernel("GraphfnIteratorGetNext", DType::kInvalid, &get_next_kernel);
  reg.set_attr_prepare("GraphfnIteratorGetNext", &prepare_attrs<GetNextAttrs, &read_get_next_attrs>);
  reg.set_kernel("GraphfnIteratorGetNextAsOptional", DType::kInvalid, &get_next_as_optional_kernel);
  reg.set_attr_prepare("GraphfnIteratorGetNextAsOptional", &prepare_attrs<GetNextAttrs, &read_get_next_attrs>);
}

}  // namespace graphfn
