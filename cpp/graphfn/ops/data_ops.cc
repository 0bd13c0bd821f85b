// Ops a traced function uses to loop over a tf.data dataset (docs/data.md): graphfn's own, as TF's
// iterator ops carry variants graphfn does not have. GraphfnDatasetIterator makes an iterator of a
// dataset resource; GraphfnIteratorHasNext peeks (the loop's condition);
// GraphfnIteratorGetNext takes the element (the loop body); GraphfnIteratorGetNextAsOptional
// takes it as an optional (iterator.get_next_as_optional() in a trace), empty after the last. All
// stateful: never folded, merged or pruned, so an element is taken even when the body does not
// use it.
//
// And the Optional ops, with TF's names: OptionalFromValue, OptionalNone, OptionalHasValue,
// OptionalGetValue. An optional is a `resource` scalar here (TF's is a `variant`: see
// core/optional_value.h); OptionalGetValue has no output_shapes attr (Python sets the
// components' static shapes from the element spec, as for GraphfnIteratorGetNext).
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace {

Status iterator_shape(InferenceContext& c) {
  c.set_output(0, DType::kResource, Shape());
  return Status::OK();
}

Status has_next_shape(InferenceContext& c) {
  c.set_output(0, DType::kBool, Shape());
  return Status::OK();
}

// Unknown shapes: Python sets each component's static shape from the element_spec (the
// bindings cannot pass list(shape) attrs).
Status get_next_shape(InferenceContext& c) {
  const std::vector<DType>* types = c.attrs().get_type_list("output_types");
  if (!types) return errors::InvalidArgument("GraphfnIteratorGetNext needs output_types");
  for (size_t i = 0; i < types->size(); ++i) c.set_output(static_cast<int>(i), (*types)[i], Shape::unknown_rank());
  return Status::OK();
}

Status scalar_bool(InferenceContext& c) {
  c.set_output(0, DType::kBool, Shape());
  return Status::OK();
}

Status optional_shape(InferenceContext& c) {
  c.set_output(0, DType::kResource, Shape());
  return Status::OK();
}

Status optional_get_value_shape(InferenceContext& c) {
  const std::vector<DType>* types = c.attrs().get_type_list("output_types");
  if (!types) return errors::InvalidArgument("OptionalGetValue needs output_types");
  for (size_t i = 0; i < types->size(); ++i) c.set_output(static_cast<int>(i), (*types)[i], Shape::unknown_rank());
  return Status::OK();
}

}  // namespace

void register_data_ops(OpRegistry& reg) {
  reg.op("GraphfnDatasetIterator").input("dataset: resource").output("iterator: resource").stateful()
      .shape_fn(iterator_shape, true);
  reg.op("GraphfnIteratorHasNext").input("iterator: resource").output("has_next: bool").stateful()
      .shape_fn(has_next_shape, true);
  reg.op("GraphfnIteratorGetNext").input("iterator: resource").output("components: output_types")
      .attr("output_types: list(type) >= 1").stateful()
      .shape_fn(get_next_shape, true);
  reg.op("GraphfnIteratorGetNextAsOptional").input("iterator: resource").output("optional: resource")
      .attr("output_types: list(type) >= 1").stateful().shape_fn(optional_shape, true);
  reg.op("OptionalFromValue").input("components: Toutput_types").output("optional: resource")
      .attr("Toutput_types: list(type) >= 1").shape_fn(optional_shape, true);
  reg.op("OptionalNone").output("optional: resource").shape_fn(optional_shape, true);
  reg.op("OptionalHasValue").input("optional: resource").output("has_value: bool").shape_fn(scalar_bool, true);
  reg.op("OptionalGetValue").input("optional: resource").output("components: output_types")
      .attr("output_types: list(type) >= 1").shape_fn(optional_get_value_shape, true);
}

}  // namespace graphfn
