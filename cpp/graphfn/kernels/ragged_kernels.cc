// Kernel of ops/ragged_ops.cc: RaggedRange. Row sizes are computed first (in long double, so a
// range wider than the splits type is TF's error rather than an overflow), then the values.
#include <cmath>
#include <limits>
#include <type_traits>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename T>
struct RaggedRangeKernel {
  static Status compute(KernelContext& c) {
    static const char* const kNames[] = {"starts", "limits", "deltas"};
    const Tensor* args[3] = {&c.input(0), &c.input(1), &c.input(2)};
    int64_t rows = 1;
    bool any_vector = false;
    for (int i = 0; i < 3; ++i) {
      if (args[i]->rank() > 1) return errors::InvalidArgument(kNames[i], " must be a scalar or vector");
    }
    for (int i = 0; i < 3; ++i) {
      if (args[i]->rank() != 1) continue;
      if (any_vector && args[i]->dim(0) != rows) {
        return errors::InvalidArgument("starts, limits, and deltas must have the same shape");
      }
      rows = args[i]->dim(0);
      any_vector = true;
    }
    auto at = [&](int which, int64_t row) {
      const Tensor& t = *args[which];
      return t.data<T>()[t.rank() == 0 ? 0 : row];
    };
    const DType splits_type = c.output_dtypes[0];
    const long double max_size = splits_type == DType::kInt32
                                     ? static_cast<long double>(std::numeric_limits<int32_t>::max())
                                     : static_cast<long double>(std::numeric_limits<int64_t>::max());
    std::vector<int64_t> sizes(static_cast<size_t>(rows));
    long double total = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const T start = at(0, r), limit = at(1, r), delta = at(2, r);
      if (delta == T(0)) return errors::InvalidArgument("Requires delta != 0");
      long double size = 0;
      if (!((delta > T(0) && limit < start) || (delta < T(0) && limit > start))) {
        const long double span = std::fabs(static_cast<long double>(limit) - static_cast<long double>(start));
        size = std::ceil(span / std::fabs(static_cast<long double>(delta)));
      }
      if (!(size <= max_size)) {
        return errors::InvalidArgument("Requires ((limit - start) / delta) <= ",
                                       splits_type == DType::kInt32 ? "2147483647" : "9223372036854775807");
      }
      sizes[static_cast<size_t>(r)] = static_cast<int64_t>(size);
      total += size;
    }
    if (!(total <= max_size)) {
      return errors::InvalidArgument("The total range size overflowed. Consider using int64 instead of int32 for "
                                     "row_splits_dtype.");
    }
    Tensor *splits = nullptr, *values = nullptr;
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(0, Shape{rows + 1}, &splits));
    GRAPHFN_RETURN_IF_ERROR(c.allocate_output(1, Shape{static_cast<int64_t>(total)}, &values));
    visit_dtype(splits_type, TypeList<int32_t, int64_t>{}, [&](auto tag) {
      using S = decltype(tag);
      S* ps = splits->data<S>();
      ps[0] = 0;
      for (int64_t r = 0; r < rows; ++r) ps[r + 1] = static_cast<S>(ps[r] + sizes[static_cast<size_t>(r)]);
    });
    T* pv = values->data<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const T start = at(0, r), delta = at(2, r);
      T value = start;
      for (int64_t i = 0; i < sizes[static_cast<size_t>(r)]; ++i) {
        *pv++ = value;
        // The step after the last value may pass the type's range: integers wrap (unused).
        value = functors::wrap_add(value, delta);
      }
    }
    return Status::OK();
  }
};

}  // namespace

void register_ragged_kernels(OpRegistry& reg) {
  register_kernels<RaggedRangeKernel>(reg, "RaggedRange", TypeList<float, double, int32_t, int64_t>{});
}

}  // namespace graphfn
