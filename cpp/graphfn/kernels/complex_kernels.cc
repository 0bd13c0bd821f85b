// Kernels of ops/complex_ops.cc: Complex (broadcasting), Real, Imag, Angle, ComplexAbs, Conj.
#include <cmath>
#include <complex>

#include "graphfn/kernels/broadcast.h"
#include "graphfn/kernels/kernel_context.h"

namespace graphfn {
namespace {

template <typename R>
struct ComplexKernel {
  static Status compute(KernelContext& c) {
    broadcast_binary_loop<R, std::complex<R>>(c.input(0), c.input(1), c.allocate_output(0),
                                              [](R re, R im) { return std::complex<R>(re, im); });
    return Status::OK();
  }
};

// complex -> real, element by element.
template <typename F>
struct ToReal {
  template <typename C>
  struct Kernel {
    static Status compute(KernelContext& c) {
      using R = typename C::value_type;
      const Tensor& x = c.input(0);
      const C* in = x.data<C>();
      R* out = c.allocate_output(0).data<R>();
      for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = F::apply(in[i]);
      return Status::OK();
    }
  };
};

struct RealPart { template <typename C> static auto apply(const C& z) { return z.real(); } };
struct ImagPart { template <typename C> static auto apply(const C& z) { return z.imag(); } };
struct Argument { template <typename C> static auto apply(const C& z) { return std::arg(z); } };
// std::abs of a complex is hypot(re, im): no overflow for large parts, as TF's.
struct Modulus { template <typename C> static auto apply(const C& z) { return std::abs(z); } };

template <typename C>
struct ConjKernel {
  static Status compute(KernelContext& c) {
    const Tensor& x = c.input(0);
    const C* in = x.data<C>();
    C* out = c.allocate_output(0).data<C>();
    for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = std::conj(in[i]);
    return Status::OK();
  }
};

}  // namespace

void register_complex_kernels(OpRegistry& reg) {
  register_kernels<ComplexKernel>(reg, "Complex", FloatTypes{});
  register_kernels<ToReal<RealPart>::Kernel>(reg, "Real", ComplexTypes{});
  register_kernels<ToReal<ImagPart>::Kernel>(reg, "Imag", ComplexTypes{});
  register_kernels<ToReal<Argument>::Kernel>(reg, "Angle", ComplexTypes{});
  register_kernels<ToReal<Modulus>::Kernel>(reg, "ComplexAbs", ComplexTypes{});
  register_kernels<ConjKernel>(reg, "Conj", ComplexTypes{});
}

}  // namespace graphfn
