// TF's strided-slice semantics, shared by the StridedSlice shape function (output shape,
// validation) and its kernel (where to read).
//
// The "sparse" spec (begin/end/strides plus masks, one entry per slice_spec item) is expanded to
// a "dense" one with one entry per input dimension: an ellipsis covers every dimension the other
// items do not consume, a new axis consumes none, and a missing ellipsis is implied at the end.
#pragma once
#include <cstdint>
#include <vector>

#include "graphfn/core/shape.h"
#include "graphfn/core/status.h"

namespace graphfn {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};

struct StridedSliceResult {
  // Per input dimension: read sizes[d] elements starting at begin[d], stepping strides[d].
  std::vector<int64_t> begin, strides, sizes;
  Shape output_shape;  // sizes with shrunk dims removed and new axes inserted
  bool is_identity = true;  // reads the whole input in order
};

// TF's check of a spec's tensors: begin, end and strides are vectors of one length (unknown dims
// and ranks pass while graph building).
Status check_slice_spec_shapes(const Shape& begin, const Shape& end, const Shape& strides);

// `input` must have a known rank. While graph building its dims may be unknown, and so may `begin`
// and `end` (null; `strides` gives the spec's length): output dims that depend on unknowns are
// unknown, and only output_shape is meaningful.
Status compute_strided_slice(const Shape& input, const std::vector<int64_t>* begin,
                             const std::vector<int64_t>* end, const std::vector<int64_t>& strides,
                             const StridedSliceMasks& masks, StridedSliceResult* out);

}  // namespace graphfn
