// Kernels of ops/special_math_ops.cc on Eigen's special functions (the ones TF's kernels use):
// erfinv(x) = ndtri((x + 1) / 2) / sqrt(2), as TF computes it. Generic loops, float and double.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"
#include "graphfn/kernels/serial_unary.h"

namespace graphfn {
namespace {

struct ErfinvOf {
  template <typename T> static T apply(T x) {
    return Eigen::numext::ndtri(T(0.5) * x + T(0.5)) * T(0.70710678118654752440);
  }
};
struct NdtriOf {
  template <typename T> static T apply(T x) { return Eigen::numext::ndtri(x); }
};

struct IgammaOf {
  template <typename T> static T apply(T a, T x) { return Eigen::numext::igamma(a, x); }
};
struct IgammacOf {
  template <typename T> static T apply(T a, T x) { return Eigen::numext::igammac(a, x); }
};
struct IgammaGradAOf {
  template <typename T> static T apply(T a, T x) { return Eigen::numext::igamma_der_a(a, x); }
};

template <typename F>
struct SpecialBinary {
  template <typename T>
  struct Kernel {
    static Status compute(KernelContext& c) {
      broadcast_binary_loop<T, T>(c.input(0), c.input(1), c.allocate_output(0),
                                  [](const T& a, const T& x) { return F::apply(a, x); });
      return Status::OK();
    }
  };
};

}  // namespace

void register_special_math_kernels(OpRegistry& reg) {
  register_kernels<SerialUnary<ErfinvOf>::Kernel>(reg, "Erfinv", FloatTypes{});
  register_kernels<SerialUnary<NdtriOf>::Kernel>(reg, "Ndtri", FloatTypes{});
  register_kernels<SpecialBinary<IgammaOf>::Kernel>(reg, "Igamma", FloatTypes{});
  register_kernels<SpecialBinary<IgammacOf>::Kernel>(reg, "Igammac", FloatTypes{});
  register_kernels<SpecialBinary<IgammaGradAOf>::Kernel>(reg, "IgammaGradA", FloatTypes{});
}

}  // namespace graphfn
