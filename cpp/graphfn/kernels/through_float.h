// Running an op's float32 kernel for float16/bfloat16 tensors: the reduced inputs are widened to
// float, the float kernel runs with the type attrs and output dtypes set to float, and its float
// outputs are rounded back once. Used where TF's own kernels compute these dtypes in float (its
// convolutions, batch norm) or where widening and rounding back are exact (selection, ordering).
#pragma once

#include "graphfn/kernels/kernel_context.h"

namespace graphfn {

// kRoundDown: values in [0, 1) round down to the largest float16/bfloat16 not above them (the
// uniform random ops stay below 1); otherwise round to nearest even.
template <bool kRoundDown>
Status compute_through_float(KernelContext& c);

// Registers compute_through_float as the float16 and bfloat16 kernels of `op`.
void register_through_float(OpRegistry& reg, const char* op, bool round_down = false);

}  // namespace graphfn
