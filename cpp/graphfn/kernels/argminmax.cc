// ArgMax/ArgMin: the reduction loop (reduction.h) with a reducer that carries the best value
// and its index. Ties keep the first index; NaN is skipped unless every value is NaN (then 0),
// which is what TF's kernels return.
#include <cmath>
#include <limits>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduction.h"
#include "graphfn/ops/reduction_ops.h"

namespace graphfn {
namespace {

template <typename T, bool kMax>
struct ArgReducer {
  struct Acc {
    T value;
    int64_t index;
  };
  static constexpr bool kIdentityFinish = false;
  // Rows go in two passes: the extreme value (Eigen, vectorised; NaN only if all are NaN),
  // then the first index holding it. Same answer as folding step() over the row.
  template <typename In> static constexpr bool kFastRow = std::is_same_v<In, T> && !std::is_same_v<T, bool>;
  template <typename A> static Acc fast_row(const A& x) {
    const T best = kMax ? x.template maxCoeff<Eigen::PropagateNumbers>() : x.template minCoeff<Eigen::PropagateNumbers>();
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(best)) return {best, 0};
    }
    int64_t i = 0;
    while (x[i] != best) ++i;
    return {best, i};
  }
  static bool better(T x, T best) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return false;
      if (std::isnan(best)) return true;
    }
    return kMax ? x > best : x < best;
  }
  // Starts at index 0 with a value nothing beats (NaN for floats: any number replaces it),
  // so an all-NaN or all-extreme axis answers 0 without a "nothing seen" branch per step.
  static Acc init() {
    if constexpr (std::is_floating_point_v<T>) return {std::numeric_limits<T>::quiet_NaN(), 0};
    if constexpr (kMax) return {std::numeric_limits<T>::lowest(), 0};
    return {std::numeric_limits<T>::max(), 0};
  }
  static Acc step(Acc acc, T x, int64_t i) { return better(x, acc.value) ? Acc{x, i} : acc; }
  // Merges partial results (needed only to instantiate multi-axis reductions).
  static Acc step(Acc acc, Acc x, int64_t) { return better(x.value, acc.value) ? x : acc; }
  static int64_t finish(Acc acc, int64_t) { return acc.index; }
};

template <bool kMax>
struct ArgReduce {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& in = c.input(0);
      int axis = 0;
      GRAPHFN_RETURN_IF_ERROR(arg_reduction_axis(c.input(1), in.shape(), &axis));
      std::vector<bool> reduced(in.rank(), false);
      reduced[axis] = true;
      Tensor& out = c.allocate_output(0);
      visit_dtype(out.dtype(), TypeList<int16_t, int32_t, int64_t>{}, [&](auto tag) {
        using Out = decltype(tag);
        reduction::reduce<ArgReducer<T, kMax>>(in.data<T>(), in.shape(), reduced, out.data<Out>());
      });
      return Status::OK();
    }
  };
};

template <typename T>
using ArgMaxKernel = ArgReduce<true>::Kernel<T>;
template <typename T>
using ArgMinKernel = ArgReduce<false>::Kernel<T>;

}  // namespace

void register_argminmax_kernels(OpRegistry& reg) {
  using Types = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool, uint16_t, uint32_t, uint64_t>;
  register_kernels<ArgMaxKernel>(reg, "ArgMax", Types{});
  register_kernels<ArgMinKernel>(reg, "ArgMin", Types{});
}

}  // namespace graphfn
