// Shared by the array kernels (transpose, slicing, concat, gather, select...): element-moving
// primitives and helpers for dtype-agnostic kernels. Moving elements never looks at their values,
// so kernels work on a "storage type" of the element's size (uint8_t .. uint64_t) or std::string,
// and one instantiation serves many dtypes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphfn/core/tensor.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {

// Registers one dtype-agnostic kernel for every dtype.
inline void register_for_all_dtypes(OpRegistry& reg, const std::string& op, KernelFn fn) {
  for (int d = 0; d < kNumDTypes; ++d) {
    if (is_valid(static_cast<DType>(d))) reg.set_kernel(op, static_cast<DType>(d), fn);
  }
}

// Allocates output i with its inferred shape, failing (not throwing) when memory runs out;
// for outputs whose size comes from user data (Fill, Range, ...).
inline Status allocate_checked(KernelContext& c, int i, Tensor** out) {
  return c.allocate_output(i, c.output_shapes[i], out);
}

// Calls fn(E{}) with the storage type for dt (complex128's 16 bytes move as std::complex<double>).
template <typename Fn>
void visit_storage(DType dt, Fn&& fn) {
  if (dt == DType::kString) return fn(std::string());
  switch (dtype_size(dt)) {
    case 1: return fn(uint8_t{});
    case 2: return fn(uint16_t{});
    case 4: return fn(uint32_t{});
    case 16: return fn(std::complex<double>{});
    default: return fn(uint64_t{});
  }
}

// A strided view of a tensor's elements: element (i0, i1, ...) of the view is
// data[offset + i0 * strides[0] + i1 * strides[1] + ...]. Strides may be 0 (broadcast) or
// negative (reversed slices).
struct StridedView {
  int64_t offset = 0;
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
};

// The view of `in` (shape in_shape) broadcast to `out_shape` (NumPy rules, already checked).
StridedView broadcast_view(const Shape& in_shape, const Shape& out_shape);

// Copies the view's elements, row-major, into the contiguous `out`.
template <typename E>
void strided_copy(const E* in, const StridedView& view, E* out) {
  // Merge dimensions that are contiguous with their inner neighbour: fewer, longer inner loops.
  std::vector<int64_t> dims, strides;
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] == 0) return;
    if (view.dims[d] == 1) continue;
    if (!dims.empty() && strides.back() == view.strides[d] * view.dims[d]) {
      dims.back() *= view.dims[d];
      strides.back() = view.strides[d];
    } else {
      dims.push_back(view.dims[d]);
      strides.push_back(view.strides[d]);
    }
  }
  const E* base = in + view.offset;
  if (dims.empty()) {
    *out = *base;
    return;
  }
  const int rank = static_cast<int>(dims.size());
  const int64_t inner = dims[rank - 1], step = strides[rank - 1];
  std::vector<int64_t> index(rank, 0);
  int64_t off = 0;
  for (;;) {
    const E* src = base + off;
    if (step == 1) {
      out = std::copy_n(src, inner, out);
    } else {
      for (int64_t j = 0; j < inner; ++j) *out++ = src[j * step];
    }
    // Advance the odometer over the outer dimensions.
    int d = rank - 2;
    for (; d >= 0; --d) {
      off += strides[d];
      if (++index[d] < dims[d]) break;
      off -= strides[d] * dims[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

// Copies `view` of `in` into a new contiguous tensor `out` (already allocated).
void strided_copy(const Tensor& in, const StridedView& view, Tensor* out);

// Concatenation along an axis, as blocks: the output is `outer` rows; row o is, for each input
// t in order, the t-th input's elements [o * block[t], (o + 1) * block[t]). Serves ConcatV2 and
// Pack (a stack is a concat of inputs with a new unit axis).
void concat_blocks(const std::vector<const Tensor*>& inputs, const std::vector<int64_t>& block,
                   int64_t outer, Tensor* out);

}  // namespace graphfn
