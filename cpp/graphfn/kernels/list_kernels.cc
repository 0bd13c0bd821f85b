// TensorList kernels. Lists are immutable values: SetItem copies the list (sharing its items, see
// core/persistent_vector.h) and replaces one. Elements are whole tensors; unwritten ones read as zeros when the element shape
// is fully known, as in TF.
#include <cstring>

#include "graphfn/core/tensor_list.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/eager.h"

namespace graphfn {

Status element_shape_of(const Tensor& t, Shape* out);  // ops/list_ops.cc

namespace {

// The more specific of two compatible element shapes, or an error naming both (unlike
// ops/array_shape_util.h's merge_shapes, which only says whether they merge).
Status merge_element_shapes(const Shape& a, const Shape& b, Shape* out) {
  if (!a.known_rank()) {
    *out = b;
    return Status::OK();
  }
  if (!b.known_rank()) {
    *out = a;
    return Status::OK();
  }
  if (a.rank() != b.rank()) {
    return errors::InvalidArgument("Incompatible ranks during merge: ", a.rank(), " vs. ", b.rank());
  }
  Shape merged = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a.dim(i) < 0) {
      merged.set_dim(i, b.dim(i));
    } else if (b.dim(i) >= 0 && b.dim(i) != a.dim(i)) {
      return errors::InvalidArgument("Incompatible shapes during merge: ", a.to_string(), " vs. ", b.to_string());
    }
  }
  *out = merged;
  return Status::OK();
}

const TensorList& input_list(KernelContext& c) { return *list_of(c.input(0)); }

Status check_list(KernelContext& c) {
  const TensorList* list = list_of(c.input(0));
  if (!list) return errors::InvalidArgument("Input handle is not a list. Saw: '", c.input(0).debug_string(), "'");
  if (list->element_dtype != c.type_attr("element_dtype")) {
    return errors::InvalidArgument("Invalid data types; op elements ", dtype_tf_string(c.type_attr("element_dtype")),
                                   " but list elements ", dtype_tf_string(list->element_dtype));
  }
  return Status::OK();
}

// Copies `n` elements of `src` starting at `src_offset` into `dst` at `dst_offset`.
void copy_elements(const Tensor& src, int64_t src_offset, Tensor* dst, int64_t dst_offset, int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DType::kString) {
    const std::string* from = src.data<std::string>() + src_offset;
    std::copy(from, from + n, dst->data<std::string>() + dst_offset);
    return;
  }
  const size_t size = dtype_size(src.dtype());
  std::memcpy(static_cast<char*>(dst->raw_data()) + dst_offset * size,
              static_cast<const char*>(src.raw_data()) + src_offset * size, n * size);
}

void zero_elements(Tensor* t, int64_t offset, int64_t n) {
  if (n <= 0 || holds_objects(t->dtype())) return;  // strings start empty, handles null
  const size_t size = dtype_size(t->dtype());
  std::memset(static_cast<char*>(t->raw_data()) + offset * size, 0, n * size);
}

Status reserve_kernel(KernelContext& c) {
  auto list = std::make_shared<TensorList>();
  list->element_dtype = c.type_attr("element_dtype");
  GRAPHFN_RETURN_IF_ERROR(element_shape_of(c.input(0), &list->element_shape));
  const int32_t n = *c.input(1).data<int32_t>();
  if (n < 0) return errors::InvalidArgument("The num_elements to reserve must be a non negative number, but got ", n);
  list->items.resize(n);
  c.set_output(0, make_list_tensor(std::move(list)));
  return Status::OK();
}

Status from_tensor_kernel(KernelContext& c) {
  const Tensor& t = c.input(0);
  if (t.rank() < 1) return errors::InvalidArgument("Tensor must be at least a vector, but saw shape: ", t.shape().to_string());
  auto list = std::make_shared<TensorList>();
  list->element_dtype = t.dtype();
  Shape element = t.shape();
  element.remove_dim(0);
  Shape given;
  GRAPHFN_RETURN_IF_ERROR(element_shape_of(c.input(1), &given));
  GRAPHFN_RETURN_IF_ERROR(merge_element_shapes(given, element, &list->element_shape));
  const int64_t row = element.num_elements();
  for (int64_t i = 0; i < t.dim(0); ++i) {
    Tensor item(t.dtype(), element);
    copy_elements(t, i * row, &item, 0, row);
    list->items.push_back(std::move(item));
  }
  c.set_output(0, make_list_tensor(std::move(list)));
  return Status::OK();
}

