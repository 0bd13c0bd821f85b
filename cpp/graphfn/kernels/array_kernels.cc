// Kernels for the array ops that re-shape, re-order or join elements. Reshape-like ops share the
// input buffer (tensors are immutable); the others move elements with the helpers in array_util.h,
// so one dtype-agnostic function serves every dtype.
#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

Status const_kernel(KernelContext& c) {
  c.set_output(0, *c.attrs.get_tensor("value"));
  return Status::OK();
}

Status identity_kernel(KernelContext& c) {
  c.set_output(0, c.input(0));
  return Status::OK();
}

// Reshape, ExpandDims, Squeeze: same elements, the shape function's new shape. Zero-copy.
Status reshape_kernel(KernelContext& c) {
  c.set_output(0, c.input(0).reshaped(c.output_shapes[0]));
  return Status::OK();
}

Status transpose_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  std::vector<int64_t> perm;
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &perm));
  const std::vector<int64_t> in_strides = row_major_strides(x.shape());
  StridedView view;
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int d = static_cast<int>(perm[i] < 0 ? perm[i] + x.rank() : perm[i]);
    identity = identity && d == static_cast<int>(i);
    view.dims.push_back(x.dim(d));
    view.strides.push_back(in_strides[d]);
  }
  if (identity) return identity_kernel(c);
  strided_copy(x, view, &c.allocate_output(0));
  return Status::OK();
}

// The concat axis, already validated by the shape function.
int concat_axis(const Tensor& axis, int rank) {
  const int64_t a = first_int(axis);
  return static_cast<int>(a < 0 ? a + rank : a);
}

Status concat_kernel(KernelContext& c) {
  const int n = c.num_inputs - 1;
  const Shape& out_shape = c.output_shapes[0];
  const int axis = concat_axis(c.input(n), out_shape.rank());
  std::vector<const Tensor*> inputs;
  std::vector<int64_t> block;
  for (int i = 0; i < n; ++i) {
    inputs.push_back(&c.input(i));
    block.push_back(dims_product(c.input(i).shape(), axis, out_shape.rank()));
  }
  concat_blocks(inputs, block, dims_product(out_shape, 0, axis), &c.allocate_output(0));
  return Status::OK();
}

// A stack is a concat of the inputs, each seen with a unit dimension at `axis`.
Status pack_kernel(KernelContext& c) {
  const Shape& in = c.input(0).shape();
  int64_t axis = c.attrs.get_int("axis", 0);
  if (axis < 0) axis += in.rank() + 1;
  std::vector<const Tensor*> inputs;
  for (int i = 0; i < c.num_inputs; ++i) inputs.push_back(&c.input(i));
  const std::vector<int64_t> block(c.num_inputs, dims_product(in, static_cast<int>(axis), in.rank()));
  concat_blocks(inputs, block, dims_product(in, 0, static_cast<int>(axis)), &c.allocate_output(0));
  return Status::OK();
}

// Output j is the slice [..., j, ...] along `axis`: a 2-D strided view (outer rows x inner block).
Status unpack_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  int64_t axis = c.attrs.get_int("axis", 0);
  if (axis < 0) axis += x.rank();
  const int a = static_cast<int>(axis);
  const int64_t n = x.dim(a), inner = dims_product(x.shape(), a + 1, x.rank());
  StridedView view;
  view.dims = {dims_product(x.shape(), 0, a), inner};
  view.strides = {n * inner, 1};
  for (int64_t j = 0; j < n; ++j) {
    view.offset = j * inner;
    strided_copy(x, view, &c.allocate_output(static_cast<int>(j)));
  }
  return Status::OK();
}

template <typename Out>
struct ShapeKernel {
  static Status compute(KernelContext& c) {
    const Shape& s = c.input(0).shape();
    Out* out = c.allocate_output(0).data<Out>();
    for (int d = 0; d < s.rank(); ++d) out[d] = static_cast<Out>(s.dim(d));
    return Status::OK();
  }
};

template <typename Out>
struct SizeKernel {
  static Status compute(KernelContext& c) {
    *c.allocate_output(0).data<Out>() = static_cast<Out>(c.input(0).num_elements());
    return Status::OK();
  }
};

Status rank_kernel(KernelContext& c) {
  *c.allocate_output(0).data<int32_t>() = c.input(0).rank();
  return Status::OK();
}

}  // namespace

void register_array_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "Const", &const_kernel);
  register_for_all_dtypes(reg, "Identity", &identity_kernel);
  register_for_all_dtypes(reg, "Reshape", &reshape_kernel);
  register_for_all_dtypes(reg, "ExpandDims", &reshape_kernel);
  register_for_all_dtypes(reg, "Squeeze", &reshape_kernel);
  register_for_all_dtypes(reg, "Transpose", &transpose_kernel);
  register_for_all_dtypes(reg, "ConcatV2", &concat_kernel);
  register_for_all_dtypes(reg, "Pack", &pack_kernel);
  register_for_all_dtypes(reg, "Unpack", &unpack_kernel);
  register_for_all_dtypes(reg, "Rank", &rank_kernel);
  register_kernels<ShapeKernel>(reg, "Shape", TypeList<int32_t, int64_t>{});
  register_kernels<SizeKernel>(reg, "Size", TypeList<int32_t, int64_t>{});
}

}  // namespace graphfn
