// Sum/Mean/Prod/Max/Min for float16, bfloat16, complex64/128 and uint16/32/64 (TF registers
// them all, except Max/Min for complex). float16/bfloat16 accumulate in float and round the
// result once, as TF's kernels do for whole-tensor and innermost-axis reductions; unsigned
// sums wrap; unsigned means accumulate in 64 bits (TF: the mean of [2**32-1, 5] as uint32 is
// 2147483650).
#include <Eigen/Core>
#include <complex>
#include <limits>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduced_precision.h"
#include "graphfn/kernels/reduction.h"
#include "graphfn/ops/reduction_ops.h"

namespace graphfn {
namespace {

// What a reduction over T accumulates in.
template <typename T>
using WideAccOf = std::conditional_t<kReducedFloat<T>, float, T>;

template <typename T>
struct SumWideReducer {
  using Acc = WideAccOf<T>;
  static constexpr bool kIdentityFinish = !kReducedFloat<T>;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() { return Acc(0); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_add(a, static_cast<Acc>(x)); }
  static T finish(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
struct ProdWideReducer {
  using Acc = WideAccOf<T>;
  static constexpr bool kIdentityFinish = !kReducedFloat<T>;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() { return Acc(1); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_mul(a, static_cast<Acc>(x)); }
  static T finish(Acc a, int64_t) { return static_cast<T>(a); }
};

template <typename T>
struct MeanWideReducer {
  using Acc = std::conditional_t<std::is_integral_v<T>, uint64_t, WideAccOf<T>>;
  static constexpr bool kIdentityFinish = false;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() { return Acc(0); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_add(a, static_cast<Acc>(x)); }
  static T finish(Acc a, int64_t count) {
    if constexpr (std::is_integral_v<T>) {
      return count == 0 ? T(0) : static_cast<T>(a / static_cast<uint64_t>(count));
    } else {
      using Real = decltype(std::abs(a));
      return static_cast<T>(a / static_cast<Real>(count));  // 0/0 = NaN for empty reductions, as in TF
    }
  }
};

// NaN-propagating; the identities are -inf/+inf for floats, the range's ends for integers.
template <typename T, bool kMax>
struct ExtremumReducer {
  using Acc = WideAccOf<T>;
  static constexpr bool kIdentityFinish = !kReducedFloat<T>;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() {
    if constexpr (std::is_integral_v<Acc>) {
      return kMax ? std::numeric_limits<Acc>::lowest() : std::numeric_limits<Acc>::max();
    } else {
      return kMax ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
    }
  }
  template <typename X> static Acc step(Acc a, X x, int64_t) {
    return kMax ? functors::Maximum::apply(a, static_cast<Acc>(x)) : functors::Minimum::apply(a, static_cast<Acc>(x));
  }
  static T finish(Acc a, int64_t) { return static_cast<T>(a); }
};
template <typename T> using MaxWideReducer = ExtremumReducer<T, true>;
template <typename T> using MinWideReducer = ExtremumReducer<T, false>;

}  // namespace

void register_dtype_reduction_kernels(OpRegistry& reg) {
  using AllNew = Concat<HalfTypes, ComplexTypes, WideUnsignedTypes>;
  using Ordered = Concat<HalfTypes, WideUnsignedTypes>;
  register_kernels<reduction::OverAxes<SumWideReducer>::Kernel>(reg, "Sum", AllNew{});
  register_kernels<reduction::OverAxes<MeanWideReducer>::Kernel>(reg, "Mean", AllNew{});
  register_kernels<reduction::OverAxes<ProdWideReducer>::Kernel>(reg, "Prod", AllNew{});
  register_kernels<reduction::OverAxes<MaxWideReducer>::Kernel>(reg, "Max", Ordered{});
  register_kernels<reduction::OverAxes<MinWideReducer>::Kernel>(reg, "Min", Ordered{});
}

}  // namespace graphfn