Status set_item_kernel(KernelContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_list(c));
  const TensorList& in = input_list(c);
  const int32_t index = *c.input(1).data<int32_t>();
  const Tensor& item = c.input(2);
  const bool resize = c.attrs.get_bool("resize_if_index_out_of_bounds", false);
  const int64_t size = static_cast<int64_t>(in.items.size());
  if (index < 0 || (!resize && index >= size)) {
    return errors::InvalidArgument("Trying to modify element ", index, " in a list with ", size, " elements.");
  }
  Shape merged;
  if (!merge_element_shapes(in.element_shape, item.shape(), &merged).ok()) {
    return errors::InvalidArgument("Tried to set a tensor with incompatible shape at a list index. Item element shape: ",
                                   item.shape().to_string(), " list shape: ", in.element_shape.to_string());
  }
  auto out = std::make_shared<TensorList>(in);
  if (index >= size) out->items.resize(index + 1);
  out->items.set(index, item);
  c.set_output(0, make_list_tensor(std::move(out)));
  return Status::OK();
}

// The shape of the list's elements: what is declared, given, and what was written.
Status element_shape(const TensorList& list, const Tensor& given_t, Shape* out) {
  Shape given;
  GRAPHFN_RETURN_IF_ERROR(element_shape_of(given_t, &given));
  GRAPHFN_RETURN_IF_ERROR(merge_element_shapes(list.element_shape, given, out));
  for (size_t i = 0; i < list.items.size(); ++i) {
    const Tensor& item = list.items[i];
    if (item.valid()) GRAPHFN_RETURN_IF_ERROR(merge_element_shapes(*out, item.shape(), out));
  }
  return Status::OK();
}

Status get_item_kernel(KernelContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_list(c));
  const TensorList& list = input_list(c);
  const int32_t index = *c.input(1).data<int32_t>();
  const int64_t size = static_cast<int64_t>(list.items.size());
  if (index < 0 || index >= size) {
    return errors::InvalidArgument("Trying to access element ", index, " in a list with ", size, " elements.");
  }
  if (list.items[index].valid()) {
    c.set_output(0, list.items[index]);
    return Status::OK();
  }
  Shape shape;
  GRAPHFN_RETURN_IF_ERROR(element_shape(list, c.input(2), &shape));
  if (!shape.fully_defined()) {
    return errors::InvalidArgument("Trying to read an uninitialized tensor but element_shape: ", shape.to_string(),
                                   " is not fully defined: ", shape.to_string(), " and no list element is set.");
  }
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  zero_elements(out, 0, out->num_elements());
  return Status::OK();
}

Status stack_kernel(KernelContext& c) {
  GRAPHFN_RETURN_IF_ERROR(check_list(c));
  const TensorList& list = input_list(c);
  const int64_t n = static_cast<int64_t>(list.items.size());
  const int64_t expected = c.attrs.get_int("num_elements", -1);
  if (expected != -1 && expected != n) {
    return errors::InvalidArgument("Operation expected a list with ", expected, " elements but got a list with ", n,
                                   " elements.");
  }
  Shape element;
  GRAPHFN_RETURN_IF_ERROR(element_shape(list, c.input(1), &element));
  if (!element.fully_defined()) {
    return errors::InvalidArgument("Tried to stack elements of an empty list with non-fully-defined element_shape: ",
                                   element.to_string());
  }
  Shape shape = element;
  shape.insert_dim(0, n);
  Tensor* out = nullptr;
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  const int64_t row = element.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    if (list.items[i].valid()) {
      copy_elements(list.items[i], 0, out, i * row, row);
    } else {
      zero_elements(out, i * row, row);
    }
  }
  return Status::OK();
}

