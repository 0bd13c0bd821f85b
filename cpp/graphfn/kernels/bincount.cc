// Kernels of ops/bincount_ops.cc: one pass over the values, each adding 1 (or its weight; or
// setting 1 for binary_output) to the bin of its row; values >= size are not counted. Integer
// weight sums wrap, as TF's do.
#include <algorithm>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// The output being filled: `rows` x `bins`, zeroed.
template <typename T>
struct BinTable {
  T* bins_data;
  int64_t bins;
  bool binary;
  const T* weights;  // null: every value weighs 1

  void add(int64_t row, int64_t value, int64_t weight_index) {
    if (value >= bins) return;
    T& bin = bins_data[row * bins + value];
    bin = binary ? T(1) : functors::wrap_add(bin, weights ? weights[weight_index] : T(1));
  }
};

Status bincount_size_value(const Tensor& size, int64_t* bins) {
  if (size.rank() != 0) return errors::InvalidArgument("Shape must be rank 0 but is rank ", size.rank());
  std::vector<int64_t> v;
  GRAPHFN_RETURN_IF_ERROR(int_values(size, &v));
  *bins = v[0];
  if (*bins < 0) return errors::InvalidArgument("size (", *bins, ") must be non-negative");
  return Status::OK();
}

template <typename T>
Status make_bin_table(KernelContext& c, const Shape& shape, const Tensor& weights, bool binary, BinTable<T>* table) {
  Tensor* out = nullptr;
  int64_t count = 0;
  GRAPHFN_RETURN_IF_ERROR(checked_num_elements(shape, &count));
  GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, shape, &out));
  std::fill(out->data<T>(), out->data<T>() + out->num_elements(), T(0));
  *table = BinTable<T>{out->data<T>(), shape.dim(shape.rank() - 1), binary,
                       weights.num_elements() != 0 ? weights.data<T>() : nullptr};
  return Status::OK();
}

template <typename T>
struct BincountKernel {
  static Status compute(KernelContext& c) {
    int64_t bins = 0;
    GRAPHFN_RETURN_IF_ERROR(bincount_size_value(c.input(1), &bins));
    std::vector<int64_t> values;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(0), &values));
    const Tensor& weights = c.input(2);
    if (weights.num_elements() != 0 && weights.num_elements() != static_cast<int64_t>(values.size())) {
      return errors::InvalidArgument("Input indices and weights must have the same size.");
    }
    for (int64_t v : values) {
      if (v < 0) return errors::InvalidArgument("Input arr must be non-negative!");
    }
    BinTable<T> table;
    GRAPHFN_RETURN_IF_ERROR(make_bin_table(c, Shape{bins}, weights, false, &table));
    for (size_t i = 0; i < values.size(); ++i) table.add(0, values[i], static_cast<int64_t>(i));
    return Status::OK();
  }
};

template <typename T>
struct DenseBincountKernel {
  static Status compute(KernelContext& c) {
    const Tensor& input = c.input(0);
    std::vector<int64_t> values;
    int64_t bins = 0;
    GRAPHFN_RETURN_IF_ERROR(int_values(input, &values));
    GRAPHFN_RETURN_IF_ERROR(bincount_size_value(c.input(1), &bins));
    for (int64_t v : values) {
      if (v < 0) return errors::InvalidArgument("Input arr must be non-negative!");
    }
    const int64_t rows = input.rank() == 2 ? input.dim(0) : 1;
    const int64_t per_row = rows == 0 ? 0 : static_cast<int64_t>(values.size()) / rows;
    BinTable<T> table;
    GRAPHFN_RETURN_IF_ERROR(make_bin_table(c, input.rank() == 2 ? Shape{rows, bins} : Shape{bins}, c.input(2),
                                           c.attrs.get_bool("binary_output", false), &table));
    for (int64_t i = 0; i < static_cast<int64_t>(values.size()); ++i) table.add(i / std::max<int64_t>(per_row, 1), values[i], i);
    return Status::OK();
  }
};

