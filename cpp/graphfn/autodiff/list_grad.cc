// Gradients of the TensorList ops (ops/list_ops.cc; TensorArray in functions), as TF's: the
// gradient of a list is a list of the elements' gradients.
#include "graphfn/autodiff/grad_util.h"

namespace graphfn {
namespace {

using grad::dy;
using Grads = std::vector<GradValue>;

// The element_shape input for a static shape: -1 for an unknown rank or dim.
GradValue element_shape_of(GradBuilder& b, const Shape& shape) {
  if (!shape.known_rank()) return b.scalar(DType::kInt32, -1);
  std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
  return b.int_vector(dims);
}

// Stack -> the list of dy's rows.
Status stack_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  (*g)[0] = b.op("TensorListFromTensor", {dy(in), in.inputs[1]},
                 grad::attrs({{"element_dtype", in.attr_type("element_dtype")}}));
  return b.status();
}

// FromTensor -> the list's elements stacked back.
Status from_tensor_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  Shape element = b.static_shape(in.inputs[0]);
  int64_t n = -1;
  if (element.known_rank() && element.rank() > 0) {
    n = element.dim(0);
    element.remove_dim(0);
  } else {
    element = Shape::unknown_rank();
  }
  (*g)[0] = b.op("TensorListStack", {dy(in), element_shape_of(b, element)},
                 grad::attrs({{"element_dtype", b.dtype(in.inputs[0])}, {"num_elements", n}}));
  return b.status();
}

// SetItem -> the list's gradient with that element zeroed; the item's is that element.
Status set_item_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const GradValue& item = in.inputs[2];
  const AttrMap element = grad::attrs({{"element_dtype", b.dtype(item)}});
  (*g)[0] = b.op("TensorListSetItem", {dy(in), in.inputs[1], b.zeros_like(item)}, element);
  (*g)[2] = b.op("TensorListGetItem", {dy(in), in.inputs[1], element_shape_of(b, b.static_shape(item))}, element);
  return b.status();
}

// GetItem -> a list as long as the input, zeros but dy at the index.
Status get_item_grad(GradBuilder& b, const GradInputs& in, Grads* g) {
  const AttrMap element = grad::attrs({{"element_dtype", b.dtype(dy(in))}});
  const GradValue zeros = b.op("TensorListReserve", {in.inputs[2], b.op("TensorListLength", {in.inputs[0]})}, element);
  (*g)[0] = b.op("TensorListSetItem", {zeros, in.inputs[1], dy(in)}, element);
  return b.status();
}

}  // namespace

void register_list_gradients(OpRegistry& reg) {
  reg.set_gradient("TensorListStack", stack_grad);
  reg.set_gradient("TensorListFromTensor", from_tensor_grad);
  reg.set_gradient("TensorListSetItem", set_item_grad);
  reg.set_gradient("TensorListGetItem", get_item_grad);
  for (const char* op : {"TensorListReserve", "TensorListLength"}) reg.set_not_differentiable(op);
}

}  // namespace graphfn
