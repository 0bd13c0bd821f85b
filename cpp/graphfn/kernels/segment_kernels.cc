// Kernels of ops/segment_ops.cc: each row of `data` (the dims after those of segment_ids) is folded
// into the output row of its id. The sorted ops check the ids as TF does while they walk them.
#include <Eigen/Core>  // float16/bfloat16 elements
#include <algorithm>
#include <limits>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

// What an unsorted op's empty segment holds (`init`) and how a row folds in (`apply`).
struct SegmentSumFold {
  template <typename T> static T init() { return T(0); }
  template <typename T> static T apply(T acc, T x) { return functors::wrap_add(acc, x); }
};
struct SegmentProdFold {
  template <typename T> static T init() { return T(1); }
  template <typename T> static T apply(T acc, T x) { return functors::wrap_mul(acc, x); }
};
struct SegmentMaxFold {
  template <typename T> static T init() { return std::numeric_limits<T>::lowest(); }
  template <typename T> static T apply(T acc, T x) { return acc < x ? x : acc; }
};
struct SegmentMinFold {
  template <typename T> static T init() { return std::numeric_limits<T>::max(); }
  template <typename T> static T apply(T acc, T x) { return x < acc ? x : acc; }
};
struct SegmentMeanFold : SegmentSumFold {};

// The product of the dims of `data` from `first` on: the length of one row.
int64_t row_length(const Shape& data, int first) {
  int64_t n = 1;
  for (int i = first; i < data.rank(); ++i) n *= data.dim(i);
  return n;
}

template <typename F>
struct SortedSegment {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& data = c.input(0);
      std::vector<int64_t> ids;
      GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &ids));
      const int64_t n = static_cast<int64_t>(ids.size());
      if (n != data.dim(0)) {  // the shape function checks this eagerly only, as TF
        return errors::InvalidArgument("segment_ids should be the same size as dimension 0 of input.");
      }
      // (The largest id can hold no row after it: its count saturates and allocation refuses it.)
      const int64_t last = n > 0 ? ids.back() : -1;
      const int64_t rows = last == std::numeric_limits<int64_t>::max() ? last : last + 1;
      if (rows < 0) return errors::InvalidArgument("segment ids must be >= 0");
      std::vector<int64_t> dims(data.shape().dims().begin(), data.shape().dims().end());
      dims[0] = rows;
      Shape out_shape(dims);
      int64_t count = 0;
      GRAPHFN_RETURN_IF_ERROR(checked_num_elements(out_shape, &count));
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, out_shape, &out));
      const int64_t inner = row_length(data.shape(), 1);
      T* po = out->data<T>();
      const T* pd = data.data<T>();
      // Empty segments hold 0 (1 for products), as in TF.
      const T empty = std::is_same_v<F, SegmentProdFold> ? T(1) : T(0);
      std::fill(po, po + out->num_elements(), empty);
      int64_t start = 0;
      for (int64_t end = 1; end <= n; ++end) {
        const int64_t id = ids[start];
        if (end < n) {
          if (ids[end] == id) continue;
          if (ids[end] < id) return errors::InvalidArgument("segment ids are not increasing");
        }
        if (id < 0 || id >= rows) {
          return errors::InvalidArgument("Segment id ", id, " out of range [0, ", rows,
                                         "), possibly because 'segment_ids' input is not sorted.");
        }
        T* dst = po + id * inner;
        for (int64_t j = 0; j < inner; ++j) {
          T acc = pd[start * inner + j];
          for (int64_t i = start + 1; i < end; ++i) acc = F::apply(acc, pd[i * inner + j]);
          if constexpr (std::is_same_v<F, SegmentMeanFold>) acc = static_cast<T>(acc / static_cast<T>(end - start));
          dst[j] = acc;
        }
        start = end;
      }
      return Status::OK();
    }
  };
};

template <typename F>
struct UnsortedSegment {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& data = c.input(0);
      std::vector<int64_t> ids;
      GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &ids));
      Tensor* out = nullptr;
      GRAPHFN_RETURN_IF_ERROR(allocate_checked(c, 0, &out));
      T* po = out->data<T>();
      const int64_t num_segments = out->rank() > 0 ? out->dim(0) : 0;
      std::fill(po, po + out->num_elements(), F::template init<T>());
      const int64_t inner = row_length(data.shape(), c.input(1).rank());
      const T* pd = data.data<T>();
      for (size_t i = 0; i < ids.size(); ++i) {
        const int64_t id = ids[i];
        if (id < 0) continue;  // dropped, as in TF
        if (id >= num_segments) {
          return errors::InvalidArgument("segment_ids[", static_cast<int64_t>(i), "] = ", id,
                                         " is out of range [0, ", num_segments, ")");
        }
        const T* src = pd + static_cast<int64_t>(i) * inner;
        T* dst = po + id * inner;
        for (int64_t j = 0; j < inner; ++j) dst[j] = F::apply(dst[j], src[j]);
      }
      return Status::OK();
    }
  };
};

}  // namespace

void register_segment_kernels(OpRegistry& reg) {
  // float16/bfloat16 fold in their own type, rounding each step, as TF does.
  using SumTypes = Concat<NumericTypes, HalfTypes, ComplexTypes, WideUnsignedTypes>;
  using OrderedTypes = Concat<NumericTypes, HalfTypes, WideUnsignedTypes>;
  register_kernels<SortedSegment<SegmentSumFold>::Kernel>(reg, "SegmentSum", SumTypes{});
  register_kernels<SortedSegment<SegmentMeanFold>::Kernel>(reg, "SegmentMean", SumTypes{});
  register_kernels<SortedSegment<SegmentProdFold>::Kernel>(reg, "SegmentProd", SumTypes{});
  register_kernels<SortedSegment<SegmentMaxFold>::Kernel>(reg, "SegmentMax", OrderedTypes{});
  register_kernels<SortedSegment<SegmentMinFold>::Kernel>(reg, "SegmentMin", OrderedTypes{});
  register_kernels<UnsortedSegment<SegmentSumFold>::Kernel>(reg, "UnsortedSegmentSum", SumTypes{});
  register_kernels<UnsortedSegment<SegmentProdFold>::Kernel>(reg, "UnsortedSegmentProd", SumTypes{});
  register_kernels<UnsortedSegment<SegmentMaxFold>::Kernel>(reg, "UnsortedSegmentMax", OrderedTypes{});
  register_kernels<UnsortedSegment<SegmentMinFold>::Kernel>(reg, "UnsortedSegmentMin", OrderedTypes{});
}

}  // namespace graphfn