Status length_kernel(KernelContext& c) {
  const TensorList* list = list_of(c.input(0));
  if (!list) return errors::InvalidArgument("Input handle is not a list.");
  *c.allocate_output(0).data<int32_t>() = static_cast<int32_t>(list->items.size());
  return Status::OK();
}

// ZerosLike of a list (a list's gradient where none arrived): as long, every element unset
// (reading as zeros).
Status zeros_like_kernel(KernelContext& c) {
  const TensorList* in = list_of(c.input(0));
  if (!in) return errors::InvalidArgument("ZerosLike of a resource handle that is not a TensorList");
  auto out = std::make_shared<TensorList>();
  out->element_dtype = in->element_dtype;
  out->element_shape = in->element_shape;
  out->items.resize(in->items.size());
  for (size_t i = 0; i < in->items.size() && !out->element_shape.fully_defined(); ++i) {
    if (in->items[i].valid()) out->element_shape = in->items[i].shape();  // so unset elements read as zeros
  }
  c.set_output(0, make_list_tensor(std::move(out)));
  return Status::OK();
}

// AddN of lists (gradients reaching one list twice): element-wise sums; unset elements are zeros.
Status add_n_kernel(KernelContext& c) {
  std::vector<const TensorList*> lists;
  for (int k = 0; k < c.num_inputs; ++k) {
    const TensorList* l = list_of(c.input(k));
    if (!l) return errors::InvalidArgument("AddN of resource handles that are not TensorLists");
    if (k > 0 && (l->items.size() != lists[0]->items.size() || l->element_dtype != lists[0]->element_dtype)) {
      return errors::InvalidArgument("Trying to add two lists of tensors with incompatible element counts or types");
    }
    lists.push_back(l);
  }
  auto out = std::make_shared<TensorList>(*lists[0]);
  for (size_t i = 0; i < out->items.size(); ++i) {
    std::vector<Tensor> items;
    for (const TensorList* l : lists) {
      if (l->items[i].valid()) items.push_back(l->items[i]);
    }
    if (items.size() < 2) {
      out->items.set(i, items.empty() ? Tensor() : items[0]);
      continue;
    }
    AttrMap attrs;
    attrs.set("N", static_cast<int64_t>(items.size()));
    std::vector<Tensor> sum;
    GRAPHFN_RETURN_IF_ERROR(execute_eager("AddN", items, attrs, &sum));
    out->items.set(i, sum[0]);
  }
  c.set_output(0, make_list_tensor(std::move(out)));
  return Status::OK();
}

// Identity of a list (a branch or loop body's output): forwards the handle.
Status list_identity_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

}  // namespace

void register_list_kernels(OpRegistry& reg) {
  reg.set_kernel("Identity", DType::kResource, &list_identity_kernel);
  for (int d = 0; d < kNumDTypes; ++d) {
    const DType dt = static_cast<DType>(d);
    if (!is_valid(dt)) continue;
    reg.set_kernel("TensorListReserve", dt, &reserve_kernel);
    reg.set_kernel("TensorListFromTensor", dt, &from_tensor_kernel);
    reg.set_kernel("TensorListSetItem", dt, &set_item_kernel);
    reg.set_kernel("TensorListGetItem", dt, &get_item_kernel);
    reg.set_kernel("TensorListStack", dt, &stack_kernel);
  }
  // Lists of lists (a nested loop's saved values, saved by the loop around it) hold whole
  // elements: no kernel copies resource elements piecewise.
  reg.set_kernel("TensorListReserve", DType::kResource, &reserve_kernel);
  reg.set_kernel("TensorListSetItem", DType::kResource, &set_item_kernel);
  reg.set_kernel("TensorListGetItem", DType::kResource, &get_item_kernel);
  reg.set_kernel("TensorListLength", DType::kInvalid, &length_kernel);
  reg.set_kernel("ZerosLike", DType::kResource, &zeros_like_kernel);
  reg.set_kernel("AddN", DType::kResource, &add_n_kernel);
}

}  // namespace graphfn
