// Shape functions shared by many ops. Each validates its inputs and sets the outputs.
#pragma once
#include "graphfn/ir/shape_inference.h"

namespace graphfn {
namespace shape_fns {

// One output, same dtype and shape as input 0.
Status unchanged(InferenceContext& c);
// One output of type T with the NumPy-broadcast shape of inputs 0 and 1.
// TF's graph-building text for two dimensions that had to match.
Status dims_must_be_equal(int64_t a, int64_t b);
Status broadcast_binary(InferenceContext& c);
// Like broadcast_binary, but the output is bool (comparisons).
Status broadcast_binary_to_bool(InferenceContext& c);
// Sets output 0 to `out` after checking its size: empty inputs can still describe a huge output
// (reductions with kept dims, matmul). Unknown dims, while tracing, are checked by the kernel.
Status set_checked_output(InferenceContext& c, DType dt, Shape out);
// One scalar output of the "dtype" attr... etc. are family-specific and live with their ops.

}  // namespace shape_fns
}  // namespace graphfn
