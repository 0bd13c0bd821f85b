// Kernel of ops/bincount_ops.cc: one pass over the values; values >= size are not counted.
#include <algorithm>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

template <typename T>
struct DenseBincountKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    std::vector<int64_t> values, size;
    GRAPHFN_RETURN_IF_ERROR(int_values(input, &values));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &size));
    for (int64_t v : values) {
      if (v < 0) return errors::InvalidArgument("Input arr must be non-negative!");
    }
    const Tensor& weights = c.input(2);
    const bool weighted = weights.num_elements() != 0;
    const bool binary = c.attrs.get_bool("binary_output", false);
    const int64_t bins = size[0];
    const int64_t rows = input.rank() == 2 ? input.dim(0) : 1;
    const int64_t per_row = rows == 0 ? 0 : static_cast<int64_t>(values.size()) / rows;
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, input.rank() == 2 ? Shape{rows, bins} : Shape{bins}, &out));
    T* po = out->data<T>();
    std::fill(po, po + out->num_elements(), T(0));
    const T* pw = weighted ? weights.data<T>() : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t i = r * per_row; i < (r + 1) * per_row; ++i) {
        const int64_t v = values[static_cast<size_t>(i)];
        if (v >= bins) continue;
        T& bin = po[r * bins + v];
        bin = binary ? T(1) : static_cast<T>(bin + (weighted ? pw[i] : T(1)));
      }
    }
    return Status::OK();
  }
};

}  // namespace

void register_bincount_kernels(OpRegistry& reg) {
  register_kernels<DenseBincountKernel>(reg, "DenseBincount", TypeList<int32_t, int64_t, float, double>{});
}

}  // namespace graphfn
