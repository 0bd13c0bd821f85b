// Axis handling shared by the reduction ops' shape functions and kernels.
#pragma once
#include <vector>

#include "graphfn/core/tensor.h"

namespace graphfn {

// Reads reduction indices (int32/int64, any shape), validates them against `rank` with TF's
// messages (range, then duplicates, axis by axis) and flags the reduced dims.
Status reduction_axes(const Tensor& indices, int rank, std::vector<bool>* reduced);

// ArgMax/ArgMin's scalar `dimension`, normalised to [0, rank); the axis must not be empty.
// TF reads it as int32, so an int64 value keeps only its low 32 bits.
Status arg_reduction_axis(const Tensor& dimension, const Shape& input, int* axis);

}  // namespace graphfn