// Negative values are skipped here (TF's kernel does so), not refused.
template <typename T>
struct SparseBincountKernel {
  static Status compute(KernelContext& c) {
    const Tensor& indices_t = c.input(0);
    const Tensor& values_t = c.input(1);
    if (indices_t.rank() != 2) return errors::InvalidArgument("Sparse indices must be rank 2 but is rank ", indices_t.rank());
    if (values_t.rank() != 1) return errors::InvalidArgument("Sparse values must be rank 1 but is rank ", values_t.rank());
    int64_t bins = 0;
    GRAPHFN_RETURN_IF_ERROR(bincount_size_value(c.input(3), &bins));
    std::vector<int64_t> values, dense_shape;
    GRAPHFN_RETURN_IF_ERROR(int_values(values_t, &values));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(2), &dense_shape));
    const int64_t n = indices_t.dim(0), rank = indices_t.dim(1);
    if (n != static_cast<int64_t>(values.size())) {
      return errors::InvalidArgument("Number of elements in indices (", n, ") and values (", values.size(),
                                     ") do not match");
    }
    if (rank != static_cast<int64_t>(dense_shape.size())) {
      return errors::InvalidArgument("Index rank (", rank, ") and shape rank (", dense_shape.size(), ") do not match");
    }
    const int64_t* idx = indices_t.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      bool inside = true;
      for (int64_t d = 0; d < rank; ++d) inside = inside && idx[i * rank + d] >= 0 && idx[i * rank + d] < dense_shape[d];
      if (!inside) {
        std::string tuple;
        for (int64_t d = 0; d < rank; ++d) tuple += (d ? ", " : "") + std::to_string(idx[i * rank + d]);
        return errors::InvalidArgument("Sparse index tuple indices[", i, ", :] = [", tuple, "] is out of bounds");
      }
    }
    const Tensor& weights = c.input(4);
    if (weights.num_elements() != 0 && weights.num_elements() != n) {
      return errors::InvalidArgument("Weights and values must have the same shape. Weight shape: ",
                                     weights.shape().to_string(), "; values shape: ", values_t.shape().to_string());
    }
    const bool batched = rank > 1;
    BinTable<T> table;
    GRAPHFN_RETURN_IF_ERROR(make_bin_table(c, batched ? Shape{dense_shape[0], bins} : Shape{bins}, weights,
                                           c.attrs.get_bool("binary_output", false), &table));
    for (int64_t i = 0; i < n; ++i) {
      if (values[i] < 0) continue;
      table.add(batched ? idx[i * rank] : 0, values[i], i);
    }
    return Status::OK();
  }
};

template <typename T>
struct RaggedBincountKernel {
  static Status compute(KernelContext& c) {
    int64_t bins = 0;
    GRAPHFN_RETURN_IF_ERROR(bincount_size_value(c.input(2), &bins));
    std::vector<int64_t> splits, values;
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(0), &splits));
    GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &values));
    const int64_t n = static_cast<int64_t>(values.size());
    if (splits.empty()) return errors::InvalidArgument("Splits must be non-empty");
    if (splits.front() != 0) return errors::InvalidArgument("Splits must start with 0, not with ", splits.front());
    if (splits.back() != n) {
      return errors::InvalidArgument("Splits must end with the number of values, got ", splits.back(), " instead of ", n);
    }
    const Tensor& weights = c.input(3);
    if (weights.num_elements() != 0 && weights.num_elements() != n) {
      return errors::InvalidArgument("Weights and values must have the same shape. Weight shape: ",
                                     weights.shape().to_string(), "; values shape: ", c.input(1).shape().to_string());
    }
    const int64_t rows = static_cast<int64_t>(splits.size()) - 1;
    BinTable<T> table;
    GRAPHFN_RETURN_IF_ERROR(make_bin_table(c, Shape{rows, bins}, weights, c.attrs.get_bool("binary_output", false), &table));
    // A value's row is the last split at or before it (as TF walks them, even unsorted splits).
    int64_t next_split = 0;
    for (int64_t i = 0; i < n; ++i) {
      while (i >= splits[next_split]) ++next_split;  // ends: splits.back() == n > i
      if (values[i] < 0) return errors::InvalidArgument("Input must be non-negative");
      table.add(next_split - 1, values[i], i);
    }
    return Status::OK();
  }
};

}  // namespace

void register_bincount_kernels(OpRegistry& reg) {
  using BinTypes = TypeList<int32_t, int64_t, float, double>;
  register_kernels<BincountKernel>(reg, "Bincount", BinTypes{});
  register_kernels<DenseBincountKernel>(reg, "DenseBincount", BinTypes{});
  register_kernels<SparseBincountKernel>(reg, "SparseBincount", BinTypes{});
  register_kernels<RaggedBincountKernel>(reg, "RaggedBincount", BinTypes{});
}

}  // namespace graphfn
