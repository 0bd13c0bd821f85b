// Kernels of ops/top_k_ops.cc. TopKV2 orders each row by value, largest first, NaN above every
// number and ties by lower index, as TF's sorted results are; sorted=false gives the same order.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

template <typename T>
bool ranks_above(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
  }
  return a > b;
}

template <typename Index, typename T>
void top_k_rows(const T* in, int64_t rows, int64_t columns, int64_t k, T* values, Index* indices) {
  std::vector<int64_t> order(static_cast<size_t>(columns));
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = in + r * columns;
    std::iota(order.begin(), order.end(), int64_t{0});
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](int64_t a, int64_t b) {
      if (ranks_above(row[a], row[b])) return true;
      if (ranks_above(row[b], row[a])) return false;
      return a < b;
    });
    for (int64_t j = 0; j < k; ++j) {
      values[r * k + j] = row[order[j]];
      indices[r * k + j] = static_cast<Index>(order[j]);
    }
  }
}

template <typename T>
struct TopKKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    std::vector<int64_t> k_value;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &k_value));
    const int64_t k = k_value[0];
    const int64_t columns = input.dim(input.rank() - 1);
    std::vector<int64_t> dims(input.shape().dims().begin(), input.shape().dims().end());
    dims.back() = k;
    Tensor *values = nullptr, *indices = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape(dims), &values));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape(dims), &indices));
    const int64_t rows = columns == 0 ? 0 : input.num_elements() / columns;
    if (k == 0) return Status::OK();
    T* pv = values->data<T>();
    switch (indices->dtype()) {
      case DType::kInt16: top_k_rows(input.data<T>(), rows, columns, k, pv, indices->data<int16_t>()); break;
      case DType::kInt64: top_k_rows(input.data<T>(), rows, columns, k, pv, indices->data<int64_t>()); break;
      default: top_k_rows(input.data<T>(), rows, columns, k, pv, indices->data<int32_t>()); break;
    }
    return Status::OK();
  }
};

// A target is in the top k when fewer than k classes score strictly higher; an out-of-range
// target, or a row with a non-finite score, is not (TF's rule).
template <typename T>
struct InTopKKernel {
  static Status compute(KernelContext& c) {
    const Tensor& predictions = c.input(0);
    const T* targets = c.input(1).data<T>();
    const int64_t k = static_cast<int64_t>(*c.input(2).data<T>());
    const int64_t batch = predictions.dim(0), classes = predictions.dim(1);
    Tensor* out = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{batch}, &out));
    const float* p = predictions.data<float>();
    bool* po = out->data<bool>();
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t target = static_cast<int64_t>(targets[b]);
      const float* row = p + b * classes;
      if (target < 0 || target >= classes || !std::isfinite(row[target])) {
        po[b] = false;
        continue;
      }
      int64_t higher = 0;
      bool all_finite = true;
      for (int64_t j = 0; j < classes && all_finite; ++j) {
        all_finite = std::isfinite(row[j]);
        higher += row[j] > row[target];
      }
      po[b] = all_finite && higher < k;
    }
    return Status::OK();
  }
};

}  // namespace

void register_top_k_kernels(OpRegistry& reg) {
  register_kernels<TopKKernel>(reg, "TopKV2", Concat<NumericTypes, WideUnsignedTypes>{});
  register_kernels<InTopKKernel>(reg, "InTopKV2", TypeList<int32_t, int64_t>{});
}

}  // namespace graphfn
