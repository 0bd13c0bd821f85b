// The spec a StridedSlice-family node (StridedSlice, StridedSliceGrad, ResourceStridedSliceAssign)
// reads at run time: its begin, end and strides inputs (1 to 3) and its mask attrs.
#pragma once
#include <cstdint>
#include <vector>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/strided_slice_spec.h"

namespace graphfn {

struct StridedSliceInputs {
  std::vector<int64_t> begin, end, strides;
  StridedSliceMasks masks;
  // The slice of a tensor of `shape` (ops/strided_slice_spec.h).
  Status slice_of(const Shape& shape, StridedSliceResult* r) const {
    return compute_strided_slice(shape, &begin, &end, strides, masks, r);
  }
};

// Checks the spec tensors' shapes as TF's kernels do and reads them.
Status read_strided_slice_inputs(const KernelContext& c, StridedSliceInputs* spec);

}  // namespace graphfn
