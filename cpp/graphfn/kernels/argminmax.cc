// ArgMax/ArgMin: the reduction loop (reduction.h) with a reducer that carries the best value
// and its index. Ties keep the first index; NaN is skipped unless every value is NaN (then 0),
// which is what TF's kernels return.
#include <cmath>

#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/reduction.h"
#include "graphfn/ops/reduction_ops.h"

namespace graphfn {
namespace {

template <typename T, bool kMax>
struct ArgReducer {
  struct Acc {
    T value;
    int64_t index;  // -1: nothing seen yet
  };
  static constexpr bool kIdentityFinish = false, kEigenRow = false;
  static bool better(T x, T best) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x)) return false;
      if (std::isnan(best)) return true;
    }
    return kMax ? x > best : x < best;
  }
  static Acc init() { return {T(), -1}; }
  static Acc step(Acc acc, T x, int64_t i) { return acc.index < 0 || better(x, acc.value) ? Acc{x, i} : acc; }
  // Merges partial results (needed only to instantiate multi-axis reductions).
  static Acc step(Acc acc, Acc x, int64_t) { return acc.index < 0 || better(x.value, acc.value) ? x : acc; }
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
  using Types = TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t, bool>;
  register_kernels<ArgMaxKernel>(reg, "ArgMax", Types{});
  register_kernels<ArgMinKernel>(reg, "ArgMin", Types{});
}

}  // namespace graphfn
