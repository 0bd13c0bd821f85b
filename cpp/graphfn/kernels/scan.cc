// Kernels of ops/scan_ops.cc: one loop over (outer, inner) lines along the axis, forwards or
// backwards, the running value written before (exclusive) or after (inclusive) each element.
#include <Eigen/Core>  // float16/bfloat16 elements
#include <algorithm>
#include <cmath>
#include <limits>

#include "graphfn/kernels/array_util.h"
#include "graphfn/kernels/functors.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/ops/array_shape_util.h"

namespace graphfn {
namespace {

struct SumOp {
  template <typename T>
  static T identity() { return T(0); }
  template <typename T>
  static T apply(T a, T b) { return functors::wrap_add(a, b); }  // integers wrap, as in TF
};
struct ProdOp {
  template <typename T>
  static T identity() { return T(1); }
  template <typename T>
  static T apply(T a, T b) { return functors::wrap_mul(a, b); }
};

// log(exp(a) + exp(b)) without overflow; -inf (nothing yet) stays -inf, as in TF.
struct LogSumExpOp {
  template <typename T>
  static T identity() { return -std::numeric_limits<T>::infinity(); }
  template <typename T>
  static T apply(T a, T b) {
    const T lo = std::min(a, b), hi = std::max(a, b);
    if (hi < std::numeric_limits<T>::lowest()) return hi;
    return std::log1p(std::exp(lo - hi)) + hi;
  }
};

template <typename Op>
struct Scan {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      const Tensor& x = c.input(0);
      std::vector<int64_t> axis_value;
      GRAPHFN_RETURN_IF_ERROR(int_values(c.input(1), &axis_value));
      const int axis = static_cast<int>(axis_value[0] < 0 ? axis_value[0] + x.rank() : axis_value[0]);
      const bool exclusive = c.attrs.get_bool("exclusive", false), reverse = c.attrs.get_bool("reverse", false);
      Tensor& out = c.allocate_output(0);
      int64_t outer = 1, inner = 1;
      for (int d = 0; d < axis; ++d) outer *= x.dim(d);
      for (int d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
      const int64_t len = x.dim(axis);
      const T* px = x.data<T>();
      T* po = out.data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          T acc = Op::template identity<T>();
          for (int64_t k = 0; k < len; ++k) {
            const int64_t pos = (o * len + (reverse ? len - 1 - k : k)) * inner + i;
            if (exclusive) po[pos] = acc;
            acc = Op::apply(acc, px[pos]);
            if (!exclusive) po[pos] = acc;
          }
        }
      }
      return Status::OK();
    }
  };
};

}  // namespace

void register_scan_kernels(OpRegistry& reg) {
  // float16/bfloat16 add and multiply in their own type, rounding each step, as TF does.
  using ScanTypes = Concat<NumericTypes, HalfTypes, ComplexTypes, WideUnsignedTypes>;
  register_kernels<Scan<SumOp>::Kernel>(reg, "Cumsum", ScanTypes{});
  register_kernels<Scan<ProdOp>::Kernel>(reg, "Cumprod", ScanTypes{});
  register_kernels<Scan<LogSumExpOp>::Kernel>(reg, "CumulativeLogsumexp", FloatTypes{});
}

}  // namespace graphfn
