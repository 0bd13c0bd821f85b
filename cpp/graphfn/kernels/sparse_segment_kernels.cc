// Kernels of ops/sparse_segment_ops.cc. The forward ops walk the sorted segment ids once, checking
// them (and each picked index) as TF does, in TF's order, so the first bad input gives TF's
// message. float16/bfloat16 rows are summed in float and rounded once; integer sums wrap.
#include <Eigen/Core>  // float16/bfloat16 elements
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <type_traits>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

enum class SegmentNorm { kSum, kMean, kSqrtN };

// What a segment's rows are summed in: float for the 16-bit floats, wrapping integers as is.
template <typename T>
using SparseSegmentAcc =
    std::conditional_t<std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>, float, T>;

template <typename T>
SparseSegmentAcc<T> sparse_segment_add(SparseSegmentAcc<T> a, SparseSegmentAcc<T> b) {
  if constexpr (std::is_integral_v<T>) return functors::wrap_add(a, b); else return a + b;
}

int64_t sparse_segment_row_length(const Shape& s) {
  int64_t n = 1;
  for (int i = 1; i < s.rank(); ++i) n *= s.dim(i);
  return n;
}

// The sum of a segment's `count` rows (count >= 1) in TF's order, which float results depend
// on: a first group of count % 8 rows (8 or 9 when that leaves 0 or 1), then groups of 8, each
// group summed left to right before it is added to the total.
template <typename T>
void sum_segment_rows(const T* data, int64_t inner, const int64_t* rows, int64_t count, SparseSegmentAcc<T>* acc,
                      SparseSegmentAcc<T>* chunk) {
  using Acc = SparseSegmentAcc<T>;
  int64_t first = count % 8;
  if (count > 1 && first < 2) first += 8;
  if (first > count) first = count;
  auto add_rows = [&](int64_t begin, int64_t end, Acc* into) {
    const T* r0 = data + rows[begin] * inner;
    for (int64_t j = 0; j < inner; ++j) into[j] = static_cast<Acc>(r0[j]);
    for (int64_t i = begin + 1; i < end; ++i) {
      const T* r = data + rows[i] * inner;
      for (int64_t j = 0; j < inner; ++j) into[j] = sparse_segment_add<T>(into[j], static_cast<Acc>(r[j]));
    }
  };
  add_rows(0, first, acc);
  for (int64_t begin = first; begin < count; begin += 8) {
    add_rows(begin, begin + 8, chunk);
    for (int64_t j = 0; j < inner; ++j) acc[j] = sparse_segment_add<T>(acc[j], chunk[j]);
  }
}

// The segment's result: the sum, or the sum divided by count or sqrt(count). TF multiplies by the
// reciprocal for fewer than 10 rows and divides for more; the last bit shows which.
template <typename T, SegmentNorm kNorm>
void scale_segment(const SparseSegmentAcc<T>* acc, int64_t inner, int64_t count, T* dst) {
  using Acc = SparseSegmentAcc<T>;
  if constexpr (kNorm == SegmentNorm::kSum) {
    for (int64_t j = 0; j < inner; ++j) dst[j] = static_cast<T>(acc[j]);
  } else {
    const double k = static_cast<double>(count);
    const Acc m = static_cast<Acc>(kNorm == SegmentNorm::kMean ? k : std::sqrt(k));
    if (count < 10) {
      const Acc reciprocal = Acc(1) / m;
      for (int64_t j = 0; j < inner; ++j) dst[j] = static_cast<T>(acc[j] * reciprocal);
    } else {
      for (int64_t j = 0; j < inner; ++j) dst[j] = static_cast<T>(acc[j] / m);
    }
  }
}

// TF's TensorShape check while building the output shape dim by dim: a product of dims beyond
// int64 is TF's InvalidArgumentError (before any allocation is tried).
Status check_output_size(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t next = 0;
    if (__builtin_mul_overflow(product, dims[i], &next)) {
      const int64_t wrapped = static_cast<int64_t>(static_cast<uint64_t>(product) * static_cast<uint64_t>(dims[i]));
      return errors::InvalidArgument("Encountered overflow when multiplying ", product, " with ", dims[i],
                                     ", result: ", wrapped);
    }
    product = next;
  }
  return Status::OK();
}

