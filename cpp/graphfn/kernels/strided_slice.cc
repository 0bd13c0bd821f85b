// StridedSlice and Slice: both read a box of the input (per-dimension begin, step and count) with
// one strided copy; a box covering the whole input shares the input's buffer instead.
#include "graphfn/kernels/array_util.h"
#include "graphfn/ops/array_shape_util.h"
#include "graphfn/kernels/strided_slice_inputs.h"

namespace graphfn {
namespace {

// Copies the box (begin[d] + k * step[d], k < size[d]) of x into output 0.
void copy_box(KernelContext& c, const std::vector<int64_t>& begin, const std::vector<int64_t>& step,
              const std::vector<int64_t>& size) {
  const Tensor& x = c.input(0);
  const std::vector<int64_t> in_strides = row_major_strides(x.shape());
  StridedView view;
  view.dims = size;
  for (int d = 0; d < x.rank(); ++d) {
    view.offset += begin[d] * in_strides[d];
    // A step along a dim read once never applies (and may be huge).
    view.strides.push_back(size[d] > 1 ? step[d] * in_strides[d] : 0);
  }
  Tensor& out = c.allocate_output(0);
  if (out.num_elements() > 0) strided_copy(x, view, &out);
}

Status strided_slice_kernel(KernelContext& c) {
  StridedSliceInputs spec;
  GRAPHFN_RETURN_IF_ERROR(read_strided_slice_inputs(c, &spec));
  StridedSliceResult r;
  GRAPHFN_RETURN_IF_ERROR(spec.slice_of(c.input(0).shape(), &r));
  if (r.is_identity) {
    c.set_output(0, c.input(0).reshaped(r.output_shape));
  } else {
    copy_box(c, r.begin, r.strides, r.sizes);
  }
  return Status::OK();
}

Status slice_kernel(KernelContext& c) {
  std::vector<int64_t> begin;
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &begin));
  const Shape& out = c.output_shapes[0];
  if (out == c.input(0).shape()) {
    c.set_output(0, c.input(0));
    return Status::OK();
  }
  copy_box(c, begin, std::vector<int64_t>(out.rank(), 1), out.dims());
  return Status::OK();
}

}  // namespace

void register_strided_slice_kernels(OpRegistry& reg) {
  register_for_all_dtypes(reg, "StridedSlice", &strided_slice_kernel);
  register_for_all_dtypes(reg, "Slice", &slice_kernel);
}

}  // namespace graphfn
