// Reduction kernels: one template (reduction::reduce) x reducers x dtypes.
// Integer sums and products wrap like TF; Mean accumulates integers in int64 and divides
// with truncation (TF's behaviour: the mean of [INT32_MAX, INT32_MAX] is INT32_MAX).
#include <cmath>
#include <limits>

#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduction.h"
#include "graphfn/ops/reduction_ops.h"

namespace graphfn {
namespace {

template <typename T>
struct SumReducer {
  using Acc = T;
  static constexpr bool kSplitRows = true;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = std::is_floating_point_v<In>;
  static Acc init() { return T(0); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_add(a, static_cast<T>(x)); }
  template <typename A> static Acc fast_row(const A& x) { return x.sum(); }
  static T finish(Acc a, int64_t) { return a; }
};

template <typename T>
struct MeanReducer {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, T, int64_t>;
  static constexpr bool kSplitRows = true;
  static constexpr bool kIdentityFinish = false;
  template <typename In> static constexpr bool kFastRow = std::is_floating_point_v<In>;
  static Acc init() { return Acc(0); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_add(a, static_cast<Acc>(x)); }
  template <typename A> static Acc fast_row(const A& x) { return x.sum(); }
  static T finish(Acc a, int64_t count) {
    if constexpr (std::is_floating_point_v<T>) {
      return a / static_cast<T>(count);  // 0/0 = NaN for empty reductions, as in TF
    } else {
      return count == 0 ? T(0) : static_cast<T>(a / count);
    }
  }
};

template <typename T>
struct ProdReducer {
  using Acc = T;
  static constexpr bool kSplitRows = true;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = std::is_floating_point_v<In>;
  static Acc init() { return T(1); }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::wrap_mul(a, static_cast<T>(x)); }
  template <typename A> static Acc fast_row(const A& x) { return x.prod(); }
  static T finish(Acc a, int64_t) { return a; }
};

// Max/Min propagate NaN; their identities are -inf/+inf (lowest/highest for integers).
template <typename T>
struct MaxReducer {
  using Acc = T;
  static constexpr bool kSplitRows = true;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = std::is_floating_point_v<In>;
  static Acc init() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::lowest();
  }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::Maximum::apply(a, static_cast<T>(x)); }
  template <typename A> static Acc fast_row(const A& x) { return x.template maxCoeff<Eigen::PropagateNaN>(); }
  static T finish(Acc a, int64_t) { return a; }
};

template <typename T>
struct MinReducer {
  using Acc = T;
  static constexpr bool kSplitRows = true;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = std::is_floating_point_v<In>;
  static Acc init() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::max();
  }
  template <typename X> static Acc step(Acc a, X x, int64_t) { return functors::Minimum::apply(a, static_cast<T>(x)); }
  template <typename A> static Acc fast_row(const A& x) { return x.template minCoeff<Eigen::PropagateNaN>(); }
  static T finish(Acc a, int64_t) { return a; }
};

template <typename T>
struct AnyReducer {
  using Acc = bool;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() { return false; }
  static Acc step(Acc a, bool x, int64_t) { return a || x; }
  static bool finish(Acc a, int64_t) { return a; }
};

template <typename T>
struct AllReducer {
  using Acc = bool;
  static constexpr bool kIdentityFinish = true;
  template <typename In> static constexpr bool kFastRow = false;
  static Acc init() { return true; }
  static Acc step(Acc a, bool x, int64_t) { return a && x; }
  static bool finish(Acc a, int64_t) { return a; }
};

template <typename T>
using SumKernel = reduction::OverAxes<SumReducer>::Kernel<T>;
template <typename T>
using MeanKernel = reduction::OverAxes<MeanReducer>::Kernel<T>;
template <typename T>
using ProdKernel = reduction::OverAxes<ProdReducer>::Kernel<T>;
template <typename T>
using MaxKernel = reduction::OverAxes<MaxReducer>::Kernel<T>;
template <typename T>
using MinKernel = reduction::OverAxes<MinReducer>::Kernel<T>;

// EuclideanNorm: sqrt of the sum of squares (integers: the square root truncated, as TF's).
template <typename T>
struct EuclideanNormKernel {
  static Status compute(KernelContext& c) {
    const Tensor& in = c.input(0);
    std::vector<bool> reduced;
    GRAPHFN_RETURN_IF_ERROR(reduction_axes(c.input(1), in.rank(), &reduced));
    std::vector<T> squares(static_cast<size_t>(in.num_elements()));
    const T* p = in.data<T>();
    for (size_t i = 0; i < squares.size(); ++i) squares[i] = functors::wrap_mul(p[i], p[i]);
    Tensor& out = c.allocate_output(0);
    T* po = out.data<T>();
    reduction::reduce<SumReducer<T>>(squares.data(), in.shape(), reduced, po);
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        po[i] = std::sqrt(po[i]);
      } else {  // a wrapped (negative) sum has no square root: 0
        po[i] = po[i] < 0 ? T(0) : static_cast<T>(std::sqrt(static_cast<double>(po[i])));
      }
    }
    return Status::OK();
  }
};

}  // namespace

void register_reduction_kernels(OpRegistry& reg) {
  register_kernels<SumKernel>(reg, "Sum", NumericTypes{});
  register_kernels<MeanKernel>(reg, "Mean", NumericTypes{});
  register_kernels<ProdKernel>(reg, "Prod", NumericTypes{});
  register_kernels<MaxKernel>(reg, "Max", NumericTypes{});
  register_kernels<MinKernel>(reg, "Min", NumericTypes{});
  register_kernels<EuclideanNormKernel>(reg, "EuclideanNorm", NumericTypes{});
  for (DType tidx : {DType::kInt32, DType::kInt64}) {
    reg.set_kernel("Any", tidx, &reduction::OverAxes<AnyReducer>::Kernel<bool>::compute);
    reg.set_kernel("All", tidx, &reduction::OverAxes<AllReducer>::Kernel<bool>::compute);
  }
}

}  // namespace graphfn