template <SegmentNorm kNorm, bool kWithNumSegments>
struct SparseSegmentReduce {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& data = c.input(0);
      const Tensor& indices_t = c.input(1);
      const Tensor& ids_t = c.input(2);
      if (indices_t.rank() != 1) return errors::InvalidArgument("indices should be a vector.");
      if (ids_t.rank() != 1) return errors::InvalidArgument("segment_ids should be a vector.");
      if (indices_t.num_elements() != ids_t.num_elements()) {
        return errors::InvalidArgument("segment_ids and indices should have same size.");
      }
      if (data.rank() < 1) return errors::InvalidArgument("Shape must be at least rank 1");
      std::vector<int64_t> indices, ids;
      GRAPHFN_RETURN_IF_ERROR(int_values(indices_t, &indices));
      GRAPHFN_RETURN_IF_ERROR(int_values(ids_t, &ids));
      const int64_t n = static_cast<int64_t>(ids.size());
      const int64_t last = n > 0 ? ids.back() : -1;
      constexpr int64_t kMaxId = std::numeric_limits<int64_t>::max();
      if (!kWithNumSegments && last == kMaxId) {
        return errors::InvalidArgument("Last segment id must be < kintmax, got ", last, " limit ", kMaxId);
      }
      int64_t rows = last == kMaxId ? last : last + 1;  // (with num_segments, refused just below)
      if (kWithNumSegments) {
        if (c.input(3).rank() != 0) return errors::InvalidArgument("num_segments should be a scalar.");
        std::vector<int64_t> num;
        GRAPHFN_RETURN_IF_ERROR(int_values(c.input(3), &num));
        // TF keeps the row count in the indices' type: an int32 `indices` truncates it.
        rows = indices_t.dtype() == DType::kInt32 ? static_cast<int32_t>(static_cast<uint64_t>(num[0])) : num[0];
      }
      if (rows < 0 || (!kWithNumSegments && n > 0 && ids.back() < 0)) {
        return errors::InvalidArgument("segment ids must be >= 0");
      }
      if (kWithNumSegments && n > 0 && ids.back() >= rows) {
        return errors::InvalidArgument("segment ids must be < num_segments");
      }
      Tensor* out = nullptr;
      std::vector<int64_t> dims(data.shape().dims().begin(), data.shape().dims().end());
      dims[0] = rows;
      Shape out_shape(dims);
      GRAPHFN_RETURN_IF_ERROR(check_output_size(dims));
      int64_t count = 0;
      GRAPHFN_RETURN_IF_ERROR(checked_num_elements(out_shape, &count));
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
      T* po = out->data<T>();
      std::fill(po, po + out->num_elements(), T(0));
      const T* pd = data.data<T>();
      const int64_t inner = sparse_segment_row_length(data.shape());
      const int64_t data_rows = data.dim(0);
      using Acc = SparseSegmentAcc<T>;
      std::vector<Acc> acc(static_cast<size_t>(inner)), chunk(static_cast<size_t>(inner));
      int64_t start = 0;
      for (int64_t end = 1; end <= n; ++end) {
        const int64_t id = ids[start];
        const int64_t next = end < n ? ids[end] : rows;
        if (end < n && next == id) continue;
        if (end < n && next < id) return errors::InvalidArgument("segment ids are not increasing");
        if (id < 0 || id >= rows) {
          return errors::InvalidArgument("Segment id ", id, " out of range [0, ", rows,
                                         "), possibly because 'segment_ids' input is not sorted.");
        }
        for (int64_t i = start; i < end; ++i) {
          if (indices[i] < 0 || indices[i] >= data_rows) {
            return errors::InvalidArgument("Bad: indices[", i, "] == ", indices[i], " out of range [0, ", data_rows, ")");
          }
        }
        sum_segment_rows<T>(pd, inner, indices.data() + start, end - start, acc.data(), chunk.data());
        T* dst = po + id * inner;
        scale_segment<T, kNorm>(acc.data(), inner, end - start, dst);
        start = end;
      }
      return Status::OK();
    }
  };
};

