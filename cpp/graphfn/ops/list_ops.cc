// TensorList ops (TF 2's TensorArray in graphs): a list of tensors of one dtype carried as a
// scalar (TF's `variant`; a `resource` scalar here, see core/tensor_list.h). Element shapes are given as int32 tensors: -1 (scalar) for an unknown rank,
// else the dims with -1 for unknown ones.
#include "graphfn/ir/op_registry.h"
#include "graphfn/ir/shape_inference.h"

namespace graphfn {

// The shape an element_shape tensor encodes.
Status element_shape_of(const Tensor& t, Shape* out) {
  if (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64) {
    return errors::InvalidArgument("element_shape must be an int32 or int64 tensor");
  }
  std::vector<int64_t> dims;
  GRAPHFN_RETURN_IF_ERROR(tensor_to_int64s(t, &dims));
  if (t.rank() == 0) {
    if (dims[0] != -1) return errors::InvalidArgument("element_shape must be -1 or a vector, got ", dims[0]);
    *out = Shape::unknown_rank();
    return Status::OK();
  }
  if (t.rank() != 1) return errors::InvalidArgument("element_shape must be at most a vector");
  for (int64_t& d : dims) {
    if (d < -1) return errors::InvalidArgument("element_shape dims must be >= -1, got ", d);
  }
  *out = Shape(dims);
  return Status::OK();
}

namespace {

Status scalar_list(InferenceContext& c) {
  c.set_output(0, DType::kResource, Shape());
  return Status::OK();
}

Status scalar_int32(InferenceContext& c) {
  c.set_output(0, DType::kInt32, Shape());
  return Status::OK();
}

// The element shape given as input `i`, unknown while tracing when it is not a constant.
Shape given_element_shape(InferenceContext& c, int i) {
  Shape shape = Shape::unknown_rank();
  if (const Tensor* t = c.input_value(i)) {
    if (!element_shape_of(*t, &shape).ok()) shape = Shape::unknown_rank();
  }
  return shape;
}

Status get_item_shape(InferenceContext& c) {
  c.set_output(0, c.type_attr("element_dtype"), given_element_shape(c, 2));
  return Status::OK();
}

Status stack_shape(InferenceContext& c) {
  const Shape element = given_element_shape(c, 1);
  if (!element.known_rank()) {
    c.set_output(0, c.type_attr("element_dtype"), Shape::unknown_rank());
    return Status::OK();
  }
  Shape shape = element;
  shape.insert_dim(0, c.attrs().get_int("num_elements", -1));
  c.set_output(0, c.type_attr("element_dtype"), std::move(shape));
  return Status::OK();
}

}  // namespace

void register_list_ops(OpRegistry& reg) {
  reg.op("TensorListReserve").input("element_shape: shape_type").input("num_elements: int32")
      .output("handle: resource").attr("element_dtype: type").attr("shape_type: {int32, int64} = DT_INT32")
      .shape_fn(scalar_list, true);
  reg.op("TensorListFromTensor").input("tensor: element_dtype").input("element_shape: shape_type")
      .output("output_handle: resource").attr("element_dtype: type").attr("shape_type: {int32, int64} = DT_INT32")
      .shape_fn(scalar_list, true);
  reg.op("TensorListSetItem").input("input_handle: resource").input("index: int32").input("item: element_dtype")
      .output("output_handle: resource").attr("element_dtype: type")
      .attr("resize_if_index_out_of_bounds: bool = false").shape_fn(scalar_list, true);
  reg.op("TensorListGetItem").input("input_handle: resource").input("index: int32").input("element_shape: int32")
      .output("item: element_dtype").attr("element_dtype: type").shape_fn(get_item_shape, true);
  reg.op("TensorListStack").input("input_handle: resource").input("element_shape: int32")
      .output("tensor: element_dtype").attr("element_dtype: type").attr("num_elements: int = -1")
      .shape_fn(stack_shape, true);
  reg.op("TensorListLength").input("input_handle: resource").output("length: int32").shape_fn(scalar_int32, true);
}

}  // namespace graphfn
