#include "graphfn/kernels/strided_slice_inputs.h"

#include "graphfn/ops/array_shape_util.h"

namespace graphfn {

Status read_strided_slice_inputs(const KernelContext& c, StridedSliceInputs* spec) {
  GRAPHFN_RETURN_IF_ERROR(check_slice_spec_shapes(c.input(1).shape(), c.input(2).shape(), c.input(3).shape()));
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &spec->begin));
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(2), &spec->end));
  GRAPHFN_RETURN_IF_ERROR(int_values(c.input(3), &spec->strides));
  spec->masks = StridedSliceMasks{c.attrs.get_int("begin_mask", 0), c.attrs.get_int("end_mask", 0),
                                  c.attrs.get_int("ellipsis_mask", 0), c.attrs.get_int("new_axis_mask", 0),
                                  c.attrs.get_int("shrink_axis_mask", 0)};
  return Status::OK();
}

}  // namespace graphfn