// grad rows scattered back to the picked data rows, each scaled by 1, 1/count or 1/sqrt(count)
// of its segment. V1 writes [output_dim0, ...]; V2 only the rows of the sorted unique indices.
template <SegmentNorm kNorm, bool kV2>
struct SparseSegmentGrad {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& grad = c.input(0);
      const Tensor& indices_t = c.input(1);
      const Tensor& ids_t = c.input(2);
      if (indices_t.rank() != 1) return errors::InvalidArgument("indices should be a vector.");
      if (ids_t.rank() != 1) return errors::InvalidArgument("segment_ids should be a vector.");
      if (c.input(3).rank() != 0) {
        return errors::InvalidArgument(kV2 ? "dense_output_dim0" : "output_dim0", " should be a scalar.");
      }
      if (indices_t.num_elements() != ids_t.num_elements()) {
        return errors::InvalidArgument("segment_ids and indices should have same size.");
      }
      if (grad.rank() < 1) return errors::InvalidArgument("Index must be less than 0, got 0");
      std::vector<int64_t> indices, ids, dim0;
      GRAPHFN_RETURN_IF_ERROR(int_values(indices_t, &indices));
      GRAPHFN_RETURN_IF_ERROR(int_values(ids_t, &ids));
      GRAPHFN_RETURN_IF_ERROR(int_values(c.input(3), &dim0));
      const int64_t out_rows = dim0[0];
      if (out_rows < 0) return errors::InvalidArgument("Expected a non-negative size, got ", out_rows);
      const int64_t n = static_cast<int64_t>(ids.size());
      const int64_t segments = grad.dim(0);
      if (n > 0 && ids.back() >= segments) return errors::InvalidArgument("Invalid number of segments");
      std::vector<double> scale(static_cast<size_t>(segments), 0.0);
      for (int64_t i = 0; i < n; ++i) {
        if (indices[i] < 0 || indices[i] >= out_rows) {
          return errors::InvalidArgument("Index ", indices[i], " out of range [0, ", out_rows, ").");
        }
        if (ids[i] < 0 || ids[i] >= segments) {
          return errors::InvalidArgument("Segment id ", ids[i], " out of range [0, ", segments, ").");
        }
        scale[ids[i]] += 1;
      }
      for (double& s : scale) {
        const double k = std::max(s, 1.0);
        s = kNorm == SegmentNorm::kMean ? 1.0 / k : kNorm == SegmentNorm::kSqrtN ? 1.0 / std::sqrt(k) : 1.0;
      }
      // Output row of each data row: its position among the sorted unique indices (V2) or itself.
      std::map<int64_t, int64_t> slot;
      for (int64_t row : indices) slot.emplace(row, 0);
      int64_t next_slot = 0;
      for (auto& [row, s] : slot) s = kV2 ? next_slot++ : row;
      std::vector<int64_t> dims(grad.shape().dims().begin(), grad.shape().dims().end());
      dims[0] = kV2 ? static_cast<int64_t>(slot.size()) : out_rows;
      Shape out_shape(dims);
      GRAPHFN_RETURN_IF_ERROR(check_output_size(dims));
      int64_t count = 0;
      GRAPHFN_RETURN_IF_ERROR(checked_num_elements(out_shape, &count));
      const int64_t inner = sparse_segment_row_length(grad.shape());
      using Acc = SparseSegmentAcc<T>;
      std::vector<Acc> acc(static_cast<size_t>(count), Acc(0));
      const T* pg = grad.data<T>();
      for (int64_t i = 0; i < n; ++i) {
        const Acc s = static_cast<Acc>(scale[ids[i]]);
        const T* src = pg + ids[i] * inner;
        Acc* dst = acc.data() + slot[indices[i]] * inner;
        for (int64_t j = 0; j < inner; ++j) dst[j] += static_cast<Acc>(src[j]) * s;
      }
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
      T* po = out->data<T>();
      for (int64_t k = 0; k < count; ++k) po[k] = static_cast<T>(acc[k]);
      if constexpr (kV2) {
        Tensor* unique = nullptr;
        GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{static_cast<int64_t>(slot.size())}, &unique));
        int64_t k = 0;
        for (const auto& entry : slot) {
          if (unique->dtype() == DType::kInt32) {
            unique->data<int32_t>()[k++] = static_cast<int32_t>(entry.first);
          } else {
            unique->data<int64_t>()[k++] = entry.first;
          }
        }
      }
      return Status::OK();
    }
  };
};

}  // namespace

void register_sparse_segment_kernels(OpRegistry& reg) {
  using SumTypes = Concat<NumericTypes, HalfTypes, WideUnsignedTypes>;
  using FloatAndHalf = Concat<FloatTypes, HalfTypes>;
  register_kernels<SparseSegmentReduce<SegmentNorm::kSum, false>::Kernel>(reg, "SparseSegmentSum", SumTypes{});
  register_kernels<SparseSegmentReduce<SegmentNorm::kMean, false>::Kernel>(reg, "SparseSegmentMean", FloatAndHalf{});
  register_kernels<SparseSegmentReduce<SegmentNorm::kSqrtN, false>::Kernel>(reg, "SparseSegmentSqrtN", FloatAndHalf{});
  register_kernels<SparseSegmentReduce<SegmentNorm::kSum, true>::Kernel>(reg, "SparseSegmentSumWithNumSegments",
                                                                         SumTypes{});
  register_kernels<SparseSegmentReduce<SegmentNorm::kMean, true>::Kernel>(reg, "SparseSegmentMeanWithNumSegments",
                                                                          FloatAndHalf{});
  register_kernels<SparseSegmentReduce<SegmentNorm::kSqrtN, true>::Kernel>(reg, "SparseSegmentSqrtNWithNumSegments",
                                                                           FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kSum, false>::Kernel>(reg, "SparseSegmentSumGrad", FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kMean, false>::Kernel>(reg, "SparseSegmentMeanGrad", FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kSqrtN, false>::Kernel>(reg, "SparseSegmentSqrtNGrad", FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kSum, true>::Kernel>(reg, "SparseSegmentSumGradV2", FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kMean, true>::Kernel>(reg, "SparseSegmentMeanGradV2", FloatAndHalf{});
  register_kernels<SparseSegmentGrad<SegmentNorm::kSqrtN, true>::Kernel>(reg, "SparseSegmentSqrtNGradV2",
                                                                         FloatAndHalf{});
}

}  // namespace graphfn
