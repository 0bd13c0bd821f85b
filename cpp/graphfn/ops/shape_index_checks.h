// Checks of value inputs shared by shape functions (ops/shape_index_ops.cc) and kernels: a kernel
// runs them again because a graph step whose shapes were static skips its shape function, and
// Roll's and ReverseV2's output shapes never depend on the values.
#pragma once
#include <cstdint>
#include <vector>

#include "graphfn/core/status.h"

namespace graphfn {

// BroadcastArgs: TF broadcasts the given numbers as they are (a negative entry, an unknown dim,
// is kept where the other side is 1).
Status broadcast_dim_values(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out);

// Split/SplitV: split_dim within [-rank, rank), as an index into the dims.
Status split_axis(int64_t split_dim, int rank, int* axis);
// Roll: as many shifts as axes, each axis within the input's rank.
Status check_roll_args(int rank, int64_t num_shifts, const std::vector<int64_t>& axes);
// ReverseV2: axes within the rank (of a non-scalar), none twice.
Status check_reverse_axes(int rank, const std::vector<int64_t>& axes);

}  // namespace graphfn
